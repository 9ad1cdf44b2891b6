// /widget/celebration?key=K: confetti or fireworks when the upstream celebrates this overlay or
// widget (or every overlay), as an OBS browser source (transparent page).
import { startModelPage } from './start-page.ts';
import { listenCelebrations } from '../client/sound-bus.ts';
import Celebration from '../../widgets/celebration/Celebration.svelte';
import { CelebrationState } from '../../widgets/celebration/celebration.svelte.ts';
import { parseCelebrationParams } from '../../widgets/celebration/params.ts';
import { OVERLAY_EVENTS } from '../contract/events.ts';

startModelPage(
	'celebration',
	parseCelebrationParams,
	Celebration,
	(params, api, events) => {
		const state = new CelebrationState({ api, events, params });
		// An alert tier with celebrate=1 on a TTS source of this OBS.
		listenCelebrations((reason) => state.fire(reason));
		return state;
	},
	OVERLAY_EVENTS
);
