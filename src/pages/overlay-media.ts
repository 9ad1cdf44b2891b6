// The media widget of an overlay page, in its own chunk: the overlay page imports it only when the
// overlay has a media widget, so an overlay without one never loads the video player's code.
import type { ApiClient } from '../client/api.ts';
import { AutoplayGate } from '../client/autoplay-gate.ts';
import { openClaimMemory } from '../client/claim-memory.ts';
import type { EventHub } from '../client/event-hub.ts';
import type { ObsBridge } from '../client/obs.ts';
import { SpeechListener } from '../client/sound-bus.ts';
import MediaWidget from '../../widgets/media/MediaWidget.svelte';
import { MediaPlayer } from '../../widgets/media/media-player.svelte.ts';
import { mediaParamsForOverlay, mediaTheme } from '../../widgets/media/params.ts';
import type { MediaTheme } from '../../widgets/media/view.ts';

export type OverlayMedia =
	| {
			ok: true;
			player: MediaPlayer;
			theme: MediaTheme;
			component: typeof MediaWidget;
			unlock: () => Promise<boolean>;
	  }
	| { ok: false; errors: string[] };

export async function createOverlayMedia(o: {
	api: ApiClient;
	events: EventHub;
	obs: ObsBridge;
	search: string;
	instance: string;
}): Promise<OverlayMedia> {
	const p = mediaParamsForOverlay(o.search);
	if (!p.ok) return { ok: false, errors: p.errors };
	const gate = new AutoplayGate();
	const memory = await openClaimMemory('media', o.instance);
	const player = new MediaPlayer({
		api: o.api,
		events: o.events,
		obs: o.obs,
		memory,
		params: p.value,
		instance: o.instance,
		gate,
		// The overlay's own TTS widget announces on the same channel (and so do other sources).
		speech: new SpeechListener()
	});
	return {
		ok: true,
		player,
		theme: mediaTheme(p.value),
		component: MediaWidget,
		unlock: () => gate.unlock()
	};
}
