// The decision for each answer to our calls: start (the claim), finish and release
// (docs/claim-protocol.md). An answer about a call no longer in flight is ignored.
import {
	CALL_BACKOFF,
	backoff,
	dropItem,
	forgetMine,
	isGone,
	preloadNext,
	release
} from './effects.ts';
import { clearRemembered, resumeRemembered, settleRelease } from './recovery.ts';
import type { CallResult, ClaimEffect, ClaimState, Decision, Mine } from './types.ts';

type Refusal<T> = Extract<CallResult<T>, { ok: false }>;

/** The answer to our start: play only after it succeeded. */
export const onStartResult: Decision<'startResult'> = (s, { orderId, result }, now, fx) => {
	const mine = s.mine;
	if (mine?.orderId !== orderId || mine.stage !== 'starting') return;
	if (result.ok) return startSucceeded(s, mine, result.data, fx);
	s.mine = null;
	startRefused(s, orderId, result, now, fx);
};

/** The claim is ours: play the item (its fallback after `maxFailures` failed plays). */
function startSucceeded<T>(
	s: ClaimState<T>,
	mine: Mine,
	answered: T | undefined,
	fx: ClaimEffect<T>[]
): void {
	const { orderId } = mine;
	s.startFailures = 0;
	// We hold the queue's one claim now, so a remembered one is not held any more.
	clearRemembered(s);
	if (mine.cancelled) {
		// Skipped, removed or cleared while our start was in flight: the server dropped the claim
		// with the item, so nobody holds it (setting `current` here would wait for a takeover).
		if (s.current === orderId) s.current = null;
		forgetMine(s, fx);
		return;
	}
	if (mine.heard === 'released') {
		// Our start and another consumer's takeover release crossed: the claim we got may be the
		// one released, and the item may be another consumer's by now (started again). Playing it
		// could play it twice; not playing it costs at most a takeover. What the queue holds is
		// re-read; a claim shown there is treated as another consumer's.
		fx.push({ kind: 'log', message: `${orderId} released during our start: not played` });
		forgetMine(s, fx);
		fx.push({ kind: 'snapshot' });
		return;
	}
	s.current = orderId;
	s.foreignSince = null;
	const at = s.items.findIndex((i) => i.orderId === orderId);
	const item = at >= 0 ? s.items[at] : undefined;
	const data = answered ?? item?.data;
	if (data === undefined) {
		// We hold a claim on something we cannot play: give it back.
		release(s, orderId, 'failed', fx);
		return;
	}
	if (item && answered !== undefined) s.items[at] = { ...item, data: answered };
	s.mine = { orderId, stage: 'playing', callFailures: 0 };
	const failures = s.failures[orderId] ?? 0;
	const fallback = s.config.fallback && failures >= s.config.maxFailures;
	fx.push({
		kind: 'play',
		orderId,
		data,
		mode: fallback ? 'fallback' : 'normal',
		attempt: failures + 1
	});
	preloadNext(s, fx);
}

/** The start was refused or lost: nothing is ours, never play; wait, back off or re-read. */
function startRefused<T>(
	s: ClaimState<T>,
	orderId: string,
	result: Refusal<T>,
	now: number,
	fx: ClaimEffect<T>[]
): void {
	const { status, code } = result;
	if (status === 409 && code === 'already_playing')
		return alreadyPlaying(s, result.currentOrderId ?? null, now, fx);
	// Not ours: nothing to recognise after a reload.
	fx.push({ kind: 'remember', orderId: null });
	if (status === 409 && code === 'queue_paused') {
		// Wait for the resume.
		s.paused = true;
		return;
	}
	if (status === 409 && code === 'held') {
		// Held for the streamer's approval (docs/moderation.md): passed over so the tips after it
		// play, but not gone: once approved, the snapshot brings it back.
		s.items = s.items.filter((i) => i.orderId !== orderId);
		fx.push({ kind: 'snapshot' });
		return;
	}
	if (status === 404 || (status === 409 && code === 'not_in_queue')) {
		// The item is gone: drop it and re-read.
		dropItem(s, orderId);
		fx.push({ kind: 'snapshot' });
		return;
	}
	if (status === 429) {
		s.blockedUntil = now + (result.retryAfterMs ?? backoff(s, s.startFailures++, CALL_BACKOFF));
		return;
	}
	if (status === 0 || status >= 500) {
		// The start may or may not have landed, and another consumer's start of the same item may
		// have: a claim the snapshot shows on it is not provably ours, so it is never played here.
		// It is treated as another consumer's and taken over only by the takeover rule.
		clearRemembered(s);
		s.blockedUntil = now + backoff(s, s.startFailures++, CALL_BACKOFF);
		fx.push({ kind: 'snapshot' });
		return;
	}
	// Any other refusal (403 missing scope, 400...): back off and re-read; never hot-loop.
	s.blockedUntil = now + backoff(s, s.startFailures++, CALL_BACKOFF);
	fx.push({ kind: 'log', message: `start refused: ${status} ${code ?? ''}` });
}

/** 409 already_playing: another consumer plays (or our own claim from before a reload). */
function alreadyPlaying<T>(
	s: ClaimState<T>,
	holder: string | null,
	now: number,
	fx: ClaimEffect<T>[]
): void {
	if (holder !== null && holder === s.remembered) {
		// Our own claim from before a reload: release it and start again (docs/upstream.md, open
		// details), or finish it if it had played to its end.
		return resumeRemembered(s, holder, fx);
	}
	clearRemembered(s);
	fx.push({ kind: 'remember', orderId: null });
	if (holder !== null && isGone(s, holder)) {
		// The holder's finished/skipped/removed event came first: that claim is probably over, but
		// waiting for a takeover would stall and retrying at once could loop. Back off and re-read.
		s.blockedUntil = now + backoff(s, s.startFailures++, CALL_BACKOFF);
		fx.push({ kind: 'snapshot' });
		return;
	}
	if (holder !== s.current) s.foreignSince = now;
	s.current = holder;
	if (holder === null) fx.push({ kind: 'snapshot' });
}

/** The answer to our finish: done, or retried until the upstream takes it (never released). */
export const onFinishResult: Decision<'finishResult'> = (s, { orderId, result }, now, fx) => {
	const mine = s.mine;
	if (mine?.orderId !== orderId || mine.stage !== 'finishing') return;
	if (result.ok || result.status === 404 || result.status === 409) {
		// 409 not_in_queue: skipped or removed meanwhile; not_playing: the claim was dropped. Either
		// way there is nothing left for us to finish.
		dropItem(s, orderId);
		if (s.current === orderId) s.current = null;
		delete s.failures[orderId];
		delete s.retryAt[orderId];
		forgetMine(s, fx);
		s.blockedUntil = Math.max(s.blockedUntil, now + s.config.gapMs);
		if (!result.ok && result.code !== 'not_in_queue') fx.push({ kind: 'snapshot' });
		return;
	}
	// The item did play: it must be finished (a release would play it again), so the finish is
	// retried for as long as the upstream refuses it, at most every 30 s.
	retryCall(s, mine, result, now, fx);
};

/** The answer to our release: settled, retried, or (5xx, lost) in doubt until the queue is read. */
export const onReleaseResult: Decision<'releaseResult'> = (s, { orderId, result }, now, fx) => {
	const mine = s.mine;
	if (mine?.orderId !== orderId || mine.stage !== 'releasing') return;
	if (!result.ok && (result.status === 0 || result.status >= 500)) {
		// The release may have landed and the item may already be another consumer's: a blind retry
		// could release that claim from under it. Re-read the queue first
		// (recovery.ts: checkDoubtfulRelease).
		mine.doubt = true;
		mine.callFailures += 1;
		fx.push(
			{
				kind: 'log',
				message: `release of ${orderId} failed (${result.status}); re-reading the queue`
			},
			{ kind: 'snapshot' }
		);
		return;
	}
	if (!result.ok && result.status !== 404 && result.status !== 409) {
		retryCall(s, mine, result, now, fx);
		return;
	}
	// Released, or 404 / 409: the order holds no claim either way (keeping it as `current` would
	// take it over again at once, in a loop).
	if (s.current === orderId) s.current = null;
	s.foreignSince = null;
	if (!result.ok) dropItem(s, orderId);
	settleRelease(s, mine, orderId, now, fx);
};

/** A finish or release call failed: retry it later (429 after its reset, else backoff). */
function retryCall<T>(
	s: ClaimState<T>,
	mine: Mine,
	result: Refusal<T>,
	now: number,
	fx: ClaimEffect<T>[]
): void {
	mine.callFailures += 1;
	mine.retryAt = now + (result.retryAfterMs ?? backoff(s, mine.callFailures - 1, CALL_BACKOFF));
	fx.push({
		kind: 'log',
		message: `${mine.stage === 'finishing' ? 'finish' : 'release'} of ${mine.orderId} failed (${result.status}); retrying`
	});
}
