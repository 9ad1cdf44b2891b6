// /widget/leaderboard?key=K: the top supporters as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { startPage } from './start-page.ts';
import { connectWidgets } from '../client/widget-page.ts';
import Leaderboard from '../../widgets/leaderboard/Leaderboard.svelte';
import { parseLeaderboardParams } from '../../widgets/leaderboard/params.ts';
import { LeaderboardState } from '../../widgets/leaderboard/leaderboard.svelte.ts';
import { unreadList } from '../../widgets/shared/list-reads.svelte.ts';
import { TTS_EVENTS } from '../contract/events.ts';

startPage(
	'leaderboard',
	parseLeaderboardParams,
	(target, paramErrors) =>
		mount(Leaderboard, { target, props: { view: unreadList(), paramErrors } }),
	(params, api, events, target) => {
		const state = new LeaderboardState({ api, events, limit: params.limit, theme: params }).start();
		// Only tip.created matters here; the rest of the TTS group is dropped unread.
		const table = { 'tip.created': TTS_EVENTS['tip.created'] };
		connectWidgets(api, events, [state], table, { leaderboard: state.view });
		// The theme through a getter: the markup follows the stored settings.
		mount(Leaderboard, {
			target,
			props: {
				view: state.view,
				get theme() {
					return state.theme;
				}
			}
		});
		return state;
	}
);
