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
import {
	MediaPlayError,
	START_TIMEOUT_MS,
	STALL_TIMEOUT_MS,
	watchdog,
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
 * One YouTube video's session: its iframe and player, what it has reached (started, held, playing,
 * closed), the progress ticker, the watchdog and the player's event handlers. One closure on
 * purpose: every handler reads and changes that state, and split into functions they would all
 * have to pass it around.
 */
// eslint-disable-next-line max-lines-per-function -- one video's handlers share its state
function openYoutube(host: HTMLElement, videoId: string, opts: SessionOptions): MediaSession {
	let player: YtPlayer | null = null;
	let held = false;
	let started = false;
	let closed = false;
	let playing = false;
	let ticker: ReturnType<typeof setInterval> | null = null;
	let lastPosition = -1;
	let settle: { resolve: () => void; reject: (e: MediaPlayError) => void };
	const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
	const dog = watchdog(() =>
		fail(
			new MediaPlayError(
				started
					? `the YouTube video stopped moving for ${STALL_TIMEOUT_MS / 1000} s`
					: `the YouTube video did not start within ${START_TIMEOUT_MS / 1000} s`
			)
		)
	);

	const iframe = document.createElement('iframe');
	iframe.src = embedUrl(videoId, opts.startAt, location.origin);
	iframe.referrerPolicy = 'strict-origin-when-cross-origin';
	iframe.setAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
	iframe.allow = 'autoplay; encrypted-media; picture-in-picture';
	iframe.title = 'YouTube video';
	iframe.setAttribute('data-testid', 'media-youtube');
	host.replaceChildren(iframe);
	dog.arm(START_TIMEOUT_MS);

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
			dog.arm(STALL_TIMEOUT_MS);
		}
	};
	const setTicking = (on: boolean) => {
		if (on && !ticker) ticker = setInterval(tick, PROGRESS_MS);
		if (!on && ticker) {
			clearInterval(ticker);
			ticker = null;
		}
	};
	function fail(e: MediaPlayError): void {
		if (closed) return;
		cleanup();
		settle.reject(e);
	}
	function cleanup(): void {
		closed = true;
		dog.clear();
		setTicking(false);
		try {
			player?.destroy();
		} catch {
			// The API may already have torn its iframe down.
		}
		iframe.remove();
	}

	loadIframeApi().then(
		(YT) => {
			if (closed) return;
			player = new YT.Player(iframe, {
				events: {
					onReady: (e) => {
						if (closed) return;
						e.target.unMute();
						e.target.setVolume(Math.round(clamp(opts.volume) * 100));
						if (held) e.target.pauseVideo();
						else e.target.playVideo();
					},
					onStateChange: (e) => {
						if (closed) return;
						playing = e.data === PLAYING;
						if (e.data === PLAYING) {
							if (!started) {
								started = true;
								opts.onStarted();
							}
							dog.arm(STALL_TIMEOUT_MS);
							tick();
						} else if (e.data === ENDED) {
							opts.onProgress(duration() ?? 0, duration());
							cleanup();
							settle.resolve();
							return;
						}
						setTicking(playing && !held);
					},
					onError: (e) => {
						const { reason, permanent } = youtubeError(Number(e.data));
						fail(new MediaPlayError(reason, { permanent }));
					}
				}
			});
		},
		(err: unknown) => fail(err instanceof MediaPlayError ? err : new MediaPlayError(String(err)))
	);

	return {
		done,
		pause() {
			if (closed || held) return;
			held = true;
			dog.clear();
			setTicking(false);
			player?.pauseVideo();
		},
		resume() {
			if (closed || !held) return;
			held = false;
			dog.arm(started ? STALL_TIMEOUT_MS : START_TIMEOUT_MS);
			player?.playVideo();
			setTicking(playing);
		},
		setVolume(v) {
			if (!closed) player?.setVolume(Math.round(clamp(v) * 100));
		},
		destroy() {
			if (!closed) cleanup();
		}
	};
}

function clamp(v: number): number {
	return Math.min(1, Math.max(0, v));
}
