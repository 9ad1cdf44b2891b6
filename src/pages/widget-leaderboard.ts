// /widget/leaderboard?key=K: the top supporters as an OBS browser source (transparent page).
import { startListPage } from './list-page.ts';
import Leaderboard from '../../widgets/leaderboard/Leaderboard.svelte';
import { parseLeaderboardParams } from '../../widgets/leaderboard/params.ts';
import { LeaderboardState } from '../../widgets/leaderboard/leaderboard.svelte.ts';
import { sampleSupporters } from '../../widgets/leaderboard/sample.ts';
import { TTS_EVENTS } from '../contract/events.ts';

startListPage(
	'leaderboard',
	parseLeaderboardParams,
	Leaderboard,
	sampleSupporters,
	LeaderboardState,
	// Only tip.created matters here; the rest of the TTS group is dropped unread.
	{ 'tip.created': TTS_EVENTS['tip.created'] }
);
