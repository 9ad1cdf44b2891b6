// /widget/media?key=K: the media player (viewers' video requests) as an OBS browser source.
import { mount } from 'svelte';
import { startSample } from './sample-page.ts';
import { startPage } from './start-page.ts';
import { AutoplayGate } from '../client/autoplay-gate.ts';
import { openClaimMemory } from '../client/claim-memory.ts';
import { createObsBridge } from '../client/obs.ts';
import { SpeechListener } from '../client/sound-bus.ts';
import { connectWidgets } from '../client/widget-page.ts';
import MediaWidget from '../../widgets/media/MediaWidget.svelte';
import { MediaPlayer } from '../../widgets/media/media-player.svelte.ts';
import { mediaTheme, parseMediaParams } from '../../widgets/media/params.ts';
import { sampleMediaView } from '../../widgets/media/sample.ts';
import { initialMediaView } from '../../widgets/media/view.ts';
import { MEDIA_EVENTS, OVERLAY_EVENTS, TTS_EVENTS } from '../contract/events.ts';

const showErrors = (target: HTMLElement, paramErrors: string[]) =>
	mount(MediaWidget, { target, props: { view: initialMediaView(paramErrors) } });

// sample=1: the player's box with a video request's info, still: nothing connects, loads or plays.
if (
	!startSample(parseMediaParams, showErrors, (params, target) =>
		mount(MediaWidget, { target, props: { view: sampleMediaView(), theme: mediaTheme(params) } })
	)
)
	startPage(parseMediaParams, showErrors, async (params, api, events, target) => {
		const instance = params.instance ?? 'widget-media';
		const gate = new AutoplayGate();
		const obs = createObsBridge();
		const speech = new SpeechListener();
		const memory = await openClaimMemory('media', instance);
		const player = new MediaPlayer({ api, events, obs, memory, params, instance, gate, speech });
		player.start();
		connectWidgets(
			api,
			events,
			[player],
			{ ...MEDIA_EVENTS, ...TTS_EVENTS, ...OVERLAY_EVENTS },
			{ player }
		);
		// The view is the player's own reactive state: the widget follows it.
		mount(MediaWidget, {
			target,
			props: {
				view: player.view,
				theme: mediaTheme(params),
				attach: (el: HTMLElement) => player.attach(el),
				onUnlockAudio: () => void gate.unlock()
			}
		});
	});
