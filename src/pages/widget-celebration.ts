// /widget/celebration?key=K: confetti or fireworks when the upstream celebrates this overlay or
// widget (or every overlay), as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { startSample } from './sample-page.ts';
import { startModelPage } from './start-page.ts';
import { EventHub } from '../client/event-hub.ts';
import { listenCelebrations } from '../client/sound-bus.ts';
import Celebration from '../../widgets/celebration/Celebration.svelte';
import { CelebrationState } from '../../widgets/celebration/celebration.svelte.ts';
import {
	parseCelebrationParams,
	type CelebrationParams
} from '../../widgets/celebration/params.ts';
import { OVERLAY_EVENTS } from '../contract/events.ts';

/**
 * sample=1: one celebration on load, and one more each time the page that frames it (the settings
 * editor) posts 'fire'; nothing connects, and nothing runs between celebrations.
 */
function showSample(params: CelebrationParams, target: HTMLElement): void {
	const state = new CelebrationState({ events: new EventHub(), params });
	state.setConnection('open', '');
	mount(Celebration, { target, props: { model: state } });
	state.fire('sample');
	addEventListener('message', (e) => {
		if (e.origin === location.origin && e.data === 'fire') state.fire('sample');
	});
}

if (
	!startSample(
		parseCelebrationParams,
		(target, paramErrors) => mount(Celebration, { target, props: { paramErrors } }),
		showSample
	)
)
	startModelPage(
		parseCelebrationParams,
		Celebration,
		(params, api, events) => {
			const state = new CelebrationState({ api, events, params });
			// An alert tier with celebrate=1 on a TTS source of this OBS.
			listenCelebrations((reason) => state.fire(reason));
			return state;
		},
		OVERLAY_EVENTS,
		'celebration'
	);
