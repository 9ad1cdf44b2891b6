// The decision for each thing heard about the queue: a snapshot, a realtime event, a change of
// pause or eligibility, the claim remembered across a reload (docs/claim-protocol.md). Events
// come in any order (docs/upstream.md): an event about an order never seen asks for the snapshot.
import {
	dropItem,
	insertInOrder,
	isGone,
	lose,
	preloadNext,
	readIfUnknown,
	rememberGone,
	stop
} from './effects.ts';
import { checkDoubtfulRelease, settleRelease } from './recovery.ts';
import type { Decision, Mine } from './types.ts';

/** The snapshot is the truth: it replaces what we know, and settles a doubtful release. */
export const onSnapshot: Decision<'snapshot'> = (s, snap, now, fx) => {
	s.synced = true;
	if (s.config.pauseStopsTakeoverClock && s.paused && !snap.paused) s.foreignSince = now;
	s.paused = snap.paused;
	s.items = snap.items.slice();
	if (snap.currentOrderId !== s.current) s.foreignSince = snap.currentOrderId ? now : null;
	s.current = snap.currentOrderId;
	const present = new Set(s.items.map((i) => i.orderId));
	for (const map of [s.failures, s.retryAt, s.waitingSince])
		for (const id of Object.keys(map)) if (!present.has(id)) delete map[id];
	s.givenUp = s.givenUp.filter((id) => present.has(id));
	s.lookedAgain = s.lookedAgain.filter((id) => present.has(id));
	const mine = s.mine;
	if (mine?.doubt) checkDoubtfulRelease(s, mine, now, fx);
	if (mine?.stage === 'playing' && s.current !== mine.orderId) {
		// Our claim is gone (cleared, released or taken over).
		stop(s, 'the snapshot no longer shows our claim', fx);
	}
};

/** Queued in order of `queuedAt`; a late duplicate never brings back older data or a gone item. */
export const onAdded: Decision<'added'> = (s, input) => {
	const id = input.item.orderId;
	if (s.gone.includes(id)) return;
	const at = s.items.findIndex((i) => i.orderId === id);
	// A late duplicate of an item we already know ready must not bring back older data
	// (a tip without its tts_url).
	if (at < 0) insertInOrder(s.items, input.item);
	else if (!s.items[at].ready) s.items[at] = input.item;
};

/** Its audio is ready (tts_ready): it may be claimed now, and preloaded while another plays. */
export const onReady: Decision<'ready'> = (s, input, _now, fx) => {
	const at = s.items.findIndex((i) => i.orderId === input.orderId);
	if (at < 0) {
		// An event about an order we have never seen: the snapshot is the truth.
		if (!s.gone.includes(input.orderId)) fx.push({ kind: 'snapshot' });
		return;
	}
	s.items[at] = { ...s.items[at], ready: true, data: input.data ?? s.items[at].data };
	if (s.mine?.stage === 'playing') preloadNext(s, fx);
};

/** A consumer started an item: the queue's one claim is its, and the takeover clock restarts. */
export const onClaimed: Decision<'claimed'> = (s, { orderId }, now, fx) => {
	// A late started event of an item already finished, skipped or removed: its claim is over.
	if (isGone(s, orderId)) return;
	const mine = s.mine;
	if (mine?.orderId === orderId) {
		if (mine.stage === 'starting') mine.heard ??= 'started';
		// The item was claimed again, so the claim we were giving back is gone: settled. Sent
		// again, our release would drop the new holder's claim.
		else if (awaitingRetry(mine)) settleRelease(s, mine, orderId, now, fx);
	}
	readIfUnknown(s, orderId, fx);
	if (s.mine && s.mine.orderId !== orderId && s.mine.stage === 'playing') {
		// The queue has one claim; someone else has it now, so ours was dropped.
		lose(s, fx, 'another consumer claimed a different item');
	}
	// A started event is progress, also for the same order id claimed again (its release may
	// not have reached us): the takeover clock starts over.
	s.foreignSince = now;
	s.current = orderId;
};

/** Finished, skipped or removed: dropped; if we were playing it, stopped at once, no finish. */
export const onGone: Decision<'gone'> = (s, { orderId, why }, _now, fx) => {
	readIfUnknown(s, orderId, fx);
	dropItem(s, orderId);
	if (s.current === orderId) {
		s.current = null;
		s.foreignSince = null;
	}
	const mine = s.mine;
	if (mine?.orderId !== orderId) return;
	if (mine.stage === 'starting') mine.cancelled = true;
	else if (mine.stage === 'playing') {
		// Skipped or removed by the streamer (or, oddly, finished by someone else): stop now.
		stop(s, `the item was ${why}`, fx);
	}
	// finishing / releasing: the call's own result settles it.
};

/** A claim was released: nobody holds it; if it was our doubtful release, it landed. */
export const onReleased: Decision<'released'> = (s, { orderId }, now, fx) => {
	readIfUnknown(s, orderId, fx);
	const mine = s.mine;
	if (mine?.orderId === orderId && awaitingRetry(mine)) {
		// Our release (or another's) landed: settled, never sent again (a retry could release a
		// claim started since).
		if (s.current === orderId) s.current = null;
		s.foreignSince = null;
		return settleRelease(s, mine, orderId, now, fx);
	}
	// Started, then released, while our start is in flight: if the start we heard was ours, its
	// claim is gone, and a success of our start proves nothing (calls.ts: startSucceeded).
	if (mine?.orderId === orderId && mine.heard) mine.heard = 'released';
	if (s.current === orderId) {
		s.current = null;
		s.foreignSince = null;
	}
	if (s.mine?.orderId === orderId && s.mine.stage === 'playing')
		lose(s, fx, 'our claim was released by someone else');
};

/** The queue was cleared: everything known is dropped, what we play stops, no finish. */
export const onCleared: Decision<'cleared'> = (s, _input, _now, fx) => {
	// Events come in any order: a tip added after the clear may have been heard before it.
	// The clear drops what we know now, and the snapshot brings back what came since (with
	// nothing known, nothing can have been dropped by mistake: a duplicate clear asks nothing).
	if (s.items.length > 0) fx.push({ kind: 'snapshot' });
	for (const i of s.items) rememberGone(s, i.orderId);
	s.items = [];
	s.current = null;
	s.foreignSince = null;
	const mine = s.mine;
	if (mine?.stage === 'playing') stop(s, 'the queue was cleared', fx);
	else if (mine?.stage === 'starting') mine.cancelled = true;
};

/**
 * Paused: nothing new is claimed until resume; the item playing plays to its end and is finished
 * (decide.ts never interrupts it).
 */
export const onPaused: Decision<'paused'> = (s, { paused }, now, fx) => {
	if (s.config.pauseStopsTakeoverClock && s.paused && !paused && s.current !== null)
		s.foreignSince = now;
	// A pause and a resume heard in the wrong order would leave this consumer paused (or
	// claiming in a paused queue) until the next reconnect: a change is checked against the
	// snapshot, read after it.
	if (s.paused !== paused && s.synced) fx.push({ kind: 'snapshot' });
	s.paused = paused;
};

/** Hidden or not allowed to claim: like a pause, the current item plays on; nothing new. */
export const onEligible: Decision<'eligible'> = (s, { eligible }, now) => {
	if (s.config.pauseStopsTakeoverClock && !s.eligible && eligible && s.current !== null)
		s.foreignSince = now;
	s.eligible = eligible;
};

/** The claim this page held before it reloaded (recovery.ts resolves it). */
export const onRemembered: Decision<'remembered'> = (s, input) => {
	s.remembered = input.orderId;
	s.rememberedPlayed = input.orderId !== null && input.played === true;
};

/**
 * Our release failed (5xx or lost: in doubt; 429 and the like: sent again later): an event about
 * the item settles it. One in flight is settled by its answer.
 */
function awaitingRetry(mine: Mine): boolean {
	return mine.stage === 'releasing' && (mine.doubt === true || mine.retryAt !== undefined);
}
