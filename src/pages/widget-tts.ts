// /widget/tts?key=K: the TTS player as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { startPage } from './start-page.ts';
import { createAudioPort, type HowlerAudioPort } from '../client/audio.ts';
import { createObsBridge } from '../client/obs.ts';
import { announceCelebration, createSpeechAnnouncer } from '../client/sound-bus.ts';
import { connectWidgets } from '../client/widget-page.ts';
import TtsApp from '../../widgets/tts/TtsApp.svelte';
import { parseTtsParams, type TtsParams } from '../../widgets/tts/params.ts';
import { alertStyle } from '../../widgets/tts/tiers.ts';
import { TtsPlayer } from '../../widgets/tts/tts-player.svelte.ts';
import { initialTtsView, type TtsViewModel } from '../../widgets/tts/view.ts';
import { TTS_EVENTS } from '../contract/events.ts';

/** Made as the page loads (none for a still sample): see `early` below. */
let port: HowlerAudioPort | null = null;

startPage(
	'tts',
	parseTtsParams,
	(target, paramErrors) =>
		mount(TtsApp, { target, props: { staticView: initialTtsView(paramErrors) } }),
	async (params, api, events, target) => {
		// A still alert for placing and theming (the preview's gallery, the settings editor): nothing
		// connects or plays, and the stored settings are not read (the URL is the sample).
		if (params.sample) {
			mount(TtsApp, { target, props: { staticView: sampleView(params), theme: params } });
			return;
		}
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
	(own) => {
		if (!own.sample) port = createAudioPort();
	}
);

/** The still sample alert, in the look of the tier its amount (or kind) falls in. */
function sampleView(params: TtsParams): TtsViewModel {
	const tip = {
		amount: params.sample_kind === 'sub' ? null : params.sample_amount,
		is_sub_reward: params.sample_kind === 'sub',
		is_replay: params.sample_kind === 'replay'
	};
	const style = alertStyle(params.alertTiers, tip, params.min_display);
	return {
		...initialTtsView(),
		status: 'ready',
		alert: {
			id: 'sample',
			name: 'Sample viewer',
			amount: tip.amount,
			currency: { code: 'USD', symbol: '$' },
			message: 'This is how a tip looks with these settings. Thanks for the stream!',
			isSubReward: tip.is_sub_reward,
			isReplay: tip.is_replay,
			style
		},
		alertVisible: true
	};
}
