// What to do next once an input is applied (docs/claim-protocol.md): retry a call that is due,
// recover a remembered or stale claim, or claim the oldest item we may; and when to wake up next.
import { forgetRemembered, resumeRemembered, takeOverIfStale, takeoverLimit } from './recovery.ts';
import type { ClaimEffect, ClaimItem, ClaimState, Mine } from './types.ts';

/** Decide what to do next: one thing at a time, nothing while a call is in flight. */
export function decide<T>(s: ClaimState<T>, now: number, fx: ClaimEffect<T>[]): void {
	if (s.mine) return retryDueCall(s.mine, now, fx);
	// A remembered item that already played is finished even while the queue is paused.
	if (s.synced && s.rememberedPlayed && s.current !== null && s.current === s.remembered)
		return resumeRemembered(s, s.current, fx);
	if (!s.synced || s.paused || now < s.blockedUntil) return;

	if (s.current !== null) {
		if (s.current === s.remembered) {
			// Our claim from before a reload is still held: release it and start it again, or
			// finish it if it had played to its end.
			return resumeRemembered(s, s.current, fx);
		}
		// Another order holds the queue's one claim: the remembered one is not held.
		forgetRemembered(s, fx);
		if (s.eligible) takeOverIfStale(s, s.current, now, fx);
		return;
	}
	// A remembered claim that the snapshot shows free is kept only until the answer of the start
	// below: the snapshot may have been read before the old page's start landed, and then the start
	// answers already_playing naming it (docs/upstream.md, open details). Without a start, forget it,
	// also in the stored memory, so that a later reload cannot take another consumer's claim for its
	// own.
	if (!s.eligible) return forgetRemembered(s, fx);
	const candidate = pick(s, now, fx);
	if (!candidate) return forgetRemembered(s, fx);
	s.mine = { orderId: candidate.orderId, stage: 'starting', callFailures: 0 };
	// Remember before the call: if the page dies while the start is in flight, the next page life
	// can still recognise the claim as its own.
	fx.push(
		{ kind: 'remember', orderId: candidate.orderId },
		{ kind: 'start', orderId: candidate.orderId }
	);
}

/** A finish or release that failed is sent again once its backoff is over. */
function retryDueCall<T>(mine: Mine, now: number, fx: ClaimEffect<T>[]): void {
	if (mine.retryAt === undefined || now < mine.retryAt) return;
	mine.retryAt = undefined;
	if (mine.stage === 'finishing') fx.push({ kind: 'finish', orderId: mine.orderId });
	if (mine.stage === 'releasing')
		fx.push({ kind: 'release', orderId: mine.orderId, reason: mine.reason ?? 'failed' });
}

/**
 * The oldest item we may claim now, honouring per-item failure backoff and the head wait: an item
 * whose audio is not ready holds back later ones for `headWaitMs`, then lets them go first.
 */
function pick<T>(s: ClaimState<T>, now: number, fx: ClaimEffect<T>[]): ClaimItem<T> | null {
	for (const item of s.items) {
		if (s.givenUp.includes(item.orderId)) continue;
		const retry = s.retryAt[item.orderId];
		if (retry !== undefined && now < retry) return null; // keep order: wait for its retry
		if (item.ready) return item;
		const since = (s.waitingSince[item.orderId] ??= now);
		if (now - since < s.config.headWaitMs) return null;
		if (!s.lookedAgain.includes(item.orderId)) {
			// Its tts_ready may have been lost: look once more while letting later items go first.
			s.lookedAgain.push(item.orderId);
			fx.push({ kind: 'snapshot' });
		}
	}
	return null;
}

/** When the one timer must wake this consumer (null: nothing will become due by itself). */
export function nextWake<T>(s: ClaimState<T>, now: number): number | null {
	const times: number[] = [];
	if (s.mine?.retryAt !== undefined) times.push(s.mine.retryAt);
	if (!s.mine && s.synced && !s.paused) {
		if (s.blockedUntil > now) times.push(s.blockedUntil);
		else if (s.current !== null && s.eligible && s.foreignSince !== null)
			times.push(s.foreignSince + takeoverLimit(s));
		else if (s.current === null && s.eligible) {
			for (const item of s.items) {
				if (s.givenUp.includes(item.orderId)) continue;
				const retry = s.retryAt[item.orderId];
				if (retry !== undefined && retry > now) {
					times.push(retry);
					break;
				}
				if (item.ready) break;
				const since = s.waitingSince[item.orderId];
				if (since !== undefined && since + s.config.headWaitMs > now) {
					times.push(since + s.config.headWaitMs);
					break;
				}
			}
		}
	}
	return times.length ? Math.min(...times) : null;
}
