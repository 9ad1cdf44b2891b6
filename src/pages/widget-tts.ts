// /widget/tts?key=K: the TTS player as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { startSample } from './sample-page.ts';
import { startPage } from './start-page.ts';
import { createAudioPort } from '../client/audio.ts';
import { createObsBridge } from '../client/obs.ts';
import { announceCelebration, createSpeechAnnouncer } from '../client/sound-bus.ts';
import { connectLive, connectWidgets } from '../client/widget-page.ts';
import TtsApp from '../../widgets/tts/TtsApp.svelte';
import { parseTtsParams } from '../../widgets/tts/params.ts';
import { sampleTtsView } from '../../widgets/tts/sample.ts';
import { TtsPlayer } from '../../widgets/tts/tts-player.svelte.ts';
import { initialTtsView } from '../../widgets/tts/view.ts';
import { TTS_EVENTS } from '../contract/events.ts';

const showErrors = (target: HTMLElement, paramErrors: string[]) =>
	mount(TtsApp, { target, props: { staticView: initialTtsView(paramErrors) } });

// sample=1: a still alert for placing and theming (the preview's gallery, the settings editor):
// nothing connects, claims or plays.
if (
	!startSample(parseTtsParams, showErrors, (params, target) =>
		mount(TtsApp, { target, props: { staticView: sampleTtsView(params), theme: params } })
	)
)
	startPage(parseTtsParams, showErrors, async (params, api, events, target) => {
		const audio = createAudioPort();
		const player = await TtsPlayer.open({
			api,
			events,
			audio,
			obs: createObsBridge(),
			params,
			instance: params.instance ?? 'widget-tts',
			// Media players of this origin (other OBS sources) duck or hold their videos while it speaks.
			speech: createSpeechAnnouncer(),
			// A tier with celebrate=1 fires the celebration sources of this OBS (same origin).
			celebrate: announceCelebration
		});
		player.start();
		// The player reads the TTS queue's events only: an overlay event is ignored unparsed. It obeys
		// the moderation decisions: the push channel says when one changed.
		connectWidgets(api, events, [player], TTS_EVENTS, { player });
		connectLive(api, events, [player]);
		mount(TtsApp, {
			target,
			props: { player, theme: params, onUnlockAudio: () => void audio.unlock() }
		});
	});
