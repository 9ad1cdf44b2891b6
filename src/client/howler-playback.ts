// One playback of a URL through howler, with the checks howler 2.2.4 leaves to us (see howler.js):
// - `html5: true` plays through an <audio> element that streams the URL, so audio from another
//   origin needs no CORS (Web Audio would fetch and decode it itself, which does need CORS).
//   Howler owns the elements (its pool), their loading, volume and the 'end' of a sound.
// - `onplayerror` carries a fixed sentence, not the browser's exception, sometimes twice. A page
//   that may play audio (OBS, a gesture, a running context) gets 'play'; otherwise 'locked'.
// - A load error never fails a queued play(): the play stays queued forever, and a stalled
//   download fires no event at all. Hence our own timers: no 'play' within the stall timeout, or no
//   progress while playing, rejects `done` so that the claim is released and the queue moves on.
// - Until an element has played once, each new Howl logs "HTML5 Audio pool exhausted" (its pool
//   holds elements that played or were unlocked by a gesture). Harmless.
import { Howl } from 'howler';
import { AudioError, type AudioFailure, type PlayHandle } from './audio-port.ts';

// Howler's sound objects and their <audio> elements: internal in howler 2.x, not in its typings.
type HowlInternals = { _soundById?: (id: number) => { _node?: unknown } | null };

/** The <audio> element that plays sound `id` of an html5 Howl (null if howler changed). */
function html5Element(howl: Howl, id: number): HTMLMediaElement | null {
	const node = (howl as unknown as HowlInternals)._soundById?.(id)?._node;
	return node instanceof HTMLMediaElement ? node : null;
}

// Howler needs a codec name it believes the browser plays; html5 audio then sniffs the real bytes.
const KNOWN_FORMATS = new Set(['mp3', 'mpeg', 'opus', 'ogg', 'oga', 'wav', 'aac', 'm4a', 'webm']);

/** The format howler should assume for a URL: its extension, or mp3 (every Chromium plays it). */
export function formatOf(url: string): string {
	const path = url.split(/[?#]/, 1)[0];
	const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1].toLowerCase();
	return ext && KNOWN_FORMATS.has(ext) ? ext : 'mp3';
}

/** Howler's html5 load errors are MediaError codes (or a sentence of its own). */
export function describeLoadError(err: unknown): AudioError {
	switch (err) {
		case 1:
			return new AudioError('load', 'loading was aborted (MediaError 1)');
		case 2:
			return new AudioError('load', 'a network error stopped the download (MediaError 2)');
		case 3:
			return new AudioError('decode', 'the audio could not be decoded (MediaError 3)');
		case 4:
			return new AudioError(
				'load',
				'no playable audio at the URL: missing or not audio (MediaError 4)'
			);
	}
	return new AudioError('load', typeof err === 'string' ? err : 'the audio could not be loaded');
}

/** One Howl and what is known about its loading. */
export interface Entry {
	howl: Howl;
	error: AudioError | null;
	/** Set by the playback that owns the Howl, to hear about its failures at once. */
	onLoadError: ((err: AudioError) => void) | null;
	onPlayError: (() => void) | null;
}

export function createEntry(url: string): Entry {
	const entry: Entry = { howl: null!, error: null, onLoadError: null, onPlayError: null };
	entry.howl = new Howl({
		src: [url],
		html5: true,
		preload: true,
		format: [formatOf(url)],
		// Registered at creation, so a failure during preload is remembered for play().
		onloaderror: (_id, err) => {
			if (entry.error) return;
			entry.error = describeLoadError(err);
			entry.onLoadError?.(entry.error);
		},
		onplayerror: () => entry.onPlayError?.()
	});
	return entry;
}

/**
 * Plays the entry's Howl once and unloads it afterwards, whatever happened, so memory stays flat
 * over hours of alerts. `hooks.playFailure` tells a locked page from another refusal.
 * One closure of about 130 lines on purpose: its timers, listeners and two promises are settled
 * together, once, by `settle`; split into functions they would all have to share that state.
 */
// eslint-disable-next-line max-lines-per-function -- one playback's handlers share its state
export function startPlayback(
	entry: Entry,
	volume: number,
	stallMs: number,
	hooks: { onStarted: () => void; playFailure: () => AudioFailure; spent: (howl: Howl) => void }
): PlayHandle {
	const { howl } = entry;
	let settled = false;
	let soundId: number | null = null;
	/** The sound's <audio> element: its 'ended' is heard directly (onElementEnded). */
	let element: HTMLMediaElement | null = null;
	let startTimer: ReturnType<typeof setTimeout> | undefined;
	let progressTimer: ReturnType<typeof setTimeout> | undefined;
	let lastPosition = 0;
	let resolveDone!: (outcome: 'ended' | 'stopped') => void;
	let rejectDone!: (err: AudioError) => void;
	let resolveStarted!: (started: boolean) => void;
	const done = new Promise<'ended' | 'stopped'>((resolve, reject) => {
		resolveDone = resolve;
		rejectDone = reject;
	});
	const started = new Promise<boolean>((resolve) => (resolveStarted = resolve));

	const duration = (): number | null => {
		const d = howl.duration();
		return d > 0 && Number.isFinite(d) ? d : null;
	};
	const position = (): number => {
		if (soundId === null) return 0;
		// seek() returns the Howl itself while the sound is still loading.
		const s: unknown = howl.seek(soundId);
		return typeof s === 'number' && Number.isFinite(s) ? s : 0;
	};

	const settle = (outcome: 'ended' | 'stopped' | AudioError) => {
		if (settled) return;
		settled = true;
		clearTimeout(startTimer);
		clearTimeout(progressTimer);
		entry.onLoadError = null;
		entry.onPlayError = null;
		howl.off('play', onPlay).off('end', onEnd);
		element?.removeEventListener('ended', onElementEnded);
		resolveStarted(false); // no effect when it already started
		// unload() stops the sound, empties the <audio> element (a silent data: URL, which the
		// element loads) and returns it to howler's pool. At the end of the audio nothing is left to
		// stop, and the page has better to do first (the finish call, the next tip's start and
		// audio): the port empties it later (hooks.spent).
		if (outcome === 'ended') {
			element?.pause(); // already paused when the element ended; not when its 'end' got lost
			hooks.spent(howl);
		} else howl.unload();
		if (outcome instanceof AudioError) rejectDone(outcome);
		else resolveDone(outcome);
	};

	const onPlay = (id: number) => {
		if (settled || id !== soundId) return;
		clearTimeout(startTimer);
		resolveStarted(true);
		hooks.onStarted();
		lastPosition = position();
		watchProgress();
	};
	const onEnd = (id: number) => {
		if (id === soundId) settle('ended');
	};
	// Howler hands its 'end' to listeners through setTimeout(0), a task after the element's own
	// 'ended', and on a busy page that task waits behind rendering: the element's event is heard
	// at once (howler's 'end' stays, should the element's be missed).
	const onElementEnded = () => settle('ended');
	const onPlayError = () => {
		if (settled) return;
		const reason = hooks.playFailure();
		settle(
			new AudioError(
				reason,
				reason === 'locked'
					? 'the browser blocks audio until the page is clicked'
					: 'the browser refused to start playback'
			)
		);
	};
	// Only while playing: one timer per stall period, checking that the position moves.
	const watchProgress = () => {
		progressTimer = setTimeout(() => {
			const pos = position();
			const length = duration();
			// Howler rounds an html5 duration up to 0.1 s.
			if (length !== null && pos >= length - 0.15)
				settle('ended'); // 'end' got lost
			else if (pos <= lastPosition + 0.01)
				settle(new AudioError('stall', `playback stopped making progress at ${pos.toFixed(1)} s`));
			else {
				lastPosition = pos;
				watchProgress();
			}
		}, stallMs);
	};

	if (entry.error) {
		const err = entry.error;
		queueMicrotask(() => settle(err));
	} else {
		entry.onLoadError = settle;
		entry.onPlayError = onPlayError;
		howl.on('play', onPlay).on('end', onEnd);
		howl.volume(Math.min(Math.max(volume, 0), 1));
		const id: unknown = howl.play();
		if (typeof id === 'number') {
			soundId = id;
			element = html5Element(howl, id);
			element?.addEventListener('ended', onElementEnded);
			startTimer = setTimeout(
				() => settle(new AudioError('stall', `audio did not start within ${stallMs / 1000} s`)),
				stallMs
			);
		} else {
			queueMicrotask(() => settle(new AudioError('play', 'howler returned no sound to play')));
		}
	}

	return {
		done,
		started,
		duration,
		position,
		stop: () => settle('stopped')
	};
}
