// The media widget of an overlay page, in its own chunk: the overlay page imports it only when the
// overlay has a media widget, so an overlay without one never loads the video player's code.
import type { ApiClient } from '../client/api.ts';
import { AutoplayGate } from '../client/autoplay-gate.ts';
import { openClaimMemory } from '../client/claim-memory.ts';
import type { EventHub } from '../client/event-hub.ts';
import type { ObsBridge } from '../client/obs.ts';
import type { ParamResult } from '../client/params.ts';
import { SpeechListener } from '../client/sound-bus.ts';
import MediaWidget from '../../widgets/media/MediaWidget.svelte';
import { MediaPlayer } from '../../widgets/media/media-player.svelte.ts';
import { mediaParamsForOverlay, type MediaParams } from '../../widgets/media/params.ts';

export interface OverlayMedia {
	player: MediaPlayer;
	component: typeof MediaWidget;
	unlock: () => Promise<boolean>;
}

/** The player, or null when its parameters are wrong (`paramsFor` noted why). */
export async function createOverlayMedia(o: {
	api: ApiClient;
	events: EventHub;
	obs: ObsBridge;
	instance: string;
	/** The widget's parameters, merged with the stored settings, as the overlay page reads them. */
	paramsFor: (parse: (q: URLSearchParams) => ParamResult<MediaParams>) => MediaParams | null;
}): Promise<OverlayMedia | null> {
	const params = o.paramsFor(mediaParamsForOverlay);
	if (!params) return null;
	const gate = new AutoplayGate();
	const memory = await openClaimMemory('media', o.instance);
	const player = new MediaPlayer({
		api: o.api,
		events: o.events,
		obs: o.obs,
		memory,
		params,
		instance: o.instance,
		gate,
		// The overlay's own TTS widget announces on the same channel (and so do other sources).
		speech: new SpeechListener()
	});
	return { player, component: MediaWidget, unlock: () => gate.unlock() };
}
