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
import { clampVolume, sessionCore } from './session.ts';
import {
	MediaPlayError,
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
 * One video's session: its <video> element and the element's event handlers, around the state
 * every session keeps (session.ts).
 */
// eslint-disable-next-line max-lines-per-function -- one video's handlers share its state
function openVideo(host: HTMLElement, url: string, opts: SessionOptions): MediaSession {
	const video = document.createElement('video');
	video.playsInline = true;
	video.preload = 'auto';
	video.volume = clampVolume(opts.volume);
	video.setAttribute('data-testid', 'media-video');
	const core = sessionCore('video', opts, () => {
		for (const [type, fn] of Object.entries(on)) video.removeEventListener(type, fn);
		video.pause();
		video.removeAttribute('src');
		video.load(); // drops the decoder and the download
		video.remove();
	});
	const duration = () => (Number.isFinite(video.duration) ? video.duration : null);
	const progress = () => opts.onProgress(video.currentTime, duration());
	const tryPlay = () => {
		video.play().catch((err: unknown) => {
			const name = (err as DOMException | null)?.name;
			if (name === 'NotAllowedError')
				core.end(
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
		playing: core.playing,
		timeupdate: () => {
			progress();
			core.moved();
		},
		ended: () => {
			progress();
			core.end();
		},
		error: () => {
			const code = video.error?.code ?? 0;
			core.end(new MediaPlayError(`video file: ${ERRORS[code] ?? `error ${code}`}`));
		}
	};
	for (const [type, fn] of Object.entries(on)) video.addEventListener(type, fn);

	host.replaceChildren(video);
	video.src = url;
	tryPlay();

	return {
		done: core.done,
		pause() {
			if (core.hold()) video.pause();
		},
		resume() {
			if (core.release()) tryPlay();
		},
		setVolume(v) {
			video.volume = clampVolume(v); // harmless on a video already removed
		},
		destroy: core.close
	};
}
