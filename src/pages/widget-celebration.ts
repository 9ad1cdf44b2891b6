// /widget/celebration?key=K: confetti or fireworks when the upstream celebrates this overlay or
// widget (or every overlay), as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { startPage } from './start-page.ts';
import { listenCelebrations } from '../client/sound-bus.ts';
import { connectWidgets } from '../client/widget-page.ts';
import Celebration from '../../widgets/celebration/Celebration.svelte';
import { CelebrationState } from '../../widgets/celebration/celebration.svelte.ts';
import { parseCelebrationParams } from '../../widgets/celebration/params.ts';
import { OVERLAY_EVENTS } from '../contract/events.ts';

startPage(
	parseCelebrationParams,
	(target, paramErrors) => mount(Celebration, { target, props: { paramErrors } }),
	(params, api, events, target) => {
		const state = new CelebrationState({ api, events, params });
		state.start();
		// An alert tier with celebrate=1 on a TTS source of this OBS.
		listenCelebrations((reason) => state.fire(reason));
		connectWidgets(api, events, [state], OVERLAY_EVENTS, { celebration: state });
		mount(Celebration, { target, props: { model: state } });
	}
);
