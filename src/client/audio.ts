// The audio port: what the TTS player needs from a sound card, and its adapter on a plain HTML
// <audio> element (no library: the element does everything the player needs).
//
// - An <audio> element streams the URL, so audio from another origin needs no CORS (Web Audio
//   would fetch and decode it itself, which does need CORS), and no AudioContext exists: no audio
//   thread rendering silence for hours in OBS, no "AudioContext was not allowed to start" warning.
// - play() returns a promise: it resolves when playback starts and rejects with NotAllowedError
//   when Chrome's autoplay policy refuses it (and with AbortError when we unload it first). A
//   refusal alone does not say "locked" for sure; we ask the browser again with a silent probe.
// - A load error never fails a pending play() by itself on every engine, and a stalled download
//   fires no event at all. Hence our own timers: no start within the stall timeout, or no progress
//   while playing, rejects `done` so that the claim is released and the queue moves on.
//
// Detecting the lock: see autoplay.ts.
import { probeAutoplay } from './autoplay.ts';

export interface AudioPort {
	/** Start loading a URL so that play() of it starts at once. Idempotent. */
	preload(url: string): void;
	/** Play from the beginning. The returned handle reports the start and the end. */
	play(url: string, opts: { volume: number }): PlayHandle;
	/** Forget a preloaded URL (free memory). */
	unload(url: string): void;
	/** false in a normal browser until a user gesture unlocks audio; true in OBS (autoplay allowed). */
	readonly unlocked: boolean;
	onUnlockChange(cb: (unlocked: boolean) => void): () => void;
}

export interface PlayHandle {
	/**
	 * Resolves with 'ended' when the audio played to the end, or 'stopped' when stop() was called;
	 * rejects with an AudioError (reason in message) if it cannot load/decode/play or stalls.
	 */
	done: Promise<'ended' | 'stopped'>;
	/** Resolves true when playback really started (start the captions), false if it never did. */
	started: Promise<boolean>;
	/** Duration in seconds once known (for captions), else null. */
	duration(): number | null;
	/** Current position in seconds. */
	position(): number;
	stop(): void;
}

/** Why playback failed. 'locked' is not the audio's fault: the page needs a click first. */
export type AudioFailure = 'load' | 'decode' | 'stall' | 'locked' | 'play';

export class AudioError extends Error {
	readonly reason: AudioFailure;
	constructor(reason: AudioFailure, message: string) {
		super(`${reason}: ${message}`);
		this.name = 'AudioError';
		this.reason = reason;
	}
}

export interface HtmlAudioOptions {
	/** No 'play' this long after play(), or no progress this long while playing, fails. */
	stallTimeoutMs?: number;
	/** Preloaded sounds kept at most; the oldest is unloaded first. */
	cacheSize?: number;
	/** Treat audio as allowed without probing. Default: in OBS (`window.obsstudio`). */
	assumeUnlocked?: boolean;
	/** How long the silent autoplay probe may take before it counts as inconclusive. */
	probeTimeoutMs?: number;
}

const DEFAULTS = {
	stallTimeoutMs: 10_000,
	cacheSize: 2,
	probeTimeoutMs: 3_000
} satisfies Partial<HtmlAudioOptions>;

// Events that carry user activation in Chrome (mouse down, key down, touch end) plus click.
const GESTURES = ['pointerdown', 'keydown', 'touchend', 'click'] as const;

/** A media element's load error: its MediaError code (0 or absent: unknown). */
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

/** One <audio> element and what is known about its loading. */
interface Entry {
	audio: HTMLAudioElement;
	error: AudioError | null;
	/** Set by the playback that owns the element, to hear about a load error at once. */
	onError: ((err: AudioError) => void) | null;
	/** Removes the element's listeners. */
	detach: () => void;
}

function createEntry(url: string): Entry {
	const audio = new Audio();
	audio.preload = 'auto';
	const entry: Entry = { audio, error: null, onError: null, detach: () => {} };
	// Registered once, at creation, so a failure during preload is remembered for play().
	const onError = () => {
		if (entry.error || !audio.getAttribute('src')) return; // unloading empties src: not an error
		entry.error = describeLoadError(audio.error?.code ?? 0);
		entry.onError?.(entry.error);
	};
	audio.addEventListener('error', onError);
	entry.detach = () => audio.removeEventListener('error', onError);
	audio.src = url;
	return entry;
}

/** Stops the element and drops its media (memory and the connection), for good. */
function release(entry: Entry): void {
	entry.detach();
	const { audio } = entry;
	audio.pause();
	audio.removeAttribute('src');
	audio.load();
}

export class HtmlAudioPort implements AudioPort {
	/** Preloaded sounds nobody plays yet, oldest first. A playing sound belongs to its handle. */
	private readonly cache = new Map<string, Entry>();
	private readonly listeners = new Set<(unlocked: boolean) => void>();
	private readonly opts: Required<Omit<HtmlAudioOptions, 'assumeUnlocked'>>;
	private isUnlocked: boolean;
	private probing: Promise<boolean> | null = null;
	private removeGestureListeners: (() => void) | null = null;
	/** Resolves with `unlocked` once the first probe answered (at once in OBS). */
	readonly ready: Promise<boolean>;

	constructor(options: HtmlAudioOptions = {}) {
		const { assumeUnlocked, ...rest } = options;
		this.opts = { ...DEFAULTS, ...rest };

		const inObs = typeof (window as { obsstudio?: unknown }).obsstudio === 'object';
		// Sticky activation already unlocks audio in Chrome; otherwise assume locked until probed,
		// so that nothing is claimed that cannot be played.
		this.isUnlocked =
			(assumeUnlocked ?? inObs) || (navigator.userActivation?.hasBeenActive ?? false);
		if (assumeUnlocked ?? inObs) this.ready = Promise.resolve(true);
		else this.ready = this.unlock();
	}

	get unlocked(): boolean {
		return this.isUnlocked;
	}

	onUnlockChange(cb: (unlocked: boolean) => void): () => void {
		this.listeners.add(cb);
		return () => {
			this.listeners.delete(cb);
		};
	}

	/**
	 * Asks the browser whether audio may start now (a silent probe) and updates `unlocked`. Call it
	 * from a click handler ("Click to enable audio"); gestures anywhere on the page also trigger it.
	 */
	unlock(): Promise<boolean> {
		this.probing ??= probeAutoplay(this.opts.probeTimeoutMs).then((result) => {
			this.probing = null;
			// Inconclusive (no audio device, a slow page): do not keep asking for a click that cannot help.
			this.setUnlocked(result ?? true);
			return this.isUnlocked;
		});
		return this.probing;
	}

	preload(url: string): void {
		const cached = this.cache.get(url);
		if (cached) {
			this.cache.delete(url); // re-insert as the newest
			this.cache.set(url, cached);
			return;
		}
		this.cache.set(url, createEntry(url));
		while (this.cache.size > this.opts.cacheSize) {
			const [oldestUrl, oldest] = this.cache.entries().next().value as [string, Entry];
			this.cache.delete(oldestUrl);
			release(oldest);
		}
	}

	unload(url: string): void {
		const entry = this.cache.get(url);
		if (!entry) return;
		this.cache.delete(url);
		release(entry);
	}

	play(url: string, opts: { volume: number }): PlayHandle {
		const entry = this.cache.get(url) ?? createEntry(url);
		this.cache.delete(url);
		return startPlayback(entry, opts.volume, this.opts.stallTimeoutMs, {
			// A sound that really plays proves audio is allowed (e.g. after a click elsewhere).
			onStarted: () => this.setUnlocked(true),
			classifyPlayError: () =>
				this.unlock().then((unlocked): AudioFailure => (unlocked ? 'play' : 'locked'))
		});
	}

	/** Unloads every preloaded sound and stops listening for gestures. */
	dispose(): void {
		for (const entry of this.cache.values()) release(entry);
		this.cache.clear();
		this.listeners.clear();
		this.removeGestureListeners?.();
		this.removeGestureListeners = null;
	}

	private setUnlocked(unlocked: boolean): void {
		if (!unlocked && !this.removeGestureListeners) this.listenForGestures();
		if (unlocked) {
			this.removeGestureListeners?.();
			this.removeGestureListeners = null;
		}
		if (unlocked === this.isUnlocked) return;
		this.isUnlocked = unlocked;
		for (const cb of [...this.listeners]) cb(unlocked);
	}

	private listenForGestures(): void {
		const onGesture = () => void this.unlock();
		const options = { capture: true, passive: true };
		for (const type of GESTURES) document.addEventListener(type, onGesture, options);
		this.removeGestureListeners = () => {
			for (const type of GESTURES) document.removeEventListener(type, onGesture, options);
		};
	}
}

/** The audio port of the widgets: an <audio> element per sound, autoplay detection. */
export function createAudioPort(options?: HtmlAudioOptions): HtmlAudioPort {
	return new HtmlAudioPort(options);
}

/**
 * Plays the entry's element once and releases it afterwards, whatever happened, so memory stays
 * flat over hours of alerts. `hooks.classifyPlayError` tells a locked page from another refusal.
 */
function startPlayback(
	entry: Entry,
	volume: number,
	stallMs: number,
	hooks: { onStarted: () => void; classifyPlayError: () => Promise<AudioFailure> }
): PlayHandle {
	const { audio } = entry;
	let settled = false;
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
		const d = audio.duration;
		return d > 0 && Number.isFinite(d) ? d : null;
	};
	const position = (): number => {
		const s = audio.currentTime;
		return Number.isFinite(s) ? s : 0;
	};

	const settle = (outcome: 'ended' | 'stopped' | AudioError) => {
		if (settled) return;
		settled = true;
		clearTimeout(startTimer);
		clearTimeout(progressTimer);
		entry.onError = null;
		audio.removeEventListener('ended', onEnd);
		resolveStarted(false); // no effect when it already started
		release(entry);
		if (outcome instanceof AudioError) rejectDone(outcome);
		else resolveDone(outcome);
	};

	const onPlay = () => {
		if (settled) return;
		clearTimeout(startTimer);
		resolveStarted(true);
		hooks.onStarted();
		lastPosition = position();
		watchProgress();
	};
	const onEnd = () => settle('ended');
	const onPlayError = (err: unknown) => {
		if (settled) return;
		if (entry.error) return settle(entry.error);
		clearTimeout(startTimer);
		if ((err as { name?: unknown } | null)?.name !== 'NotAllowedError') {
			settle(new AudioError('play', 'the browser refused to start playback'));
			return;
		}
		void hooks
			.classifyPlayError()
			.then((reason) =>
				settle(
					new AudioError(
						reason,
						reason === 'locked'
							? 'the browser blocks audio until the page is clicked'
							: 'the browser refused to start playback'
					)
				)
			);
	};
	// Only while playing: one timer per stall period, checking that the position moves.
	const watchProgress = () => {
		progressTimer = setTimeout(() => {
			const pos = position();
			const length = duration();
			if (length !== null && pos >= length - 0.05)
				settle('ended'); // 'ended' got lost
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
		entry.onError = settle;
		audio.addEventListener('ended', onEnd);
		audio.volume = Math.min(Math.max(volume, 0), 1);
		startTimer = setTimeout(
			() => settle(new AudioError('stall', `audio did not start within ${stallMs / 1000} s`)),
			stallMs
		);
		audio.currentTime = 0;
		audio.play().then(onPlay, onPlayError);
	}

	return {
		done,
		started,
		duration,
		position,
		stop: () => settle('stopped')
	};
}
