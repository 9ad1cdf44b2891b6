// One OBS browser source of the TTS widget, in Node: the page's own modules as
// src/pages/widget-tts.ts and src/pages/start-page.ts wire them (the stored settings read first and
// followed, widgets/tts/tts-player.svelte.ts compiled by svelte-modules.mjs with its claim runner,
// the realtime wiring of src/client/widget-page.ts on `ws`, the push channel of src/client/live.ts),
// so that its HTTP is the page's. What a browser has and Node has not is stood in for: the sound
// card by TimedAudioPort (it fetches the tip's WAV, or a tier's sound from the page's origin, and
// lasts its length), the OBS bridge by a fixed state (shown or not), the page's origin for the push
// channel's WebSocket by the balancer's next instance; the claim memory is the volatile one the page
// itself falls back to without localStorage (nothing reloads here).
import WebSocket from 'ws';
import { ApiClient, type FetchLike } from '../../src/client/api.ts';
import { TimedAudioPort } from '../../src/client/audio-timed.ts';
import { EventHub } from '../../src/client/event-hub.ts';
import { LiveChannel } from '../../src/client/live.ts';
import type { ObsBridge, ObsState } from '../../src/client/obs.ts';
import type { RealtimeConnection } from '../../src/client/realtime.ts';
import { PageSettings } from '../../src/client/settings.ts';
import { openWidgetConnection } from '../../src/client/widget-page.ts';
import { OVERLAY_EVENTS, TTS_EVENTS } from '../../src/contract/events.ts';
import { parseTtsParams } from '../../widgets/tts/params.ts';
import { TtsPlayer } from '../../widgets/tts/tts-player.svelte.ts';

/** An OBS source that is on air (`shown`) or sits in a scene that is not showing. */
function obsState(shown: boolean): ObsBridge {
	const state: ObsState = {
		inObs: true,
		visible: shown,
		active: shown,
		activeKnown: true,
		controlLevel: 1,
		pluginVersion: 'bench'
	};
	return {
		...state,
		subscribe: (cb) => (cb(state), () => {}),
		dispose: () => {}
	};
}

export class TtsSource {
	private constructor(
		readonly player: TtsPlayer,
		readonly realtime: RealtimeConnection,
		private readonly live: LiveChannel | null
	) {}

	/**
	 * `key`: the streamer's overlay key; `fetch`: how the page reaches the instances; `shown`: an
	 * on-air source claims tips (claim=visible, the default), a hidden one only listens; `params`:
	 * the source URL's other parameters (the read flood's short alerts); `origin`: the instance the
	 * push channel's next WebSocket goes to, or null for a source without the page's stored settings
	 * and push channel (the player and its realtime connection only: chaos and capacity).
	 */
	static async open(
		key: string,
		fetch: FetchLike,
		shown: boolean,
		warn: (m: string) => void,
		params: Record<string, string>,
		origin: (() => string) | null
	): Promise<TtsSource> {
		const url = new URLSearchParams({ ...params, key });
		const own = parseTtsParams(url);
		if (!own.ok) throw new Error(`TTS params refused: ${JSON.stringify(own.errors)}`);
		const api = new ApiClient({ overlayKey: key, fetch, warn });
		const events = new EventHub();
		// The page's start (src/pages/start-page.ts): GET /settings, merged under the URL.
		const settings = new PageSettings(api, origin !== null, warn);
		await settings.read();
		const mine = settings.widget('tts', url, parseTtsParams);
		const tts = mine.initial(own.value);
		// The page's own opening: its claim memory is a volatile one where there is no localStorage.
		const player = await TtsPlayer.open({
			api,
			events,
			// The tip's audio comes from the upstream; a tier's sound (/sounds/...) from the page's
			// origin, the instances.
			audio: new TimedAudioPort({
				fetch: (url, init) =>
					String(url).startsWith('/') ? fetch(String(url), init) : globalThis.fetch(url, init)
			}),
			obs: obsState(shown),
			params: tts,
			instance: tts.instance ?? 'widget-tts'
		});
		player.start();
		const realtime = openWidgetConnection(
			api,
			events,
			[player],
			{ ...TTS_EVENTS, ...OVERLAY_EVENTS },
			{ WebSocket: WebSocket as never, warn }
		);
		if (!origin) return new TtsSource(player, realtime, null);
		const live = new LiveChannel({
			// The page's push channel, on `ws`, to the balancer's next instance at each attempt.
			api: {
				liveTarget: (path) => ({ url: path, headers: { 'X-Overlay-Key': key } }),
				reportKeyRefused: (r) => api.reportKeyRefused(r)
			},
			WebSocket: WebSocket as never,
			base: origin,
			onMessage: (m) => events.live(m),
			onState: (state, detail) => player.setLive(state, detail),
			warn
		}).start();
		mine.bind(player);
		settings.listen(events);
		return new TtsSource(player, realtime, live);
	}

	close(): void {
		this.live?.close();
		this.realtime.close();
		this.player.destroy();
	}
}
