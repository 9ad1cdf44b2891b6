// YouTube through the IFrame Player API (https://developers.google.com/youtube/iframe_api_reference).
//
// We build the <iframe> ourselves and hand it to `new YT.Player(iframe, ...)`, which the API
// supports, so that it carries what YouTube needs since late 2025 (error 153 otherwise):
// - `referrerpolicy="strict-origin-when-cross-origin"`: the embed request carries our origin as
//   its referrer (the page URL holds the overlay key, so never more than the origin);
// - `origin=<our origin>` in the embed URL, which the API uses to talk to the page;
// - `enablejsapi=1`, `start=<media_start_time>`, `autoplay=1` (OBS allows autoplay with sound).
// The API has no time events: while a video plays, its position is read twice a second (only
// then: nothing runs while it is held, buffering or gone).
import { youtubeError } from '../../../src/core/media-source.ts';
import { clampVolume, sessionCore } from './session.ts';
import {
	MediaPlayError,
	START_TIMEOUT_MS,
	type MediaAdapter,
	type MediaSession,
	type SessionOptions
} from './types.ts';

export const IFRAME_API_URL = 'https://www.youtube.com/iframe_api';
const PROGRESS_MS = 500;

/** The parts of the IFrame Player API we use. */
interface YtPlayer {
	playVideo(): void;
	pauseVideo(): void;
	setVolume(volume: number): void;
	unMute(): void;
	getCurrentTime(): number;
	getDuration(): number;
	destroy(): void;
}
interface YtNamespace {
	Player: new (
		el: HTMLElement,
		opts: {
			events: {
				onReady?: (e: { target: YtPlayer }) => void;
				onStateChange?: (e: { data: number; target: YtPlayer }) => void;
				onError?: (e: { data: number; target: YtPlayer }) => void;
			};
		}
	) => YtPlayer;
}
type YtWindow = Window & { YT?: Partial<YtNamespace>; onYouTubeIframeAPIReady?: () => void };

const ENDED = 0;
const PLAYING = 1;

let loading: Promise<YtNamespace> | null = null;

/** Loads the IFrame API script once per page; a failure lets the next call try again. */
export function loadIframeApi(timeoutMs = START_TIMEOUT_MS): Promise<YtNamespace> {
	const w = window as YtWindow;
	if (w.YT?.Player) return Promise.resolve(w.YT as YtNamespace);
	loading ??= new Promise<YtNamespace>((resolve, reject) => {
		const timer = setTimeout(() => fail('YouTube did not answer in time'), timeoutMs);
		const previous = w.onYouTubeIframeAPIReady;
		function fail(why: string): void {
			clearTimeout(timer);
			loading = null;
			script.remove();
			reject(new MediaPlayError(`YouTube's player could not be loaded: ${why}`));
		}
		w.onYouTubeIframeAPIReady = () => {
			previous?.();
			clearTimeout(timer);
			if (w.YT?.Player) resolve(w.YT as YtNamespace);
			else fail('the player API is incomplete');
		};
		const script = document.createElement('script');
		script.src = IFRAME_API_URL;
		script.async = true;
		script.onerror = () => fail('the script did not load (offline, or blocked)');
		document.head.append(script);
	});
	return loading;
}

export function embedUrl(videoId: string, startAt: number, origin: string): string {
	const q = new URLSearchParams({
		enablejsapi: '1',
		origin,
		widget_referrer: origin,
		autoplay: '1',
		start: String(Math.max(0, Math.floor(startAt))),
		controls: '0',
		disablekb: '1',
		fs: '0',
		rel: '0',
		iv_load_policy: '3',
		playsinline: '1'
	});
	return `https://www.youtube.com/embed/${encodeURIComponent(videoId)}?${q}`;
}

export function youtubeAdapter(videoId: string): MediaAdapter {
	return { open: (host, opts) => openYoutube(host, videoId, opts) };
}

/**
 * One YouTube video's session: its iframe and player, whether the player is playing, the progress
 * ticker and the player's event handlers, around the state every session keeps (session.ts).
 */
// eslint-disable-next-line max-lines-per-function -- one video's handlers share its state
function openYoutube(host: HTMLElement, videoId: string, opts: SessionOptions): MediaSession {
	let player: YtPlayer | null = null;
	let playing = false;
	let ticker: ReturnType<typeof setInterval> | null = null;
	let lastPosition = -1;

	const iframe = document.createElement('iframe');
	iframe.src = embedUrl(videoId, opts.startAt, location.origin);
	iframe.referrerPolicy = 'strict-origin-when-cross-origin';
	iframe.setAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
	iframe.allow = 'autoplay; encrypted-media; picture-in-picture';
	iframe.title = 'YouTube video';
	iframe.setAttribute('data-testid', 'media-youtube');
	host.replaceChildren(iframe);
	const core = sessionCore('YouTube video', opts, () => {
		setTicking(false);
		try {
			player?.destroy();
		} catch {
			// The API may already have torn its iframe down.
		}
		iframe.remove();
	});

	const duration = () => {
		const d = player?.getDuration() ?? 0;
		return d > 0 ? d : null;
	};
	const tick = () => {
		if (!player) return;
		const pos = player.getCurrentTime();
		opts.onProgress(pos, duration());
		if (pos !== lastPosition) {
			lastPosition = pos;
			core.moved();
		}
	};
	const setTicking = (on: boolean) => {
		if (on && !ticker) ticker = setInterval(tick, PROGRESS_MS);
		if (!on && ticker) {
			clearInterval(ticker);
			ticker = null;
		}
	};

	loadIframeApi().then(
		(YT) => {
			if (core.closed) return;
			player = new YT.Player(iframe, {
				events: {
					onReady: (e) => {
						if (core.closed) return;
						e.target.unMute();
						e.target.setVolume(Math.round(clampVolume(opts.volume) * 100));
						if (core.held) e.target.pauseVideo();
						else e.target.playVideo();
					},
					onStateChange: (e) => {
						if (core.closed) return;
						playing = e.data === PLAYING;
						if (e.data === PLAYING) {
							core.playing();
							tick();
						} else if (e.data === ENDED) {
							opts.onProgress(duration() ?? 0, duration());
							core.end();
							return;
						}
						setTicking(playing && !core.held);
					},
					onError: (e) => {
						const { reason, permanent } = youtubeError(Number(e.data));
						core.end(new MediaPlayError(reason, { permanent }));
					}
				}
			});
		},
		(err: unknown) =>
			core.end(err instanceof MediaPlayError ? err : new MediaPlayError(String(err)))
	);

	return {
		done: core.done,
		pause() {
			if (!core.hold()) return;
			setTicking(false);
			player?.pauseVideo();
		},
		resume() {
			if (!core.release()) return;
			player?.playVideo();
			setTicking(playing);
		},
		setVolume(v) {
			if (!core.closed) player?.setVolume(Math.round(clampVolume(v) * 100));
		},
		destroy: core.close
	};
}
