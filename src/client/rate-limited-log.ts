// Warnings that cannot flood the console. A malformed frame or body is logged the first time its
// kind is seen and then at most once per interval with a count of what was left out: an overlay
// that runs for days next to a misbehaving upstream must not fill OBS's log (STYLE.md, practice 7).

export type Warn = (message: string) => void;

/** Kinds can come from the wire (event types); past this many the memory starts over. */
const MAX_KINDS = 200;

export class RateLimitedLog {
	readonly #kinds = new Map<string, { at: number; suppressed: number }>();
	readonly #sink: Warn;
	readonly #intervalMs: number;
	readonly #now: () => number;

	constructor(
		sink: Warn = (message) => console.warn(message),
		intervalMs = 60_000,
		now: () => number = Date.now
	) {
		this.#sink = sink;
		this.#intervalMs = intervalMs;
		this.#now = now;
	}

	/** Log `message` unless a warning of the same `kind` went out less than an interval ago. */
	warn(kind: string, message: string): void {
		const now = this.#now();
		const last = this.#kinds.get(kind);
		if (last && now - last.at < this.#intervalMs) {
			last.suppressed += 1;
			return;
		}
		if (!last && this.#kinds.size >= MAX_KINDS) this.#kinds.clear();
		const more = last?.suppressed ? ` (${last.suppressed} more since the last warning)` : '';
		this.#kinds.set(kind, { at: now, suppressed: 0 });
		this.#sink(message + more);
	}
}
