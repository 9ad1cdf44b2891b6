// Direct video files through an HTML5 <video>. Cross-origin files need no CORS (the page never
// reads their pixels); the page's CSP allows `media-src *`.
//
// What Chromium does that matters here:
// - a 404 or an unplayable file fires `error` with MEDIA_ERR_SRC_NOT_SUPPORTED (code 4); a stalled
//   download fires nothing for minutes, hence our watchdog (no first frame in START_TIMEOUT_MS, or
//   no progress for STALL_TIMEOUT_MS while playing);
// - play() rejects with NotAllowedError when the page may not autoplay with sound (a browser tab
//   before a click; never in OBS): not the video's fault;
// - `timeupdate` fires about four times a second while playing and not at all otherwise, so the
//   progress bar costs nothing while nothing plays.
import {
	MediaPlayError,
	START_TIMEOUT_MS,
	STALL_TIMEOUT_MS,
	watchdog,
	type MediaAdapter,
	type MediaSession,
	type SessionOptions
} from './types.ts';

const ERRORS: Record<number, string> = {
	1: 'the download was aborted',
	2: 'a network error stopped the download',
	3: 'the file could not be decoded',
	4: 'the file could not be loaded, or its format is not supported'
};

export function html5Adapter(url: string): MediaAdapter {
	return { open: (host, opts) => openVideo(host, url, opts) };
}

/**
 * One video's session: its <video> element, what it has reached (started, held, closed), the
 * watchdog and the element's event handlers. One closure on purpose: every handler reads and
 * changes that state, and split into functions they would all have to pass it around.
 */
// eslint-disable-next-line max-lines-per-function -- one video's handlers share its state
function openVideo(host: HTMLElement, url: string, opts: SessionOptions): MediaSession {
	const video = document.createElement('video');
	video.playsInline = true;
	video.preload = 'auto';
	video.volume = clamp(opts.volume);
	video.setAttribute('data-testid', 'media-video');
	let held = false;
	let started = false;
	let closed = false;
	let settle: { resolve: () => void; reject: (e: MediaPlayError) => void };
	const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
	const dog = watchdog(() =>
		fail(
			new MediaPlayError(
				started
					? `the video stopped moving for ${STALL_TIMEOUT_MS / 1000} s`
					: `the video did not start within ${START_TIMEOUT_MS / 1000} s`
			)
		)
	);

	const fail = (e: MediaPlayError) => {
		if (closed) return;
		cleanup();
		settle.reject(e);
	};
	const duration = () => (Number.isFinite(video.duration) ? video.duration : null);
	const tryPlay = () => {
		video.play().catch((err: unknown) => {
			const name = (err as DOMException | null)?.name;
			if (name === 'NotAllowedError')
				fail(
					new MediaPlayError('the browser blocks video with sound until a click', {
						transient: true
					})
				);
			// AbortError: a pause or a new source interrupted play(); the events tell the rest.
		});
	};

	const on: Record<string, () => void> = {
		loadedmetadata: () => {
			const d = duration();
			// A start past the end would finish the item without showing anything: play from 0.
			if (opts.startAt > 0 && (d === null || opts.startAt < d - 0.5))
				video.currentTime = opts.startAt;
		},
		playing: () => {
			if (!started) {
				started = true;
				opts.onStarted();
			}
			if (!held) dog.arm(STALL_TIMEOUT_MS);
		},
		timeupdate: () => {
			opts.onProgress(video.currentTime, duration());
			if (started && !held) dog.arm(STALL_TIMEOUT_MS);
		},
		ended: () => {
			if (closed) return;
			opts.onProgress(video.currentTime, duration());
			cleanup();
			settle.resolve();
		},
		error: () => {
			const code = video.error?.code ?? 0;
			fail(new MediaPlayError(`video file: ${ERRORS[code] ?? `error ${code}`}`));
		}
	};
	for (const [type, fn] of Object.entries(on)) video.addEventListener(type, fn);

	function cleanup(): void {
		closed = true;
		dog.clear();
		for (const [type, fn] of Object.entries(on)) video.removeEventListener(type, fn);
		video.pause();
		video.removeAttribute('src');
		video.load(); // drops the decoder and the download
		video.remove();
	}

	host.replaceChildren(video);
	video.src = url;
	dog.arm(START_TIMEOUT_MS);
	tryPlay();

	return {
		done,
		pause() {
			if (closed || held) return;
			held = true;
			dog.clear();
			video.pause();
		},
		resume() {
			if (closed || !held) return;
			held = false;
			dog.arm(started ? STALL_TIMEOUT_MS : START_TIMEOUT_MS);
			tryPlay();
		},
		setVolume(v) {
			if (!closed) video.volume = clamp(v);
		},
		destroy() {
			if (!closed) cleanup();
		}
	};
}

function clamp(v: number): number {
	return Math.min(1, Math.max(0, v));
}
