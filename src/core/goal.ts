// Tip-goal arithmetic (docs/upstream.md, records: TipGoal): which tips count, the percentage, the
// goal's state at a given instant, the countdown to ends_at, and a tally that counts every tip once
// between snapshot reads. Pure: the caller passes `now` and owns every timer and request.
import type { QueueTip, TipGoal } from '../contract/index.ts';
import { EventDeduper } from './dedupe.ts';

export type GoalState = 'disabled' | 'not-started' | 'running' | 'ended';

/** The fields of a tip that decide whether it counts. */
export type GoalTip = Pick<QueueTip, 'order_id' | 'amount' | 'is_paid' | 'queued_at'>;

/** Epoch ms of an ISO date-time, or null when absent or unparseable (a bound that is not there). */
export function instant(iso: string | null | undefined): number | null {
	if (!iso) return null;
	const ms = Date.parse(iso);
	return Number.isFinite(ms) ? ms : null;
}

/**
 * Whether an instant lies inside [starts_at, ends_at], both inclusive; a missing bound is open.
 * Instants are compared, so `2024-05-01T09:00:00+09:00` and `2024-05-01T00:00:00Z` are equal.
 */
export function inWindow(goal: Pick<TipGoal, 'starts_at' | 'ends_at'>, at: number): boolean {
	const from = instant(goal.starts_at);
	const to = instant(goal.ends_at);
	return (from === null || at >= from) && (to === null || at <= to);
}

/**
 * Whether a tip moves the goal: paid (docs/upstream.md, QueueTip.is_paid: unpaid tips never count
 * toward the streamer's totals), with an amount, queued inside the window.
 */
export function countsToward(goal: Pick<TipGoal, 'starts_at' | 'ends_at'>, tip: GoalTip): boolean {
	if (!tip.is_paid || tip.amount === null || !Number.isFinite(tip.amount)) return false;
	const at = instant(tip.queued_at);
	return at !== null && inWindow(goal, at);
}

/** Cents, as the upstream rounds: no 0.1 + 0.2 artefacts on screen. */
export function roundCents(n: number): number {
	return Math.round(n * 100) / 100;
}

/** The goal with the tip added when it counts; the same object when it does not. */
export function applyTip(goal: TipGoal, tip: GoalTip): TipGoal {
	if (!countsToward(goal, tip)) return goal;
	return { ...goal, current: roundCents(goal.current + (tip.amount as number)) };
}

/** The goal with an amount added (POST /overlays/{id}/tip-goal/add). */
export function applyAdd(goal: TipGoal, amount: number): TipGoal {
	return Number.isFinite(amount) ? { ...goal, current: roundCents(goal.current + amount) } : goal;
}

/**
 * Percent raised, unclamped above (a goal may be beaten: 150 of 100 is 150) and never below 0.
 * A goal of amount 0 (or less) has nothing to measure against: 0, by choice, so that an unset goal
 * never claims to be complete and the celebration never fires for it.
 */
export function goalPercent(goal: Pick<TipGoal, 'current' | 'amount'>): number {
	if (!(goal.amount > 0) || !Number.isFinite(goal.current)) return 0;
	return Math.max(0, (goal.current / goal.amount) * 100);
}

/** The bar's fill, 0 to 1 (the percentage text may pass 100, the bar stops full). */
export function barFraction(goal: Pick<TipGoal, 'current' | 'amount'>): number {
	return Math.min(1, goalPercent(goal) / 100);
}

/** Whether the goal is met (amount > 0 and current >= amount). */
export function isReached(goal: Pick<TipGoal, 'current' | 'amount'>): boolean {
	return goal.amount > 0 && goal.current >= goal.amount;
}

/** The goal's state at `now`: both bounds inclusive, as for tips. */
export function goalState(
	goal: Pick<TipGoal, 'enabled' | 'starts_at' | 'ends_at'>,
	now: number
): GoalState {
	if (!goal.enabled) return 'disabled';
	const from = instant(goal.starts_at);
	const to = instant(goal.ends_at);
	if (from !== null && now < from) return 'not-started';
	if (to !== null && now > to) return 'ended';
	return 'running';
}

export interface CountdownParts {
	days: number;
	hours: number;
	minutes: number;
	seconds: number;
	/** Milliseconds left (0 once over). */
	totalMs: number;
	/** In the last minute the display counts seconds; before it, whole minutes. */
	lastMinute: boolean;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** setTimeout's largest delay; a longer one fires at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * What the countdown to `endsAt` shows at `now`. Before the last minute whole minutes are shown,
 * rounded down (`seconds` is 0); in the last minute (60 s or less) the seconds, rounded up, so it
 * never shows `0s` while time remains. Null when there is no valid end.
 */
export function countdownParts(endsAt: string | null, now: number): CountdownParts | null {
	const end = instant(endsAt);
	if (end === null) return null;
	const totalMs = Math.max(0, end - now);
	if (totalMs <= MINUTE) {
		const seconds = Math.ceil(totalMs / SECOND);
		return { days: 0, hours: 0, minutes: 0, seconds, totalMs, lastMinute: true };
	}
	const m = Math.floor(totalMs / MINUTE);
	return {
		days: Math.floor(m / (24 * 60)),
		hours: Math.floor((m % (24 * 60)) / 60),
		minutes: m % 60,
		seconds: 0,
		totalMs,
		lastMinute: false
	};
}

/** The countdown as text: `2d 3h 04m`, `3h 04m`, `4m`, `45s` (units are not translated). */
export function formatCountdown(parts: CountdownParts): string {
	if (parts.lastMinute) return `${parts.seconds}s`;
	const mm =
		parts.days > 0 || parts.hours > 0
			? String(parts.minutes).padStart(2, '0')
			: String(parts.minutes);
	if (parts.days > 0) return `${parts.days}d ${parts.hours}h ${mm}m`;
	if (parts.hours > 0) return `${parts.hours}h ${mm}m`;
	return `${mm}m`;
}

/**
 * Milliseconds from `now` until what the goal shows next changes on its own: the start of the
 * window, the next countdown step (each minute, each second in the last minute), the end. Null
 * when nothing changes with time (disabled, ended, or running without an end): then no timer runs.
 */
export function nextChangeMs(
	goal: Pick<TipGoal, 'enabled' | 'starts_at' | 'ends_at'>,
	now: number
): number | null {
	const state = goalState(goal, now);
	if (state === 'not-started') return clampDelay((instant(goal.starts_at) as number) - now);
	if (state !== 'running') return null;
	const end = instant(goal.ends_at);
	if (end === null) return null;
	const left = end - now;
	// The end itself is inside the window: one ms later the state is 'ended'.
	if (left <= 0) return 1;
	if (left > MINUTE) {
		// Floored minutes change just below the next multiple; at 60 s left the seconds take over.
		const toNextMinute = left - Math.floor(left / MINUTE) * MINUTE + 1;
		return clampDelay(Math.min(toNextMinute, left - MINUTE));
	}
	// Ceiled seconds change when `left` reaches the multiple below.
	return clampDelay(left - (Math.ceil(left / SECOND) - 1) * SECOND);
}

function clampDelay(ms: number): number {
	return Math.min(Math.max(1, Math.ceil(ms)), MAX_TIMEOUT_MS);
}

// --- Counting each tip once between snapshot reads ---

/**
 * What to do with a tip event:
 * - `applied`: it counted; `goal` is the new tally.
 * - `not-counted`: unpaid, no amount, or outside the window.
 * - `duplicate`: this order id was seen before (a repeated tip.created, or a tip already counted).
 * - `doubt`: it may count, but the last read may already include it (or no read landed yet):
 *   re-read instead of adding.
 */
export type TipVerdict =
	| { kind: 'applied'; goal: TipGoal }
	| { kind: 'not-counted' }
	| { kind: 'duplicate' }
	| { kind: 'doubt' };

export interface GoalTallyOptions {
	/** After a read (or a goal event) completes, tips arriving this soon are in doubt. */
	doubtMs?: number;
	/** How many order ids to remember (a goal may run for days). */
	capacity?: number;
}

/**
 * The running total between reads. The dedupe rule:
 *
 * 1. Every order id is remembered once seen (bounded ring, the last few thousand). A second
 *    event for the same order id never counts again, whether the first was added here or was
 *    already inside a later read: a tip whose event arrived existed before any read requested
 *    after it, so that read includes it.
 * 2. A read's `current` includes every tip queued before the server answered. A tip event that
 *    arrives while a read is in flight, within `doubtMs` after a read (or a goal event) landed, or
 *    whose queued_at is before the start of the last read (the event came late) may be inside
 *    that read: it is not added but reported as `doubt`, and the caller re-reads. A re-read is
 *    always right, so a doubt never miscounts; it only costs a request. The first two tests need
 *    no clock agreement; the queued_at test catches late events when the browser's clock roughly
 *    agrees with the upstream's (a skewed clock makes it trigger more re-reads, or miss a tip
 *    delivered over `doubtMs` late, which the next read corrects).
 */
export class GoalTally {
	goal: TipGoal | null = null;
	private readonly seen: EventDeduper;
	private readonly doubtMs: number;
	private reading = 0;
	private lastReadStartedAt = -Infinity;
	private lastTruthAt = -Infinity;
	/** Goal events taken so far, and how many there were when the last read was sent. */
	private events = 0;
	private eventsAtReadStart = 0;

	constructor(options: GoalTallyOptions = {}) {
		this.doubtMs = options.doubtMs ?? 1000;
		this.seen = new EventDeduper(options.capacity ?? 5000);
	}

	/** A snapshot read was sent at `now`. */
	beginRead(now: number): void {
		this.reading += 1;
		this.lastReadStartedAt = now;
		this.eventsAtReadStart = this.events;
	}

	/**
	 * The read sent last answered (`goal` null: it failed and the tally stays). A goal event that
	 * landed while it was in flight is newer than or as new as its answer, so that answer is not
	 * shown (no flash of an older title, end or total); the caller reads once more after it.
	 */
	endRead(goal: TipGoal | null, now: number): void {
		this.reading = Math.max(0, this.reading - 1);
		if (goal && this.events === this.eventsAtReadStart) {
			this.goal = goal;
			this.lastTruthAt = now;
		}
	}

	/** overlay.tip_goal.updated: the event's goal is the truth as of its emission. */
	takeTruth(goal: TipGoal, now: number): void {
		this.goal = goal;
		this.lastTruthAt = now;
		this.events += 1;
	}

	get readInFlight(): boolean {
		return this.reading > 0;
	}

	tip(tip: GoalTip, now: number): TipVerdict {
		if (this.seen.seen(tip.order_id)) return { kind: 'duplicate' };
		// Before the first read lands there is nothing to add to: that read (or one after it) has it.
		if (!this.goal) return { kind: 'doubt' };
		if (!countsToward(this.goal, tip)) return { kind: 'not-counted' };
		const queued = instant(tip.queued_at) as number;
		if (
			this.reading > 0 ||
			now - this.lastTruthAt < this.doubtMs ||
			queued < this.lastReadStartedAt
		)
			return { kind: 'doubt' };
		this.goal = applyTip(this.goal, tip);
		return { kind: 'applied', goal: this.goal };
	}
}

/** The localStorage key that remembers a celebrated goal (a new amount or start is a new goal). */
export function reachedKey(overlayId: string, goal: Pick<TipGoal, 'amount' | 'starts_at'>): string {
	return `tok:goal-reached:${overlayId}:${goal.amount}:${goal.starts_at ?? ''}`;
}

/**
 * Whether going from `before` to `after` reaches the goal: it was known and below the amount and
 * now meets it. A goal first seen already reached (a page load, a reload) is not a crossing: the
 * celebration belongs to the moment it was reached while someone watched.
 */
export function crossesGoal(
	before: Pick<TipGoal, 'current'> | null,
	after: Pick<TipGoal, 'current' | 'amount' | 'enabled'>
): boolean {
	return after.enabled && before !== null && before.current < after.amount && isReached(after);
}
