// Recovery from what one consumer cannot see: a page that reloaded while it held a claim, a
// consumer that died holding one (takeover), a release whose answer was lost
// (docs/claim-protocol.md, Reload and takeover).
import { CALL_BACKOFF, FAILURE_BACKOFF, backoff, forgetMine, release } from './effects.ts';
import type { ClaimEffect, ClaimState, Mine } from './types.ts';

/**
 * Our claim from before a reload is still held: if it had played to its end, finish it; else
 * release it and play it again from the start (docs/upstream.md, open details).
 */
export function resumeRemembered<T>(s: ClaimState<T>, orderId: string, fx: ClaimEffect<T>[]): void {
	if (s.rememberedPlayed) {
		clearRemembered(s);
		s.current = orderId;
		s.foreignSince = null;
		s.mine = { orderId, stage: 'finishing', callFailures: 0 };
		fx.push(
			{ kind: 'log', message: `finishing ${orderId}: played before the reload` },
			{ kind: 'finish', orderId }
		);
		return;
	}
	release(s, orderId, 'reload', fx);
}

/**
 * The remembered claim is not held: forget it, also in the stored memory, so that a later reload
 * cannot take another consumer's claim for its own.
 */
export function forgetRemembered<T>(s: ClaimState<T>, fx: ClaimEffect<T>[]): void {
	if (s.remembered === null) return;
	clearRemembered(s);
	fx.push({ kind: 'remember', orderId: null });
}

/** The remembered claim is settled (the caller sees to the stored memory). */
export function clearRemembered<T>(s: ClaimState<T>): void {
	s.remembered = null;
	s.rememberedPlayed = false;
}

/**
 * Takeover: another consumer's claim with no progress for the takeover time is taken to be held
 * by nobody alive (a crashed page); it is released so that the queue moves on.
 */
export function takeOverIfStale<T>(
	s: ClaimState<T>,
	holder: string,
	now: number,
	fx: ClaimEffect<T>[]
): void {
	s.foreignSince ??= now;
	const limit = takeoverLimit(s);
	if (now - s.foreignSince < limit) return;
	fx.push({ kind: 'log', message: `taking over ${holder}: no progress for ${limit} ms` });
	release(s, holder, 'takeover', fx);
}

/** The takeover time of the claim held now (a long video may be claimed for minutes). */
export function takeoverLimit<T>(s: ClaimState<T>): number {
	const held = s.items.find((i) => i.orderId === s.current);
	return s.config.takeoverMsFor?.(held?.data) ?? s.config.takeoverMs;
}

/**
 * A snapshot read while our release is in doubt (answered 5xx or lost): if it still shows the
 * claim, with neither its `released` nor another consumer's `started` heard, the release did not
 * land and is sent again after a backoff; otherwise it is settled.
 */
export function checkDoubtfulRelease<T>(
	s: ClaimState<T>,
	mine: Mine,
	now: number,
	fx: ClaimEffect<T>[]
): void {
	if (s.current === mine.orderId) {
		mine.doubt = false;
		mine.retryAt = now + backoff(s, mine.callFailures - 1, CALL_BACKOFF);
		return;
	}
	if (s.current === null) s.foreignSince = null;
	settleRelease(s, mine, mine.orderId, now, fx);
}

/** After a release call (answered or given up on): failure bookkeeping, then nothing is ours. */
export function settleRelease<T>(
	s: ClaimState<T>,
	mine: Mine,
	orderId: string,
	now: number,
	fx: ClaimEffect<T>[]
): void {
	if (mine.reason === 'failed') {
		const n = s.failures[orderId] ?? 1;
		// Past maxFailures the fallback was played and failed too: nothing is left to try.
		if (n > s.config.maxFailures || (n >= s.config.maxFailures && !s.config.fallback)) {
			s.givenUp.push(orderId);
			fx.push({
				kind: 'log',
				message: `giving up on ${orderId} after ${n} failures; it stays queued`
			});
		} else if (n < s.config.maxFailures) {
			s.retryAt[orderId] = now + backoff(s, n - 1, FAILURE_BACKOFF);
		}
	}
	if (mine.reason === 'reload') clearRemembered(s);
	forgetMine(s, fx);
}
