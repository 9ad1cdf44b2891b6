// /widget/leaderboard?key=K: the top supporters as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { ApiClient } from '../client/api.ts';
import { EventHub } from '../client/event-hub.ts';
import { connectWidgets } from '../client/widget-page.ts';
import Leaderboard from '../../widgets/leaderboard/Leaderboard.svelte';
import { leaderboardTheme, parseLeaderboardParams } from '../../widgets/leaderboard/params.ts';
import { LeaderboardState } from '../../widgets/leaderboard/leaderboard.svelte.ts';
import { TTS_EVENTS } from '../contract/events.ts';

const target = document.getElementById('app')!;
const parsed = parseLeaderboardParams(location.search);

if (!parsed.ok) {
	const view = { status: 'connecting', statusDetail: '', rows: [], loaded: false, currency: null };
	mount(Leaderboard, { target, props: { view: view as never, paramErrors: parsed.errors } });
} else {
	const params = parsed.value;
	const api = new ApiClient({ overlayKey: params.key });
	const events = new EventHub();
	const state = new LeaderboardState({ api, events, limit: params.limit }).start();
	// Only tip.created matters here; the rest of the TTS group is dropped unread.
	const table = { 'tip.created': TTS_EVENTS['tip.created'] };
	connectWidgets(api, events, [state], table, { leaderboard: state.view });
	mount(Leaderboard, { target, props: { view: state.view, theme: leaderboardTheme(params) } });
}
