// The audio port: what the TTS player needs from a sound card, and its adapter on howler.
//
// What howler 2.2.4 does with html5 audio in a page that may not autoplay (howler.core.js):
// - `html5: true` plays through an <audio> element that streams the URL, so audio from another
//   origin needs no CORS (Web Audio would fetch and decode it itself, which does need CORS).
// - When `<audio>.play()` is refused (Chrome's autoplay policy: NotAllowedError), howler emits
//   'playerror' with a fixed sentence and drops the DOMException, sometimes twice (once because the
//   node is still paused right after play(), once from the rejected promise). So a playerror alone
//   does not say "locked"; we ask the browser again with a silent probe.
// - Its unlock helper (`Howler.autoUnlock`) only runs when it has an AudioContext, which it creates
//   on the first Howl even for html5 sounds. We switch Web Audio off instead: no AudioContext means
//   no audio thread rendering silence for hours in OBS and no "AudioContext was not allowed to
//   start" warning in a browser; unlocking is done here, by probing on the next user gesture.
// - Events reach listeners through setTimeout(0), after play() has returned the sound id.
// - A load error never fails a queued play(): it stays queued forever. A stalled download fires no
//   event at all. Hence our own timers: no 'play' within the stall timeout, or no progress while
//   playing, rejects `done` so that the claim is released and the queue moves on.
// - Until the first successful play, each new Howl logs "HTML5 Audio pool exhausted": its pool of
//   <audio> elements is filled by unlocked nodes returning from unload(). Harmless.
//
// Detecting the lock: see autoplay.ts.
import { Howl, Howler } from 'howler';
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

export interface HowlerAudioOptions {
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
} satisfies Partial<HowlerAudioOptions>;

// Events that carry user activation in Chrome (mouse down, key down, touch end) plus click.
const GESTURES = ['pointerdown', 'keydown', 'touchend', 'click'] as const;

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
interface Entry {
	howl: Howl;
	error: AudioError | null;
	/** Set by the playback that owns the Howl, to hear about a load error at once. */
	onError: ((err: AudioError) => void) | null;
}

function createEntry(url: string): Entry {
	const entry: Entry = {
		howl: new Howl({ src: [url], html5: true, preload: true, format: [formatOf(url)] }),
		error: null,
		onError: null
	};
	// Registered once, at creation, so a failure during preload is remembered for play().
	entry.howl.on('loaderror', (_id, err) => {
		if (entry.error) return;
		entry.error = describeLoadError(err);
		entry.onError?.(entry.error);
	});
	return entry;
}

export class HowlerAudioPort implements AudioPort {
	/** Preloaded sounds nobody plays yet, oldest first. A playing sound belongs to its handle. */
	private readonly cache = new Map<string, Entry>();
	private readonly listeners = new Set<(unlocked: boolean) => void>();
	private readonly opts: Required<Omit<HowlerAudioOptions, 'assumeUnlocked'>>;
	private isUnlocked: boolean;
	private probing: Promise<boolean> | null = null;
	private removeGestureListeners: (() => void) | null = null;
	/** Resolves with `unlocked` once the first probe answered (at once in OBS). */
	readonly ready: Promise<boolean>;

	constructor(options: HowlerAudioOptions = {}) {
		const { assumeUnlocked, ...rest } = options;
		this.opts = { ...DEFAULTS, ...rest };
		Howler.usingWebAudio = false; // see the top of this file
		Howler.autoUnlock = false;

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
			oldest.howl.unload();
		}
	}

	unload(url: string): void {
		const entry = this.cache.get(url);
		if (!entry) return;
		this.cache.delete(url);
		entry.howl.unload();
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
		for (const entry of this.cache.values()) entry.howl.unload();
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

/** The audio port of the widgets: howler, html5 streaming, autoplay detection. */
export function createHowlerAudioPort(options?: HowlerAudioOptions): HowlerAudioPort {
	return new HowlerAudioPort(options);
}

/**
 * Plays the entry's Howl once and unloads it afterwards, whatever happened, so memory stays flat
 * over hours of alerts. `hooks.classifyPlayError` tells a locked page from another refusal.
 */
function startPlayback(
	entry: Entry,
	volume: number,
	stallMs: number,
	hooks: { onStarted: () => void; classifyPlayError: () => Promise<AudioFailure> }
): PlayHandle {
	const { howl } = entry;
	let settled = false;
	let classifying = false;
	let soundId: number | null = null;
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
		entry.onError = null;
		howl.off('play', onPlay).off('end', onEnd).off('playerror', onPlayError);
		resolveStarted(false); // no effect when it already started
		howl.unload(); // stops the sound, empties the <audio> element, returns it to howler's pool
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
	const onPlayError = () => {
		if (settled || classifying) return;
		classifying = true;
		clearTimeout(startTimer);
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
		howl.on('play', onPlay).on('end', onEnd).on('playerror', onPlayError);
		howl.volume(Math.min(Math.max(volume, 0), 1));
		const id: unknown = howl.play();
		if (typeof id === 'number') {
			soundId = id;
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
