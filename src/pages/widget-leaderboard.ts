// /widget/leaderboard?key=K: the top supporters as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { startSample } from './sample-page.ts';
import { startPage } from './start-page.ts';
import { connectWidgets } from '../client/widget-page.ts';
import Leaderboard from '../../widgets/leaderboard/Leaderboard.svelte';
import { parseLeaderboardParams } from '../../widgets/leaderboard/params.ts';
import { LeaderboardState } from '../../widgets/leaderboard/leaderboard.svelte.ts';
import { sampleSupporters } from '../../widgets/leaderboard/sample.ts';
import { unreadList } from '../../widgets/shared/list-reads.svelte.ts';
import { TTS_EVENTS } from '../contract/events.ts';

const showErrors = (target: HTMLElement, paramErrors: string[]) =>
	mount(Leaderboard, { target, props: { view: unreadList(), paramErrors } });

// sample=1: a few sample supporters, still: nothing connects or reads.
if (
	!startSample(parseLeaderboardParams, showErrors, (params, target) =>
		mount(Leaderboard, { target, props: { view: sampleSupporters(params.limit), theme: params } })
	)
)
	startPage(parseLeaderboardParams, showErrors, (params, api, events, target) => {
		const state = new LeaderboardState({ api, events, limit: params.limit }).start();
		// Only tip.created matters here; the rest of the TTS group is dropped unread.
		const table = { 'tip.created': TTS_EVENTS['tip.created'] };
		connectWidgets(api, events, [state], table, { leaderboard: state.view });
		mount(Leaderboard, { target, props: { view: state.view, theme: params } });
	});
