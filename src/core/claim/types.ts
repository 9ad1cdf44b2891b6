// The claim protocol's state, inputs and effects (docs/claim-protocol.md): what one consumer knows
// of one queue (TTS or media), what can happen to it, and what it asks its shell to do.
export interface ClaimItem<T> {
	orderId: string;
	/** Can be played now (TTS: `tts_url` is set; media: always). */
	ready: boolean;
	/**
	 * When it was queued (ms since the epoch), if known: events arrive in any order
	 * (docs/upstream.md), so an `added` item is placed before later-queued ones instead of at the
	 * end.
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

/** The input of one kind. */
export type InputOf<T, K extends ClaimInput<T>['kind']> = Extract<ClaimInput<T>, { kind: K }>;

/**
 * The decision for one input kind (claim-protocol.ts DECISIONS): applies the input at time `now`
 * to `s`, the step's own copy of the state, and pushes the effects it asks for to `fx`.
 */
export type Decision<K extends ClaimInput<unknown>['kind']> = <T>(
	s: ClaimState<T>,
	input: InputOf<T, K>,
	now: number,
	fx: ClaimEffect<T>[]
) => void;

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

export type Stage = 'starting' | 'playing' | 'finishing' | 'releasing';

/** The claim this consumer holds or is getting or giving back (null in the state: none). */
export interface Mine {
	orderId: string;
	stage: Stage;
	/** Why we release (stage `releasing`). */
	reason?: ReleaseReason;
	/** A skip/remove/clear arrived while the start was in flight. */
	cancelled?: boolean;
	/**
	 * While our start is in flight: `started` once a `started` event of this order is heard,
	 * `released` once a `released` follows it. Then the claim our start gets may be the one
	 * released (another consumer's takeover release meeting our start): a success proves nothing.
	 */
	heard?: 'started' | 'released';
	/** Failed attempts of the current call (finish or release), for its backoff. */
	callFailures: number;
	/** When to retry the current call (finish or release) after a failure. */
	retryAt?: number;
	/** A release answered 5xx or lost: whether it landed is being checked with a snapshot. */
	doubt?: boolean;
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
