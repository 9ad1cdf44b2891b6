// What a page does after its key was refused: it has stopped (its card or state says so) and
// checks the key again rarely, with one cheap call that costs no upstream call (the stored
// settings: GET /settings with the overlay key, GET /control/settings with the control
// credential). Answered 2xx, the key works again (the streamer put the old one back): the page
// reloads and starts clean. A replaced key (hosted) is final: nothing is checked until the
// streamer reloads the page. While waiting, one timer is pending and nothing else runs.
import { backoffDelay } from '../core/backoff.ts';
import { keyRefusal, type ApiClient } from './api.ts';

/** The first check about a minute after the refusal, then twice as late each time, up to 15 min. */
export const KEY_CHECK = { baseMs: 60_000, maxMs: 15 * 60_000 } as const;
/** Each wait is drawn from its last quarter, so that many sources of one OBS do not check at once. */
const JITTER = 0.25;

/** `works`: answered 2xx; `final`: the key was replaced; `refused`: refused again, or no answer. */
export type KeyCheck = 'works' | 'refused' | 'final';

export interface KeyRetryOptions {
	/** The one cheap call with the page's key (keyCheck). */
	check: () => Promise<KeyCheck>;
	/** What a key that works again does: location.reload() on the pages. */
	reload: () => void;
	random?: () => number;
}

/** The wait before check number `attempt` (0-based): ~1 min, ~2, ~4, ~8, then ~15 min. */
export function keyCheckDelay(attempt: number, random: () => number = Math.random): number {
	const cap = backoffDelay(attempt, { ...KEY_CHECK, jitter: 'none' });
	return cap - cap * JITTER * Math.min(1, Math.max(0, random()));
}

/** The check of GET `path` (through `api`'s base and credential): what its answer says. */
export function keyCheck(api: Pick<ApiClient, 'send'>, path: string): () => Promise<KeyCheck> {
	return async () => {
		const res = await api.send('key-check', 'GET', path);
		if (res.ok) return 'works';
		return keyRefusal(res)?.final ? 'final' : 'refused';
	};
}

export class KeyRetry {
	/** Checks made since the refusal. */
	checks = 0;
	readonly #opts: KeyRetryOptions;
	#timer: ReturnType<typeof setTimeout> | null = null;
	#checking = false;
	/** A replaced key, or a stopped page: nothing more is tried. */
	#done = false;

	constructor(options: KeyRetryOptions) {
		this.#opts = options;
	}

	/** A check is scheduled (or running). */
	get waiting(): boolean {
		return this.#timer !== null || this.#checking;
	}

	/**
	 * The page's key was refused (`final`: replaced, no check ever helps): the first check is
	 * scheduled. Further refusals while one is pending change nothing.
	 */
	refused(final: boolean): void {
		if (this.#done) return;
		if (final) return this.stop();
		if (!this.waiting) this.#schedule();
	}

	/** Nothing more is checked (the page goes away, or its key was replaced). */
	stop(): void {
		this.#done = true;
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
	}

	#schedule(): void {
		const delay = keyCheckDelay(this.checks, this.#opts.random);
		this.#timer = setTimeout(() => {
			this.#timer = null;
			void this.#check();
		}, delay);
	}

	async #check(): Promise<void> {
		this.#checking = true;
		this.checks += 1;
		let answer: KeyCheck;
		try {
			answer = await this.#opts.check();
		} catch {
			answer = 'refused';
		}
		this.#checking = false;
		if (this.#done) return;
		if (answer === 'works') {
			this.stop();
			this.#opts.reload();
		} else if (answer === 'final') this.stop();
		else this.#schedule();
	}
}
