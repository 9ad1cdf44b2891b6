// The upstream's rate limits as budgets (docs/upstream.md, limits: 240 requests a minute per IP,
// 120 per key, for OAuth per authorization; rate-limit headers). Pure: the caller
// passes the time; the shell (src/server/upstream-budget.ts) queues the calls and owns the timer.
//
// What a response tells: the upstream sends one set of RateLimit-* headers, that of whichever
// budget of the call is closer to running out. Its Limit says which: the per-IP policy's number or
// the per-authorization one (when both are the same, or the number is neither, both are assumed,
// which only ever waits longer). A budget is known until its window resets; then the next window is
// taken to start whole (the upstream's window restarts at the next call), counted down by our own
// sends until an answer tells its real count, so the calls held for the reset do not all go at
// once; a window after that is unknown until an answer shows it, and nothing waits on it.
//
// Claims first: a read may spend a budget only down to a floor that keeps, for the rest
// of the window, the claims' share of it pro rata (claimShare of a whole window's calls, for the
// time left) plus the reserve. So reads cannot spend early in a window what the claims of its last
// seconds need: claims arriving at up to claimShare of the limit a window never find the budget
// spent, however many reads come. Every instance applies the same floor to the count the upstream
// reports, so the share is kept across instances too.
import type { HeaderSource } from './backoff.ts';

export interface RateLimitHeaders {
	limit: number;
	remaining: number;
	/** Whole seconds until the window resets. */
	resetS: number;
}

/** Who goes first when a budget is nearly spent: claims (start, finish, release) before reads. */
export type CallPriority = 'claim' | 'read';

export interface BudgetPolicy {
	/** Requests per window per IP (docs/upstream.md: 240 a minute). */
	perIp: number;
	/** Requests per window per authorization (docs/upstream.md: 120 a minute). */
	perAuthorization: number;
	/** Share of a budget kept for claims at the end of a window: reads never spend it. */
	reserve: number;
	/**
	 * Share of a whole window kept for claims, pro rata for the time left in it: with 0.5, half of
	 * what is left of the window's time is kept as half of the limit's calls.
	 */
	claimShare: number;
	/** The windows' length (docs/upstream.md: a minute). */
	windowMs: number;
}

/**
 * 0.5 of a minute kept for claims: 60 calls a minute per authorization (a tip every 2 s, its start
 * and finish) and 120 per IP; reads may use the rest, 48 of 120 at once at a window's start.
 */
export const DOCUMENTED_POLICY: BudgetPolicy = {
	perIp: 240,
	perAuthorization: 120,
	reserve: 0.1,
	claimShare: 0.5,
	windowMs: 60_000
};

/** The window of a known budget, as last read from the upstream (estimates lowered by our sends). */
interface Window {
	limit: number;
	remaining: number;
	/** When the window resets (ms, the caller's clock): an upper bound, Reset being rounded up. */
	resetAt: number;
	/** Not read from an answer: the window after a known one, guessed to start then (live()). */
	guessedFrom?: number;
	/** What the freshest answer (or the guess) told was left, every instance's sends counted. */
	told: number;
	/** Our sends on this budget up to the freshest answer's call (its lane's count, Ticket). */
	toldAt: number;
}

/** Our sends on each budget at a call's send (its place in the lanes), to match its answer. */
export interface Ticket {
	ip: number;
	authorization: number;
}

/** How soon a read held for answers asks again, if none arrives sooner (ms). */
const BLIND_RECHECK_MS = 100;

/**
 * Two answers whose resets lie further apart than this come from different windows: Reset is
 * rounded up to whole seconds (one second), and an answer may spend a while on its way.
 */
const SAME_WINDOW_MS = 2000;

export interface BudgetView {
	limit: number;
	remaining: number;
	resetInMs: number;
	/** Reads wait: no more than the claims' share is left. */
	nearlySpent: boolean;
	/** Nothing is sent until the reset. */
	spent: boolean;
}

export interface BudgetSnapshot {
	/** This instance's address's budget; null while unknown (no answer showed it this window). */
	ip: BudgetView | null;
	authorizations: { known: number; nearlySpent: number; spent: number };
	/** Any budget nearly spent: reads are being held back for claims. */
	saturated: boolean;
}

/** The three headers as numbers; null when any is missing or not a whole number. */
export function readRateLimitHeaders(headers: HeaderSource): RateLimitHeaders | null {
	const get = typeof headers === 'function' ? headers : (name: string) => headers.get(name);
	const num = (name: string) => {
		const v = get(name);
		return v != null && /^\s*\d+\s*$/.test(v) ? Number(v) : null;
	};
	const limit = num('RateLimit-Limit');
	const remaining = num('RateLimit-Remaining');
	const resetS = num('RateLimit-Reset');
	if (limit === null || remaining === null || resetS === null) return null;
	return { limit, remaining: Math.min(remaining, limit), resetS };
}

export class BudgetBook {
	private ip: Window | null = null;
	private readonly authorizations = new Map<string, Window>();
	/** Our sends on each budget since start: the IP's (key '') and each authorization's. */
	private readonly lanes = new Map<string, number>();

	constructor(
		readonly policy: BudgetPolicy = DOCUMENTED_POLICY,
		/** How many instances send on these budgets (hosted mode: those calling in the window). */
		private readonly instances: () => number = () => 1
	) {}

	/** What is kept for claims at the end of a window of `limit`: at least one call. */
	private reserveOf(limit: number): number {
		return Math.max(1, Math.ceil(limit * this.policy.reserve));
	}

	/**
	 * When a call of `authorization` with this priority may be sent: `now` or later. Unknown budgets
	 * never hold a call back.
	 */
	sendAt(authorization: string, priority: CallPriority, now: number): number {
		return this.holding(authorization, priority, now)?.at ?? now;
	}

	/** The limit of the budget that holds such a call back (0 if none does). */
	holdingLimit(authorization: string, priority: CallPriority, now: number): number {
		return this.holding(authorization, priority, now)?.w.limit ?? 0;
	}

	/** The budget that holds such a call back longest, and until when; null: none does. */
	private holding(
		authorization: string,
		priority: CallPriority,
		now: number
	): { w: Window; at: number } | null {
		let holding: { w: Window; at: number } | null = null;
		for (const [lane, w] of this.windowsOf(authorization, now)) {
			const at =
				priority === 'claim'
					? w.remaining <= 0
						? w.resetAt
						: now
					: Math.max(this.readAt(w, now), this.blindAt(w, this.sentOn(lane), now));
			if (at > now && (!holding || at > holding.at)) holding = { w, at };
		}
		return holding;
	}

	/**
	 * What reads leave of a window at `now`: the reserve, and the claims' share of the time left.
	 * It falls as the window runs out, so reads held by it go one by one, not all at the reset.
	 */
	private floor(w: Window, now: number): number {
		const left = Math.min(1, Math.max(0, (w.resetAt - now) / this.policy.windowMs));
		return this.reserveOf(w.limit) + w.limit * this.policy.claimShare * left;
	}

	/** When a read may go on this window: once the floor is left after it (now, or later). */
	private readAt(w: Window, now: number): number {
		if (w.remaining - 1 >= this.floor(w, now)) return now;
		const above = w.remaining - 1 - this.reserveOf(w.limit);
		const perMs = (w.limit * this.policy.claimShare) / this.policy.windowMs;
		if (above < 0 || perMs <= 0) return w.resetAt;
		// The floor falls to `remaining - 1` when the time left is down to above / perMs.
		return Math.min(w.resetAt, Math.ceil(w.resetAt - above / perMs));
	}

	/**
	 * Several instances calling: a read that would leave more of our sends unanswered than our
	 * part of what the freshest answer left above the floor waits for answers (now: it may go).
	 */
	private blindAt(w: Window, sent: number, now: number): number {
		const instances = this.instances();
		const blind = sent - w.toldAt;
		if (instances <= 1 || blind <= 0) return now;
		if (blind + 1 <= (w.told - this.floor(w, now)) / instances) return now;
		return Math.min(w.resetAt, now + BLIND_RECHECK_MS);
	}

	private sentOn(lane: string): number {
		return this.lanes.get(lane) ?? 0;
	}

	/** The known budgets of a call, each with its lane ('' the IP's, else the authorization). */
	private windowsOf(authorization: string, now: number): [string, Window][] {
		const out: [string, Window][] = [];
		const ip = this.live(this.ip, now, '');
		if (ip) out.push(['', ip]);
		const own = this.live(this.authorizations.get(authorization), now, authorization);
		if (own) out.push([authorization, own]);
		return out;
	}

	/**
	 * A call is being sent: each known budget has one fewer left (until an answer says better).
	 * The ticket is the call's place among our sends, for observe() to match its answer.
	 */
	spend(authorization: string, now: number): Ticket {
		for (const [, w] of this.windowsOf(authorization, now))
			w.remaining = Math.max(0, w.remaining - 1);
		const ip = this.sentOn('') + 1;
		const own = this.sentOn(authorization) + 1;
		this.lanes.set('', ip);
		this.lanes.set(authorization, own);
		return { ip, authorization: own };
	}

	/**
	 * An answer to a call of `authorization` arrived at `now` with these headers (and `status`: a
	 * 429 means the budget it names is spent, whatever Remaining says).
	 */
	observe(
		authorization: string,
		headers: RateLimitHeaders,
		status: number,
		now: number,
		/** The call's, from spend(); none: the answer counts as the freshest. */
		ticket?: Ticket
	): void {
		const remaining = status === 429 ? 0 : headers.remaining;
		const seen: Window = {
			limit: headers.limit,
			remaining,
			resetAt: now + headers.resetS * 1000,
			told: remaining,
			toldAt: -1
		};
		const { perIp, perAuthorization } = this.policy;
		const isIp = headers.limit === perIp || headers.limit !== perAuthorization;
		const isAuthorization = headers.limit === perAuthorization || headers.limit !== perIp;
		if (isIp) {
			this.ip = merge(this.live(this.ip, now, ''), seen);
			told(this.ip, seen, ticket?.ip ?? this.sentOn(''));
		}
		if (isAuthorization) {
			const w = merge(this.live(this.authorizations.get(authorization), now, authorization), seen);
			this.authorizations.set(authorization, w);
			told(w, seen, ticket?.authorization ?? this.sentOn(authorization));
		}
	}

	/** Forgets an authorization (the streamer disconnected). */
	forget(authorization: string): void {
		this.authorizations.delete(authorization);
		this.lanes.delete(authorization);
	}

	snapshot(now: number): BudgetSnapshot {
		const view = (w: Window): BudgetView => ({
			limit: w.limit,
			remaining: w.remaining,
			resetInMs: Math.max(0, w.resetAt - now),
			nearlySpent: w.remaining - 1 < this.floor(w, now),
			spent: w.remaining <= 0
		});
		const ip = this.peek(this.ip, now);
		const authorizations = { known: 0, nearlySpent: 0, spent: 0 };
		for (const [id, w] of this.authorizations) {
			const live = this.peek(w, now);
			if (!live) {
				this.authorizations.delete(id);
				continue;
			}
			const v = view(live);
			authorizations.known += 1;
			if (v.nearlySpent) authorizations.nearlySpent += 1;
			if (v.spent) authorizations.spent += 1;
		}
		const ipView = ip ? view(ip) : null;
		return {
			ip: ipView,
			authorizations,
			saturated: !!ipView?.nearlySpent || authorizations.nearlySpent > 0
		};
	}

	/** What live() would give, without starting a guessed window (a snapshot sends nothing). */
	private peek(w: Window | null | undefined, now: number): Window | null {
		if (!w || now < w.resetAt) return w ?? null;
		if (now >= w.resetAt + this.policy.windowMs) return null;
		return { ...w, remaining: w.limit, resetAt: now + this.policy.windowMs };
	}

	/**
	 * The window while it lasts; for one window's length after its reset, the next one (whole at
	 * first, then lowered by our sends); after that the budget is unknown.
	 */
	private live(w: Window | null | undefined, now: number, lane: string): Window | null {
		if (!w || now >= w.resetAt + this.policy.windowMs) return null;
		if (now >= w.resetAt) {
			w.remaining = w.limit;
			w.resetAt = now + this.policy.windowMs;
			w.guessedFrom = now;
			// A whole window guessed: every send before it was in the windows before.
			w.told = w.limit;
			w.toldAt = this.sentOn(lane);
		}
		return w;
	}
}

/**
 * What is known after an answer: a later window replaces the known one; within the same window
 * the lower count wins (answers overtake each other, and our own sends lower the estimate); an
 * answer from an earlier window tells nothing new. A guessed window takes the answer's reset (the
 * upstream's window may be shorter than the policy's), and the lower count: our sends since the
 * guess began were all in the upstream's new window.
 */
function merge(known: Window | null, seen: Window): Window {
	if (known?.guessedFrom !== undefined && seen.resetAt - known.guessedFrom > SAME_WINDOW_MS)
		return { ...seen, remaining: Math.min(known.remaining, seen.remaining) };
	if (!known || seen.resetAt - known.resetAt > SAME_WINDOW_MS) return { ...seen };
	if (known.resetAt - seen.resetAt > SAME_WINDOW_MS) return known;
	return {
		limit: seen.limit,
		remaining: Math.min(known.remaining, seen.remaining),
		resetAt: Math.max(known.resetAt, seen.resetAt),
		told: known.told,
		toldAt: known.toldAt
	};
}

/**
 * The answer `seen` to the call at `at` (its lane's count) tells `w`'s count, if it is of that
 * window and fresher than the answer that told it last.
 */
function told(w: Window, seen: Window, at: number): void {
	if (w.resetAt - seen.resetAt > SAME_WINDOW_MS || at <= w.toldAt) return;
	w.told = seen.told;
	w.toldAt = at;
}
