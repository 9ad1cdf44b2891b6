// /widget/recent?key=K: the latest tips and video requests as an OBS browser source (transparent).
import { startListPage } from './list-page.ts';
import Recent from '../../widgets/recent/Recent.svelte';
import { parseRecentParams } from '../../widgets/recent/params.ts';
import { RecentState } from '../../widgets/recent/recent.svelte.ts';
import { sampleRecent } from '../../widgets/recent/sample.ts';
import { MEDIA_EVENTS, TTS_EVENTS } from '../contract/events.ts';

// Tips are listed as moderation decided them: the page's push channel says when a decision
// changed.
startListPage('recent', parseRecentParams, Recent, sampleRecent, RecentState, {
	...TTS_EVENTS,
	...MEDIA_EVENTS
});
