// Retry delays as pure functions: capped exponential backoff with jitter, and the wait after a 429
// (docs/upstream.md, rate-limit headers). Callers own the timer; these only say how long.

/**
 * `full`: uniform in [0, cap] (spreads retries best, may be near zero).
 * `equal`: uniform in [cap / 2, cap] (spreads retries and keeps a floor, so no retry is ever hot).
 * `none`: exactly cap (for tests and for waits the server dictates).
 */
export type Jitter = 'full' | 'equal' | 'none';

export interface BackoffOptions {
	/** The cap of attempt 0. */
	baseMs: number;
	/** No delay exceeds this. */
	maxMs: number;
	jitter?: Jitter;
	/** In [0, 1); injected for deterministic tests. */
	random?: () => number;
}

/** Delay before retry number `attempt` (0-based): min(maxMs, baseMs * 2^attempt), jittered. */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
	const base = nonNegative(options.baseMs);
	const max = nonNegative(options.maxMs);
	// NaN and negative attempts count as the first. The exponent stops at 1000 so that 2^n stays
	// finite: 0 * Infinity would be NaN.
	const n = attempt > 0 ? Math.min(Math.floor(attempt), 1000) : 0;
	const cap = Math.min(max, base * 2 ** n);
	const r = unit((options.random ?? Math.random)());
	switch (options.jitter ?? 'equal') {
		case 'full':
			return cap * r;
		case 'none':
			return cap;
		default:
			// Rounding may overshoot by an ulp; the cap is a promise.
			return Math.min(cap, cap / 2 + (cap / 2) * r);
	}
}

/** Without a RateLimit-Reset header a client backs off exponentially from 1 s to 60 s. */
export const RATE_LIMIT_BACKOFF = { baseMs: 1000, maxMs: 60_000 } as const;
/** Added to the server's wait so that many overlays on one key do not retry in the same instant. */
export const RATE_LIMIT_JITTER_MS = 1000;
/** A reset further away than this is taken to be a mistake (and would overflow setTimeout). */
export const MAX_RESET_MS = 60 * 60 * 1000;

/** `Headers` fits, and so does any `(name) => value` lookup. */
export type HeaderSource =
	{ get(name: string): string | null | undefined } | ((name: string) => string | null | undefined);

/**
 * How long to wait after a 429 (docs/upstream.md, rate-limit headers): `RateLimit-Reset` seconds
 * plus jitter. The token endpoint's own 429 (too many wrong keys) carries `Retry-After` instead,
 * which is honoured the same way. With neither header: exponential from 1 s to 60 s by `attempt`
 * (0-based count of consecutive 429s), plus the same jitter.
 */
export function retryAfterMs(
	headers: HeaderSource,
	attempt: number,
	random: () => number = Math.random
): number {
	const get = typeof headers === 'function' ? headers : (name: string) => headers.get(name);
	const jitter = unit(random()) * RATE_LIMIT_JITTER_MS;
	const seconds = parseSeconds(get('RateLimit-Reset')) ?? parseSeconds(get('Retry-After'));
	if (seconds !== null) return Math.min(MAX_RESET_MS, seconds * 1000) + jitter;
	return backoffDelay(attempt, { ...RATE_LIMIT_BACKOFF, jitter: 'none' }) + jitter;
}

/** Whole (or decimal) non-negative seconds; anything else (an HTTP date, garbage) is null. */
function parseSeconds(value: string | null | undefined): number | null {
	if (value == null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return null;
	return Number(value);
}

function nonNegative(ms: number): number {
	return Number.isFinite(ms) && ms > 0 ? ms : ms === Infinity ? Number.MAX_SAFE_INTEGER : 0;
}

/** Clamp a random source into [0, 1] so that a bad one cannot push a delay out of range. */
function unit(r: number): number {
	return Number.isFinite(r) ? Math.min(1, Math.max(0, r)) : 0;
}
