// /widget/tts?key=K: the TTS player as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { startSample } from './sample-page.ts';
import { startPage } from './start-page.ts';
import { createAudioPort, type HowlerAudioPort } from '../client/audio.ts';
import { createObsBridge } from '../client/obs.ts';
import { announceCelebration, createSpeechAnnouncer } from '../client/sound-bus.ts';
import { connectWidgets } from '../client/widget-page.ts';
import TtsApp from '../../widgets/tts/TtsApp.svelte';
import { parseTtsParams } from '../../widgets/tts/params.ts';
import { sampleTtsView } from '../../widgets/tts/sample.ts';
import { TtsPlayer } from '../../widgets/tts/tts-player.svelte.ts';
import { initialTtsView } from '../../widgets/tts/view.ts';
import { TTS_EVENTS } from '../contract/events.ts';

/** Made as the page loads: see `early` below. */
let port: HowlerAudioPort | null = null;

const showErrors = (target: HTMLElement, paramErrors: string[]) =>
	mount(TtsApp, { target, props: { staticView: initialTtsView(paramErrors) } });

// sample=1: a still alert for placing and theming (the preview's gallery, the settings editor):
// nothing connects, claims or plays, and the stored settings are not read (the URL is the sample).
const sample = startSample(parseTtsParams, showErrors, (params, target) =>
	mount(TtsApp, { target, props: { staticView: sampleTtsView(params), theme: params } })
);
if (!sample)
	startPage(
		'tts',
		parseTtsParams,
		showErrors,
		async (params, api, events, target) => {
			const audio = port ?? createAudioPort();
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
			// the moderation decisions: the page's push channel says when one changed.
			connectWidgets(api, events, [player], TTS_EVENTS, { player });
			mount(TtsApp, { target, props: { player, onUnlockAudio: () => void audio.unlock() } });
			return player;
		},
		// The audio port learns at once whether the browser lets the page play (or must ask for a
		// click), as the page loads, not after the stored settings were read.
		() => {
			port = createAudioPort();
		}
	);
