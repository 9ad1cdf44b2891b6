// The claim protocol of one queue (TTS or media) as a pure reducer:
// (state, input) -> { state, effects }. The shell carries out the effects (API calls, playback,
// one timer, local memory of the claim) and feeds their outcomes back as inputs.
//
// Rules (service-api.md, States and transitions; CONTRACT.md, TTS and media tables):
// - one item at a time, oldest first; a consumer plays an item only after its start succeeded;
// - the end of playback is reported with finish; a failed effect is released, never finished;
// - 409 queue_paused: wait for resume; 409 already_playing: another consumer plays, wait, never play;
// - 404 / 409 not_in_queue: the item is gone, drop it and re-read the snapshot;
// - skip, remove or clear of the item being played: stop at once, no finish;
// - pause while playing: the current item plays to its end and is finished; nothing new is claimed
//   until resume (cutting a sentence in half helps nobody; the streamer can skip to stop it);
// - hidden or not allowed to claim while playing: the same, finish the current, claim no more;
// - an item whose audio is not ready yet (tts_url null) is waited for; after `headWaitMs` later
//   ready items may go first, and the late one plays as soon as it becomes ready. If it never does,
//   it stays queued (the streamer can skip or remove it) and never blocks the queue;
// - 429: no call before `RateLimit-Reset`; network errors and 5xx: capped backoff;
// - a page that reloads remembers its claim; if the snapshot still shows it, the page releases it
//   and plays the item again from the start (CONTRACT.md, Details). If the item had already played
//   to its end (only the finish was missing), the page finishes it instead of playing it again;
// - the memory of a claim is forgotten before its release is sent: a page that reloads after a
//   release must not take the claim another consumer made since for its own;
// - a start answered 5xx or lost on the network is ambiguous (it may have landed, or another
//   consumer's may have): it is never taken for ours; the claim shown in the snapshot is treated
//   as another consumer's (takeover rule), so no item is ever played from under its holder;
// - a release answered 5xx or lost is not retried (it may have landed and the item may already be
//   someone else's); the snapshot tells, and a claim still shown is left to the takeover rule;
// - takeover: a claim held by another consumer with no progress for `takeoverMs` is taken to be
//   held by nobody alive (a crashed page); it is released so that the queue moves on.
import { backoffDelay } from './backoff.ts';

export interface ClaimItem<T> {
	orderId: string;
	/** Can be played now (TTS: `tts_url` is set; media: always). */
	ready: boolean;
	/**
	 * When it was queued (ms since the epoch), if known: events arrive in any order (CONTRACT.md),
	 * so an `added` item is placed before later-queued ones instead of at the end.
	 */
	queuedAt?: number;
	data: T;
}

export type CallResult<T> =
	| { ok: true; data?: T }
	| {
			ok: false;
			/** HTTP status, or 0 for a network failure. */
			status: number;
			code?: string;
			/** From 409 already_playing. */
			currentOrderId?: string;
			/** From 429 (RateLimit-Reset). */
			retryAfterMs?: number;
	  };

export type ClaimInput<T> =
	| {
			kind: 'snapshot';
			paused: boolean;
			currentOrderId: string | null;
			items: ClaimItem<T>[];
	  }
	| { kind: 'added'; item: ClaimItem<T> }
	| { kind: 'ready'; orderId: string; data?: T }
	| { kind: 'claimed'; orderId: string }
	| { kind: 'gone'; orderId: string; why: 'finished' | 'skipped' | 'removed' }
	| { kind: 'released'; orderId: string }
	| { kind: 'cleared' }
	| { kind: 'paused'; paused: boolean }
	/** Whether this consumer may claim now (visible per the claim rule, audio unlocked). */
	| { kind: 'eligible'; eligible: boolean }
	/**
	 * The claim this widget instance held before the page reloaded (null: none); `played`: the item
	 * had played to its end and only its finish was missing.
	 */
	| { kind: 'remembered'; orderId: string | null; played?: boolean }
	| { kind: 'startResult'; orderId: string; result: CallResult<T> }
	| { kind: 'finishResult'; orderId: string; result: CallResult<T> }
	| { kind: 'releaseResult'; orderId: string; result: CallResult<T> }
	| { kind: 'playEnded'; orderId: string }
	/**
	 * `transient`: not the item's fault (e.g. audio locked until a click); not counted.
	 * `permanent`: trying again cannot help (an unsupported platform, a video removed or not
	 * embeddable): counts as the last attempt, so the item goes to its fallback or is given up.
	 */
	| {
			kind: 'playFailed';
			orderId: string;
			reason: string;
			transient?: boolean;
			permanent?: boolean;
	  }
	| { kind: 'wake' };

export type ClaimEffect<T> =
	| { kind: 'start'; orderId: string }
	| { kind: 'finish'; orderId: string }
	| { kind: 'release'; orderId: string; reason: ReleaseReason }
	| { kind: 'play'; orderId: string; data: T; mode: 'normal' | 'fallback'; attempt: number }
	| { kind: 'stop'; orderId: string; why: string }
	| { kind: 'preload'; orderId: string; data: T }
	/** Re-read the queue snapshot (the shell debounces). */
	| { kind: 'snapshot' }
	/** Persist the claim across reloads (null: forget it); `played`: it has played to its end. */
	| { kind: 'remember'; orderId: string | null; played?: boolean }
	/** Arm the one timer for this absolute time (null: cancel it); then feed `wake`. */
	| { kind: 'wakeAt'; at: number | null }
	| { kind: 'log'; message: string };

export type ReleaseReason = 'failed' | 'reload' | 'takeover' | 'lost';

export interface ClaimConfig {
	/** A foreign claim with no progress for this long is released (takeover). */
	takeoverMs: number;
	/** How long the oldest item may hold back later ready ones while its audio renders. */
	headWaitMs: number;
	/** Failed plays of one item before the fallback (TTS: text only) is used. */
	maxFailures: number;
	/** Whether the fallback exists; without it an item that keeps failing is left queued. */
	fallback: boolean;
	/** Pause between the end of one item and the claim of the next. */
	gapMs: number;
	/** Random source for backoff jitter (injected for deterministic tests). */
	random: () => number;
	/**
	 * Takeover time for a claim on this item, when it depends on the item (a long video may be
	 * claimed for minutes by a healthy consumer). Absent: `takeoverMs`.
	 */
	takeoverMsFor?: (data: unknown) => number;
	/**
	 * Time while the queue is paused or this consumer may not claim does not count toward a
	 * takeover: on resume (or on becoming eligible again) a foreign claim's clock restarts. For
	 * media, whose claims legitimately last through a pause or a hidden player. Absent: false.
	 */
	pauseStopsTakeoverClock?: boolean;
}

export const DEFAULT_CLAIM_CONFIG: ClaimConfig = {
	takeoverMs: 90_000,
	headWaitMs: 15_000,
	maxFailures: 3,
	fallback: true,
	gapMs: 0,
	random: Math.random
};

type Stage = 'starting' | 'playing' | 'finishing' | 'releasing';

interface Mine {
	orderId: string;
	stage: Stage;
	/** Why we release (stage `releasing`). */
	reason?: ReleaseReason;
	/** A skip/remove/clear arrived while the start was in flight. */
	cancelled?: boolean;
	/** Failed attempts of the current call (finish or release), for its backoff. */
	callFailures: number;
	/** When to retry the current call (finish or release) after a failure. */
	retryAt?: number;
}

export interface ClaimState<T> {
	config: ClaimConfig;
	/** A snapshot has been applied: nothing is claimed before. */
	synced: boolean;
	items: ClaimItem<T>[];
	paused: boolean;
	/** The order id holding the queue's claim, as last known (ours or another consumer's). */
	current: string | null;
	/** When `current` (another consumer's) was first seen; progress resets it. */
	foreignSince: number | null;
	mine: Mine | null;
	eligible: boolean;
	/** Our claim from before a reload, not yet resolved. */
	remembered: string | null;
	/** The remembered claim had played to its end: finish it, never play it again. */
	rememberedPlayed: boolean;
	/** No claim call before this time (429, network trouble, gap between items). */
	blockedUntil: number;
	/** Consecutive failed start calls (network / 5xx), for backoff. */
	startFailures: number;
	/** Failed plays per order id. */
	failures: Record<string, number>;
	/** Per order id: not before this time (after a failed play). */
	retryAt: Record<string, number>;
	/** Per order id: when we first saw it not ready at the head of the queue. */
	waitingSince: Record<string, number>;
	/** Items that kept failing with no fallback: left queued, not claimed by us again. */
	givenUp: string[];
	/** Not-ready items we re-read the snapshot for once after the head wait. */
	lookedAgain: string[];
	/** Recently gone order ids, so that a late `added` does not bring them back. */
	gone: string[];
	wakeAt: number | null;
}

export interface Step<T> {
	state: ClaimState<T>;
	effects: ClaimEffect<T>[];
}

const GONE_MEMORY = 200;
const FAILURE_BACKOFF = { baseMs: 2_000, maxMs: 30_000 };
const CALL_BACKOFF = { baseMs: 500, maxMs: 30_000 };

export function initialClaimState<T>(config: Partial<ClaimConfig> = {}): ClaimState<T> {
	return {
		config: { ...DEFAULT_CLAIM_CONFIG, ...config },
		synced: false,
		items: [],
		paused: false,
		current: null,
		foreignSince: null,
		mine: null,
		eligible: false,
		remembered: null,
		rememberedPlayed: false,
		blockedUntil: 0,
		startFailures: 0,
		failures: {},
		retryAt: {},
		waitingSince: {},
		givenUp: [],
		lookedAgain: [],
		gone: [],
		wakeAt: null
	};
}

/** Apply one input at time `now` (ms); returns the new state and the effects to carry out. */
export function claimStep<T>(prev: ClaimState<T>, input: ClaimInput<T>, now: number): Step<T> {
	const s: ClaimState<T> = {
		...prev,
		items: prev.items.slice(),
		mine: prev.mine ? { ...prev.mine } : null,
		failures: { ...prev.failures },
		retryAt: { ...prev.retryAt },
		waitingSince: { ...prev.waitingSince },
		givenUp: prev.givenUp.slice(),
		lookedAgain: prev.lookedAgain.slice(),
		gone: prev.gone.slice()
	};
	const fx: ClaimEffect<T>[] = [];
	apply(s, input, now, fx);
	decide(s, now, fx);
	const at = nextWake(s, now);
	// A timer that fired is no longer armed. Node's timers may fire a millisecond before Date.now()
	// reaches the deadline; then the same time is still due and must be armed again, or nothing
	// ever wakes this consumer (a stalled queue until the next event).
	if (at !== s.wakeAt || (input.kind === 'wake' && at !== null)) {
		s.wakeAt = at;
		fx.push({ kind: 'wakeAt', at });
	}
	return { state: s, effects: fx };
}

function apply<T>(s: ClaimState<T>, input: ClaimInput<T>, now: number, fx: ClaimEffect<T>[]): void {
	switch (input.kind) {
		case 'snapshot':
			return applySnapshot(s, input, now, fx);
		case 'added': {
			const id = input.item.orderId;
			if (s.gone.includes(id)) return;
			const at = s.items.findIndex((i) => i.orderId === id);
			// A late duplicate of an item we already know ready must not bring back older data
			// (a tip without its tts_url).
			if (at < 0) insertInOrder(s.items, input.item);
			else if (!s.items[at].ready) s.items[at] = input.item;
			return;
		}
		case 'ready': {
			const at = s.items.findIndex((i) => i.orderId === input.orderId);
			if (at < 0) {
				// An event about an order we have never seen: the snapshot is the truth.
				if (!s.gone.includes(input.orderId)) fx.push({ kind: 'snapshot' });
				return;
			}
			s.items[at] = { ...s.items[at], ready: true, data: input.data ?? s.items[at].data };
			if (s.mine?.stage === 'playing') preloadNext(s, fx);
			return;
		}
		case 'claimed':
			// A late started event of an item already finished, skipped or removed: its claim is over.
			if (isGone(s, input.orderId)) return;
			if (!known(s, input.orderId)) fx.push({ kind: 'snapshot' });
			if (s.mine && s.mine.orderId !== input.orderId && s.mine.stage === 'playing') {
				// The queue has one claim; someone else has it now, so ours was dropped.
				lose(s, fx, 'another consumer claimed a different item');
			}
			// A started event is progress, also for the same order id claimed again (its release may
			// not have reached us): the takeover clock starts over.
			s.foreignSince = now;
			s.current = input.orderId;
			return;
		case 'gone':
			if (!known(s, input.orderId)) fx.push({ kind: 'snapshot' });
			return applyGone(s, input.orderId, input.why, fx);
		case 'released':
			if (!known(s, input.orderId)) fx.push({ kind: 'snapshot' });
			if (s.current === input.orderId) {
				s.current = null;
				s.foreignSince = null;
			}
			if (s.mine?.orderId === input.orderId && s.mine.stage === 'playing')
				lose(s, fx, 'our claim was released by someone else');
			return;
		case 'cleared':
			for (const i of s.items) rememberGone(s, i.orderId);
			s.items = [];
			s.current = null;
			s.foreignSince = null;
			if (s.mine && (s.mine.stage === 'playing' || s.mine.stage === 'starting')) {
				if (s.mine.stage === 'playing') {
					fx.push({ kind: 'stop', orderId: s.mine.orderId, why: 'the queue was cleared' });
					forgetMine(s, fx);
				} else s.mine.cancelled = true;
			}
			return;
		case 'paused':
			if (s.config.pauseStopsTakeoverClock && s.paused && !input.paused && s.current !== null)
				s.foreignSince = now;
			s.paused = input.paused;
			return;
		case 'eligible':
			if (s.config.pauseStopsTakeoverClock && !s.eligible && input.eligible && s.current !== null)
				s.foreignSince = now;
			s.eligible = input.eligible;
			return;
		case 'remembered':
			s.remembered = input.orderId;
			s.rememberedPlayed = input.orderId !== null && input.played === true;
			return;
		case 'startResult':
			return applyStartResult(s, input.orderId, input.result, now, fx);
		case 'finishResult':
			return applyFinishResult(s, input.orderId, input.result, now, fx);
		case 'releaseResult':
			return applyReleaseResult(s, input.orderId, input.result, now, fx);
		case 'playEnded':
			if (s.mine?.orderId !== input.orderId || s.mine.stage !== 'playing') return;
			s.mine = { orderId: input.orderId, stage: 'finishing', callFailures: 0 };
			// Remembered as played: a reload before the finish lands finishes it, never replays it.
			fx.push(
				{ kind: 'remember', orderId: input.orderId, played: true },
				{ kind: 'finish', orderId: input.orderId }
			);
			return;
		case 'playFailed': {
			if (s.mine?.orderId !== input.orderId || s.mine.stage !== 'playing') return;
			if (input.transient) {
				fx.push({
					kind: 'log',
					message: `play of ${input.orderId} could not start: ${input.reason}`
				});
				s.mine = { orderId: input.orderId, stage: 'releasing', reason: 'lost', callFailures: 0 };
				pushRelease(fx, input.orderId, 'lost');
				return;
			}
			let n = (s.failures[input.orderId] ?? 0) + 1;
			if (input.permanent) n = Math.max(n, s.config.maxFailures);
			s.failures[input.orderId] = n;
			fx.push({ kind: 'log', message: `play of ${input.orderId} failed (${n}): ${input.reason}` });
			s.mine = { orderId: input.orderId, stage: 'releasing', reason: 'failed', callFailures: 0 };
			pushRelease(fx, input.orderId, 'failed');
			return;
		}
		case 'wake':
			return;
	}
}

function applySnapshot<T>(
	s: ClaimState<T>,
	snap: Extract<ClaimInput<T>, { kind: 'snapshot' }>,
	now: number,
	fx: ClaimEffect<T>[]
): void {
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
	if (mine?.stage === 'playing' && s.current !== mine.orderId) {
		// The snapshot is the truth: our claim is gone (cleared, released or taken over).
		fx.push({ kind: 'stop', orderId: mine.orderId, why: 'the snapshot no longer shows our claim' });
		forgetMine(s, fx);
	}
}

function applyGone<T>(
	s: ClaimState<T>,
	orderId: string,
	why: 'finished' | 'skipped' | 'removed',
	fx: ClaimEffect<T>[]
): void {
	s.items = s.items.filter((i) => i.orderId !== orderId);
	rememberGone(s, orderId);
	if (s.current === orderId) {
		s.current = null;
		s.foreignSince = null;
	}
	const mine = s.mine;
	if (mine?.orderId !== orderId) return;
	if (mine.stage === 'starting') mine.cancelled = true;
	else if (mine.stage === 'playing') {
		// Skipped or removed by the streamer (or, oddly, finished by someone else): stop now.
		fx.push({ kind: 'stop', orderId, why: `the item was ${why}` });
		forgetMine(s, fx);
	}
	// finishing / releasing: the call's own result settles it.
}

function applyStartResult<T>(
	s: ClaimState<T>,
	orderId: string,
	result: CallResult<T>,
	now: number,
	fx: ClaimEffect<T>[]
): void {
	const mine = s.mine;
	if (mine?.orderId !== orderId || mine.stage !== 'starting') return;
	if (result.ok) {
		s.startFailures = 0;
		// We hold the queue's one claim now, so a remembered one is not held any more.
		s.remembered = null;
		s.rememberedPlayed = false;
		if (mine.cancelled) {
			// Skipped, removed or cleared while our start was in flight: the server dropped the claim
			// with the item, so nobody holds it (setting `current` here would wait for a takeover).
			if (s.current === orderId) s.current = null;
			forgetMine(s, fx);
			return;
		}
		s.current = orderId;
		s.foreignSince = null;
		const at = s.items.findIndex((i) => i.orderId === orderId);
		const item = at >= 0 ? s.items[at] : undefined;
		const data = result.data ?? item?.data;
		if (data === undefined) {
			// We hold a claim on something we cannot play: give it back.
			s.mine = { orderId, stage: 'releasing', reason: 'failed', callFailures: 0 };
			pushRelease(fx, orderId, 'failed');
			return;
		}
		if (item && result.data !== undefined) s.items[at] = { ...item, data: result.data };
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
		return;
	}
	s.mine = null;
	const { status, code } = result;
	if (status === 409 && code === 'already_playing') {
		const holder = result.currentOrderId ?? null;
		if (holder !== null && holder === s.remembered) {
			// Our own claim from before a reload: release it and start again (CONTRACT.md, Details),
			// or finish it if it had played to its end.
			return resumeRemembered(s, holder, fx);
		}
		s.remembered = null;
		s.rememberedPlayed = false;
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
		return;
	}
	if (status === 409 && code === 'queue_paused') {
		s.paused = true;
		fx.push({ kind: 'remember', orderId: null });
		return;
	}
	if (status === 404 || (status === 409 && code === 'not_in_queue')) {
		s.items = s.items.filter((i) => i.orderId !== orderId);
		rememberGone(s, orderId);
		fx.push({ kind: 'remember', orderId: null }, { kind: 'snapshot' });
		return;
	}
	if (status === 429) {
		s.blockedUntil = now + (result.retryAfterMs ?? backoff(s, s.startFailures++, CALL_BACKOFF));
		fx.push({ kind: 'remember', orderId: null });
		return;
	}
	if (status === 0 || status >= 500) {
		// The start may or may not have landed, and another consumer's start of the same item may
		// have: a claim the snapshot shows on it is not provably ours, so it is never played here.
		// It is treated as another consumer's and taken over only by the takeover rule.
		s.remembered = null;
		s.rememberedPlayed = false;
		s.blockedUntil = now + backoff(s, s.startFailures++, CALL_BACKOFF);
		fx.push({ kind: 'remember', orderId: null }, { kind: 'snapshot' });
		return;
	}
	// Any other refusal (403 missing scope, 400...): back off and re-read; never hot-loop.
	s.blockedUntil = now + backoff(s, s.startFailures++, CALL_BACKOFF);
	fx.push(
		{ kind: 'remember', orderId: null },
		{ kind: 'log', message: `start refused: ${status} ${code ?? ''}` }
	);
}

function applyFinishResult<T>(
	s: ClaimState<T>,
	orderId: string,
	result: CallResult<T>,
	now: number,
	fx: ClaimEffect<T>[]
): void {
	const mine = s.mine;
	if (mine?.orderId !== orderId || mine.stage !== 'finishing') return;
	if (result.ok || result.status === 404 || result.status === 409) {
		// 409 not_in_queue: skipped or removed meanwhile; not_playing: the claim was dropped. Either
		// way there is nothing left for us to finish.
		s.items = s.items.filter((i) => i.orderId !== orderId);
		rememberGone(s, orderId);
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
}

function applyReleaseResult<T>(
	s: ClaimState<T>,
	orderId: string,
	result: CallResult<T>,
	now: number,
	fx: ClaimEffect<T>[]
): void {
	const mine = s.mine;
	if (mine?.orderId !== orderId || mine.stage !== 'releasing') return;
	if (!result.ok && (result.status === 0 || result.status >= 500)) {
		// The release may have landed and the item may already be another consumer's: a retry could
		// release that claim from under it. Not retried; the snapshot tells, and a claim it still
		// shows is treated as another consumer's (takeover rule).
		fx.push({
			kind: 'log',
			message: `release of ${orderId} failed (${result.status}); not retried, re-reading the queue`
		});
		if (s.current === orderId) {
			s.current = null;
			s.foreignSince = null;
		}
		settleRelease(s, mine, orderId, now, fx);
		fx.push({ kind: 'snapshot' });
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
	if (!result.ok) {
		s.items = s.items.filter((i) => i.orderId !== orderId);
		rememberGone(s, orderId);
	}
	settleRelease(s, mine, orderId, now, fx);
}

/** After a release call (answered or given up on): failure bookkeeping, then nothing is ours. */
function settleRelease<T>(
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
	if (mine.reason === 'reload') {
		s.remembered = null;
		s.rememberedPlayed = false;
	}
	forgetMine(s, fx);
}

/** A release effect, after forgetting the claim in the page's memory (see the header). */
function pushRelease<T>(fx: ClaimEffect<T>[], orderId: string, reason: ReleaseReason): void {
	fx.push({ kind: 'remember', orderId: null }, { kind: 'release', orderId, reason });
}

/**
 * Our claim from before a reload is still held: if it had played to its end, finish it; else
 * release it and play it again from the start (CONTRACT.md, Details).
 */
function resumeRemembered<T>(s: ClaimState<T>, orderId: string, fx: ClaimEffect<T>[]): void {
	if (s.rememberedPlayed) {
		s.remembered = null;
		s.rememberedPlayed = false;
		s.current = orderId;
		s.foreignSince = null;
		s.mine = { orderId, stage: 'finishing', callFailures: 0 };
		fx.push({ kind: 'log', message: `finishing ${orderId}: it played before the page reloaded` });
		fx.push({ kind: 'finish', orderId });
		return;
	}
	s.mine = { orderId, stage: 'releasing', reason: 'reload', callFailures: 0 };
	pushRelease(fx, orderId, 'reload');
}

/** A finish or release call failed: retry it later (429 after its reset, else backoff). */
function retryCall<T>(
	s: ClaimState<T>,
	mine: Mine,
	result: Extract<CallResult<T>, { ok: false }>,
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

/** Decide what to do next when nothing is in flight. */
function decide<T>(s: ClaimState<T>, now: number, fx: ClaimEffect<T>[]): void {
	const mine = s.mine;
	if (mine) {
		if (mine.retryAt !== undefined && now >= mine.retryAt) {
			mine.retryAt = undefined;
			if (mine.stage === 'finishing') fx.push({ kind: 'finish', orderId: mine.orderId });
			if (mine.stage === 'releasing')
				fx.push({ kind: 'release', orderId: mine.orderId, reason: mine.reason ?? 'failed' });
		}
		return;
	}
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
		if (!s.eligible) return;
		s.foreignSince ??= now;
		const limit = takeoverLimit(s);
		if (now - s.foreignSince >= limit) {
			fx.push({ kind: 'log', message: `taking over ${s.current}: no progress for ${limit} ms` });
			s.mine = { orderId: s.current, stage: 'releasing', reason: 'takeover', callFailures: 0 };
			pushRelease(fx, s.current, 'takeover');
		}
		return;
	}
	// A remembered claim that the snapshot shows free is kept only until the answer of the start
	// below: the snapshot may have been read before the old page's start landed, and then the start
	// answers already_playing naming it (CONTRACT.md, Details). Without a start, forget it, also in
	// the stored memory, so that a later reload cannot take another consumer's claim for its own.
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

/** The oldest item we may claim now, honouring the head wait and per-item failure backoff. */
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

function nextWake<T>(s: ClaimState<T>, now: number): number | null {
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

function takeoverLimit<T>(s: ClaimState<T>): number {
	const held = s.items.find((i) => i.orderId === s.current);
	return s.config.takeoverMsFor?.(held?.data) ?? s.config.takeoverMs;
}

/** Oldest first: before the first item queued later (ties and unknown times go after). */
function insertInOrder<T>(items: ClaimItem<T>[], item: ClaimItem<T>): void {
	const t = item.queuedAt;
	const at =
		t === undefined ? -1 : items.findIndex((i) => i.queuedAt !== undefined && i.queuedAt > t);
	if (at < 0) items.push(item);
	else items.splice(at, 0, item);
}

function preloadNext<T>(s: ClaimState<T>, fx: ClaimEffect<T>[]): void {
	const next = s.items.find(
		(i) => i.ready && i.orderId !== s.mine?.orderId && !s.givenUp.includes(i.orderId)
	);
	if (next) fx.push({ kind: 'preload', orderId: next.orderId, data: next.data });
}

function lose<T>(s: ClaimState<T>, fx: ClaimEffect<T>[], why: string): void {
	if (!s.mine) return;
	fx.push({ kind: 'stop', orderId: s.mine.orderId, why });
	forgetMine(s, fx);
	fx.push({ kind: 'snapshot' });
}

function forgetRemembered<T>(s: ClaimState<T>, fx: ClaimEffect<T>[]): void {
	if (s.remembered === null) return;
	s.remembered = null;
	s.rememberedPlayed = false;
	fx.push({ kind: 'remember', orderId: null });
}

/** Whether an event about this order id can be applied with certainty (CONTRACT.md, rules). */
function known<T>(s: ClaimState<T>, orderId: string): boolean {
	return (
		s.items.some((i) => i.orderId === orderId) ||
		s.gone.includes(orderId) ||
		s.current === orderId ||
		s.mine?.orderId === orderId ||
		s.remembered === orderId
	);
}

function isGone<T>(s: ClaimState<T>, orderId: string): boolean {
	return s.gone.includes(orderId) && !s.items.some((i) => i.orderId === orderId);
}

function forgetMine<T>(s: ClaimState<T>, fx: ClaimEffect<T>[]): void {
	s.mine = null;
	fx.push({ kind: 'remember', orderId: null });
}

function rememberGone<T>(s: ClaimState<T>, orderId: string): void {
	if (s.gone.includes(orderId)) return;
	s.gone.push(orderId);
	if (s.gone.length > GONE_MEMORY) s.gone.splice(0, s.gone.length - GONE_MEMORY);
	delete s.waitingSince[orderId];
}

function backoff<T>(
	s: ClaimState<T>,
	attempt: number,
	o: { baseMs: number; maxMs: number }
): number {
	return backoffDelay(attempt, { ...o, random: s.config.random });
}
