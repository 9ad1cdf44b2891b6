// /widget/tts?key=K: the TTS player as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { ApiClient } from '../client/api.ts';
import { createAudioPort } from '../client/audio.ts';
import { openClaimMemory } from '../client/claim-memory.ts';
import { EventHub } from '../client/event-hub.ts';
import { createObsBridge } from '../client/obs.ts';
import { createSpeechAnnouncer } from '../client/sound-bus.ts';
import { connectWidgets } from '../client/widget-page.ts';
import TtsApp from '../../widgets/tts/TtsApp.svelte';
import { parseTtsParams, ttsTheme } from '../../widgets/tts/params.ts';
import { TtsPlayer } from '../../widgets/tts/tts-player.svelte.ts';
import type { TtsViewModel } from '../../widgets/tts/view.ts';
import { OVERLAY_EVENTS, TTS_EVENTS } from '../contract/events.ts';

const target = document.getElementById('app')!;
const parsed = parseTtsParams(location.search);

if (!parsed.ok) {
	mount(TtsApp, {
		target,
		props: {
			staticView: {
				status: 'connecting',
				alert: null,
				alertVisible: false,
				captionDurationS: null,
				captionStartedAt: null,
				debug: null,
				paramErrors: parsed.errors
			}
		}
	});
} else if (parsed.value.sample) {
	// A still alert for placing and theming (the preview's gallery): nothing connects or plays.
	mount(TtsApp, { target, props: { staticView: sampleView(), theme: ttsTheme(parsed.value) } });
} else {
	const params = parsed.value;
	const instance = params.instance ?? 'widget-tts';
	const api = new ApiClient({ overlayKey: params.key });
	const events = new EventHub();
	const audio = createAudioPort();
	const obs = createObsBridge();
	const memory = await openClaimMemory('tts', instance);
	// Media players of this origin (other OBS sources) duck or hold their videos while it speaks.
	const speech = createSpeechAnnouncer();
	const player = new TtsPlayer({ api, events, audio, obs, memory, params, instance, speech });
	player.start();
	connectWidgets(api, events, [player], { ...TTS_EVENTS, ...OVERLAY_EVENTS }, { player });
	mount(TtsApp, {
		target,
		props: { player, theme: ttsTheme(params), onUnlockAudio: () => void audio.unlock() }
	});
}

function sampleView(): TtsViewModel {
	return {
		status: 'ready',
		alert: {
			id: 'sample',
			name: 'Sample viewer',
			amount: 5,
			currency: { code: 'USD', symbol: '$' },
			message: 'This is how a tip looks with these settings. Thanks for the stream!',
			isSubReward: false,
			isReplay: false
		},
		alertVisible: true,
		captionDurationS: null,
		captionStartedAt: null,
		debug: null,
		paramErrors: null
	};
}
