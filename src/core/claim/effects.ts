// Small steps the decisions share: each edits the state and pushes the effects that go with it, so
// that a rule is carried out the same way wherever it applies (docs/claim-protocol.md).
import { backoffDelay } from '../backoff.ts';
import type { ClaimEffect, ClaimItem, ClaimState, ReleaseReason } from './types.ts';

const GONE_MEMORY = 200;
/** Between failed plays of one item. */
export const FAILURE_BACKOFF = { baseMs: 2_000, maxMs: 30_000 };
/** Between failed calls (start, finish, release). */
export const CALL_BACKOFF = { baseMs: 500, maxMs: 30_000 };

/**
 * Give the claim on this order back: its release is in flight, and the claim is forgotten in the
 * page's memory before the release is sent (docs/claim-protocol.md).
 */
export function release<T>(
	s: ClaimState<T>,
	orderId: string,
	reason: ReleaseReason,
	fx: ClaimEffect<T>[]
): void {
	s.mine = { orderId, stage: 'releasing', reason, callFailures: 0 };
	fx.push({ kind: 'remember', orderId: null }, { kind: 'release', orderId, reason });
}

/** Nothing is ours any more, also in the page's memory. */
export function forgetMine<T>(s: ClaimState<T>, fx: ClaimEffect<T>[]): void {
	s.mine = null;
	fx.push({ kind: 'remember', orderId: null });
}

/** Stop playing our item at once (no finish: skipped, removed, cleared, lost), and forget it. */
export function stop<T>(s: ClaimState<T>, why: string, fx: ClaimEffect<T>[]): void {
	if (!s.mine) return;
	fx.push({ kind: 'stop', orderId: s.mine.orderId, why });
	forgetMine(s, fx);
}

/** Our claim was taken from us while playing: stop, and re-read the queue. */
export function lose<T>(s: ClaimState<T>, fx: ClaimEffect<T>[], why: string): void {
	if (!s.mine) return;
	stop(s, why, fx);
	fx.push({ kind: 'snapshot' });
}

/** Warm up the next item while the current one plays. */
export function preloadNext<T>(s: ClaimState<T>, fx: ClaimEffect<T>[]): void {
	const next = s.items.find(
		(i) => i.ready && i.orderId !== s.mine?.orderId && !s.givenUp.includes(i.orderId)
	);
	if (next) fx.push({ kind: 'preload', orderId: next.orderId, data: next.data });
}

/** The item left the queue: drop it, and keep a late `added` from bringing it back. */
export function dropItem<T>(s: ClaimState<T>, orderId: string): void {
	s.items = s.items.filter((i) => i.orderId !== orderId);
	rememberGone(s, orderId);
}

export function rememberGone<T>(s: ClaimState<T>, orderId: string): void {
	if (s.gone.includes(orderId)) return;
	s.gone.push(orderId);
	if (s.gone.length > GONE_MEMORY) s.gone.splice(0, s.gone.length - GONE_MEMORY);
	delete s.waitingSince[orderId];
}

/** Oldest first: before the first item queued later (ties and unknown times go after). */
export function insertInOrder<T>(items: ClaimItem<T>[], item: ClaimItem<T>): void {
	const t = item.queuedAt;
	const at =
		t === undefined ? -1 : items.findIndex((i) => i.queuedAt !== undefined && i.queuedAt > t);
	if (at < 0) items.push(item);
	else items.splice(at, 0, item);
}

/**
 * An event about an order we know nothing of cannot be applied with certainty (docs/upstream.md,
 * rules): the snapshot is the truth, so it is read again.
 */
export function readIfUnknown<T>(s: ClaimState<T>, orderId: string, fx: ClaimEffect<T>[]): void {
	const known =
		s.items.some((i) => i.orderId === orderId) ||
		s.gone.includes(orderId) ||
		s.current === orderId ||
		s.mine?.orderId === orderId ||
		s.remembered === orderId;
	if (!known) fx.push({ kind: 'snapshot' });
}

export function isGone<T>(s: ClaimState<T>, orderId: string): boolean {
	return s.gone.includes(orderId) && !s.items.some((i) => i.orderId === orderId);
}

export function backoff<T>(
	s: ClaimState<T>,
	attempt: number,
	o: { baseMs: number; maxMs: number }
): number {
	return backoffDelay(attempt, { ...o, random: s.config.random });
}
