// The one way the kit limits how often something happens: at most `limit` events in any window of
// `windowMs` (a sliding window), decided from the times of the events counted. Pure: the caller
// passes the time and the events, wherever it keeps them (a client's failed keys in memory,
// src/server/security.ts; a streamer's chat messages in its chat state, src/server/chat/ledger.ts;
// the calls from one address by second, src/core/address-share.ts, whose instances share theirs
// through PostgreSQL, src/hosted/address-ledger.ts, cut by the same rule).
//
// An event at `at` counts while `at > now - windowMs`; the next one is allowed when enough of the
// oldest have left. The upstream states its limits this way (so many calls or messages a window),
// and a window never lets more than its limit through in any stretch of its length, which a
// bucket refilled at a steady rate does (a full burst, then the refill).

export interface WindowLimit {
	/** Events allowed in any window. */
	limit: number;
	windowMs: number;
}

/** Several events counted at one moment (a second's calls, for one). */
export interface Hits {
	at: number;
	n: number;
}

export interface WindowVerdict {
	/** Whether `cost` more events may happen at `now`. */
	ok: boolean;
	/** The events counted in the window at `now`. */
	counted: number;
	/** When they may: `now`, or when enough of the oldest have left (Infinity: never). */
	nextAt: number;
	/** Whole seconds until then, as a Retry-After says it: 0 when allowed, else at least 1. */
	retryAfterS: number;
}

/** Whether an event at `at` still counts at `now`. */
export const inWindow = (w: WindowLimit, at: number, now: number): boolean => at > now - w.windowMs;

/** The events of `times` that still count at `now`. */
export const recent = (w: WindowLimit, times: readonly number[], now: number): number[] =>
	times.filter((at) => inWindow(w, at, now));

/** Whole seconds from `now` to `at` for a Retry-After: at least 1 (it has no fractions). */
export const retryAfterS = (at: number, now: number): number =>
	Math.max(1, Math.ceil((at - now) / 1000));

/**
 * Whether `cost` more events may happen at `now`, given the events counted so far (times, or
 * counts at a time, in any order; those out of the window are passed over), and when if not.
 */
export function decide(
	w: WindowLimit,
	events: Iterable<number | Hits>,
	now: number,
	cost = 1
): WindowVerdict {
	const hits: Hits[] = [];
	let counted = 0;
	for (const e of events) {
		const h = typeof e === 'number' ? { at: e, n: 1 } : e;
		if (!inWindow(w, h.at, now) || h.n <= 0) continue;
		hits.push(h);
		counted += h.n;
	}
	if (counted + cost <= w.limit) return { ok: true, counted, nextAt: now, retryAfterS: 0 };
	if (cost > w.limit) return { ok: false, counted, nextAt: Infinity, retryAfterS: Infinity };
	// The oldest leave first: the next is allowed once `counted + cost - limit` events have left.
	hits.sort((a, b) => a.at - b.at);
	let leaving = counted + cost - w.limit;
	let nextAt = now;
	for (const h of hits) {
		leaving -= h.n;
		nextAt = h.at + w.windowMs;
		if (leaving <= 0) break;
	}
	return { ok: false, counted, nextAt, retryAfterS: retryAfterS(nextAt, now) };
}
