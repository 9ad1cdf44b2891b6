// The widgets' audio port on howler: preloading, the sounds that ended, and whether the browser
// lets the page start audio (one playback is howler-playback.ts; the port itself, audio-port.ts).
//
// Howler creates one AudioContext even for html5 sounds, and its unlock helper uses it: on the
// first click/key/touch it resumes the context and fills its pool with unlocked elements. The
// context's state is also the browser's autoplay verdict ('running' = audio may start), which is
// how we learn that a page needs a click, without a probe of our own. In OBS (autoplay allowed)
// the context is only created with the first sound; `Howler.autoSuspend` suspends it 30 s after
// it was created, and html5 playback never resumes it, so an idle page has no audio thread
// running (bench: idle part).
import { Howler, type Howl } from 'howler';
import type { AudioPort, PlayHandle } from './audio-port.ts';
import { createEntry, startPlayback, type Entry } from './howler-playback.ts';

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

// Howler's unlock helper is installed by the first Howl; a page that must show "Click to enable
// audio" before any tip arrived needs it earlier. Present in howler 2.x, not in its typings.
const howlerUnlock = Howler as unknown as { _unlockAudio?: () => void };

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
