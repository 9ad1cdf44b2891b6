// The audio port: what the TTS player needs from a sound card, and its adapter on howler.
//
// What howler 2.2.4 does here, and what stays ours (see howler.js):
// - `html5: true` plays through an <audio> element that streams the URL, so audio from another
//   origin needs no CORS (Web Audio would fetch and decode it itself, which does need CORS).
//   Howler owns the elements (its pool), their loading, volume and the 'end' of a sound.
// - Howler creates one AudioContext even for html5 sounds, and its unlock helper uses it: on the
//   first click/key/touch it resumes the context and fills its pool with unlocked elements. The
//   context's state is also the browser's autoplay verdict ('running' = audio may start), which is
//   how we learn that a page needs a click, without a probe of our own. In OBS (autoplay allowed)
//   the context is only created with the first sound; `Howler.autoSuspend` suspends it 30 s after
//   it was created, and html5 playback never resumes it, so an idle page has no audio thread
//   running (bench: idle part).
// - `onplayerror` carries a fixed sentence, not the browser's exception, sometimes twice. A page
//   that may play audio (OBS, a gesture, a running context) gets 'play'; otherwise 'locked'.
// - A load error never fails a queued play(): the play stays queued forever, and a stalled
//   download fires no event at all. Hence our own timers: no 'play' within the stall timeout, or no
//   progress while playing, rejects `done` so that the claim is released and the queue moves on.
// - Until an element has played once, each new Howl logs "HTML5 Audio pool exhausted" (its pool
//   holds elements that played or were unlocked by a gesture). Harmless.
import { Howl, Howler } from 'howler';

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
	/** Treat audio as allowed without asking the browser. Default: in OBS (`window.obsstudio`). */
	assumeUnlocked?: boolean;
}

const DEFAULTS = { stallTimeoutMs: 10_000, cacheSize: 2 } satisfies HowlerAudioOptions;

/** An ended sound is unloaded when the next one plays, or this long after its end. */
const SPENT_UNLOAD_MS = 1_000;

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

// Howler's unlock helper is installed by the first Howl; a page that must show "Click to enable
// audio" before any tip arrived needs it earlier. Present in howler 2.x, not in its typings.
const howlerUnlock = Howler as unknown as { _unlockAudio?: () => void };

/** One Howl and what is known about its loading. */
interface Entry {
	howl: Howl;
	error: AudioError | null;
	/** Set by the playback that owns the Howl, to hear about its failures at once. */
	onLoadError: ((err: AudioError) => void) | null;
	onPlayError: (() => void) | null;
}

function createEntry(url: string): Entry {
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

export class HowlerAudioPort implements AudioPort {
	/** Preloaded sounds nobody plays yet, oldest first. A playing sound belongs to its handle. */
	readonly #cache = new Map<string, Entry>();
	readonly #listeners = new Set<(unlocked: boolean) => void>();
	readonly #opts: Required<Omit<HowlerAudioOptions, 'assumeUnlocked'>>;
	/** Autoplay is allowed by the host (OBS starts CEF with no-user-gesture-required). */
	readonly #trusted: boolean;
	/** Howler's AudioContext ran once: the browser lets this page start audio. */
	#contextRan = false;
	/** Sounds that played to their end, not unloaded yet (see #unloadSpent). */
	readonly #spent: Howl[] = [];
	#spentTimer: ReturnType<typeof setTimeout> | undefined;
	#isUnlocked: boolean;

	constructor(options: HowlerAudioOptions = {}) {
		const { assumeUnlocked, ...rest } = options;
		this.#opts = { ...DEFAULTS, ...rest };
		this.#trusted =
			assumeUnlocked ?? typeof (window as { obsstudio?: unknown }).obsstudio === 'object';
		// Until the browser says so, assume locked: nothing is claimed that cannot be played.
		this.#isUnlocked = this.#mayPlay();
		if (!this.#isUnlocked) this.#watchContext();
	}

	get unlocked(): boolean {
		return this.#isUnlocked;
	}

	onUnlockChange(cb: (unlocked: boolean) => void): () => void {
		this.#listeners.add(cb);
		return () => {
			this.#listeners.delete(cb);
		};
	}

	/**
	 * Call from a click handler ("Click to enable audio"). Howler's own listener has resumed its
	 * context on the same click; the click's user activation alone is enough for the <audio> path.
	 */
	unlock(): Promise<boolean> {
		if (!this.#isUnlocked) {
			void Howler.ctx?.resume().catch(() => {});
			if (this.#mayPlay()) this.#setUnlocked(true);
		}
		return Promise.resolve(this.#isUnlocked);
	}

	preload(url: string): void {
		const cached = this.#cache.get(url);
		if (cached) {
			this.#cache.delete(url); // re-insert as the newest
			this.#cache.set(url, cached);
			return;
		}
		this.#cache.set(url, createEntry(url));
		while (this.#cache.size > this.#opts.cacheSize) {
			const [oldestUrl, oldest] = this.#cache.entries().next().value as [string, Entry];
			this.#cache.delete(oldestUrl);
			oldest.howl.unload();
		}
	}

	unload(url: string): void {
		const entry = this.#cache.get(url);
		if (!entry) return;
		this.#cache.delete(url);
		entry.howl.unload();
	}

	play(url: string, opts: { volume: number }): PlayHandle {
		const entry = this.#cache.get(url) ?? createEntry(url);
		this.#cache.delete(url);
		const handle = startPlayback(entry, opts.volume, this.#opts.stallTimeoutMs, {
			// A sound that really plays proves audio is allowed (e.g. after a click elsewhere).
			onStarted: () => this.#setUnlocked(true),
			playFailure: () => {
				if (this.#mayPlay()) return 'play';
				this.#setUnlocked(false);
				return 'locked';
			},
			spent: (howl) => {
				this.#spent.push(howl);
				this.#spentTimer ??= setTimeout(() => this.#unloadSpent(), SPENT_UNLOAD_MS);
			}
		});
		void handle.started.then(() => this.#unloadSpent());
		return handle;
	}

	/** Unloads every preloaded sound. */
	dispose(): void {
		for (const entry of this.#cache.values()) entry.howl.unload();
		this.#cache.clear();
		this.#unloadSpent();
		this.#listeners.clear();
	}

	/**
	 * Empties the elements of sounds that ended, once the next sound plays (or a second after the
	 * end when none does): emptying one loads a data: URL, work that would otherwise fall between
	 * one tip's end and the next one's start.
	 */
	#unloadSpent(): void {
		clearTimeout(this.#spentTimer);
		this.#spentTimer = undefined;
		for (const howl of this.#spent.splice(0)) howl.unload();
	}

	/** Whether the browser lets this page start audio now. */
	#mayPlay(): boolean {
		return this.#trusted || this.#contextRan || (navigator.userActivation?.hasBeenActive ?? false);
	}

	/**
	 * Creates howler's AudioContext now and installs its unlock helper; the context's state tells
	 * whether audio may start, and turns 'running' when a gesture unlocked it.
	 */
	#watchContext(): void {
		Howler.volume(); // creates howler's context (its getter does, for want of a public setup)
		howlerUnlock._unlockAudio?.(); // may replace the context (a sample rate other than 44.1 kHz)
		const ctx = Howler.ctx as AudioContext | undefined;
		if (!ctx) {
			// No Web Audio at all (no audio device): do not ask for a click that cannot help.
			this.#contextRan = true;
			this.#setUnlocked(true);
			return;
		}
		const check = () => {
			if (ctx.state !== 'running') return;
			ctx.removeEventListener('statechange', check);
			this.#contextRan = true;
			this.#setUnlocked(true);
		};
		ctx.addEventListener('statechange', check);
		check();
	}

	#setUnlocked(unlocked: boolean): void {
		if (unlocked === this.#isUnlocked) return;
		this.#isUnlocked = unlocked;
		for (const cb of [...this.#listeners]) cb(unlocked);
	}
}

/** The audio port of the widgets: howler, html5 streaming, its unlock handling. */
export function createAudioPort(options?: HowlerAudioOptions): HowlerAudioPort {
	return new HowlerAudioPort(options);
}

/**
 * Plays the entry's Howl once and unloads it afterwards, whatever happened, so memory stays flat
 * over hours of alerts. `hooks.playFailure` tells a locked page from another refusal.
 */
function startPlayback(
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
