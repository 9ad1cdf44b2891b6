// The kit's limiter: at most `limit` events in any window of `windowMs` (a sliding window), decided
// from the times of the events counted, wherever they are kept (in memory, in a stored state, or
// counted by second in PostgreSQL: src/hosted/address-ledger.ts cuts its window the same way).
// Pure: the caller passes the time. The upstream states its limits this way, and unlike a bucket
// refilled at a steady rate, a window never lets more than its limit through in any stretch of
// its length.

export interface WindowLimit {
	limit: number;
	windowMs: number;
}

/** Several events counted at one moment (a second's calls, for one). */
export interface Hits {
	at: number;
	n: number;
}

export interface WindowVerdict {
	/** Whether `cost` more events may happen now. */
	ok: boolean;
	/** The events in the window now. */
	counted: number;
	/** When they may: now, or once enough of the oldest have left (Infinity: never). */
	nextAt: number;
	/** Whole seconds until then, as Retry-After says it: 0 when allowed, else at least 1. */
	retryAfterS: number;
}

/** Whether an event at `at` still counts at `now`. */
export const inWindow = (w: WindowLimit, at: number, now: number) => at > now - w.windowMs;

/** The events of `times` that still count at `now`. */
export const recent = (w: WindowLimit, times: readonly number[], now: number) =>
	times.filter((at) => inWindow(w, at, now));

/** Whole seconds from `now` to `at` for a Retry-After (it has no fractions): at least 1. */
export const retryAfterS = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

/** Whether `cost` more events may happen at `now`, and when if not (events in any order). */
export function decide(
	w: WindowLimit,
	events: Iterable<number | Hits>,
	now: number,
	cost = 1
): WindowVerdict {
	const hits = [...events]
		.map((e) => (typeof e === 'number' ? { at: e, n: 1 } : e))
		.filter((h) => h.n > 0 && inWindow(w, h.at, now))
		.sort((a, b) => a.at - b.at);
	const counted = hits.reduce((sum, h) => sum + h.n, 0);
	if (counted + cost <= w.limit) return { ok: true, counted, nextAt: now, retryAfterS: 0 };
	let nextAt = cost > w.limit ? Infinity : now;
	// The oldest leave first: the next is allowed once `counted + cost - limit` have left.
	for (let leaving = counted + cost - w.limit, i = 0; leaving > 0 && nextAt < Infinity; i++) {
		leaving -= hits[i].n;
		nextAt = hits[i].at + w.windowMs;
	}
	return { ok: false, counted, nextAt, retryAfterS: retryAfterS(nextAt, now) };
}
