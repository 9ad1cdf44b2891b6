// The upstream's rate limits kept by this process (the rules: src/core/rate-budget.ts): every call
// waits while a budget it counts against is known spent, reads wait once only the claims' share of
// a budget is left so that claims (start, finish, release, the dock's controls) still go, and a
// call that would wait longer than the page would is answered here with the upstream's 429 shape
// (RateLimit-* headers, `error` only), so the page waits out the reset (docs/upstream.md) and nothing
// is sent that the upstream would refuse. Reads also wait for the calling address's budget, shared by
// every streamer (and in hosted mode every instance) that calls from it (address-budget.ts).
import { AddressShare, type AddressSnapshot } from '../core/address-share.ts';
import { ROUTES } from '../contract/index.ts';
import {
	BudgetBook,
	DOCUMENTED_POLICY,
	readRateLimitHeaders,
	type BudgetPolicy,
	type BudgetSnapshot,
	type CallPriority,
	type Ticket
} from '../core/rate-budget.ts';
import { UpstreamClient } from './upstream.ts';
import { addressPolicy, type AddressBudget } from './address-budget.ts';

/**
 * What the streamer's alerts and actions wait on goes first: every write (start, finish, release,
 * the dock's skip, pause, replay, visibility, tipping). Reads, and the handoff token a page mints
 * to connect, are reads: a flood of either must not hold back a tip.
 */
export function callPriority(method: string, path: string): CallPriority {
	if (method === 'GET' || method === 'HEAD') return 'read';
	return path.split('?')[0] === ROUTES.realtimeToken.path ? 'read' : 'claim';
}

export interface UpstreamBudgetOptions {
	policy?: BudgetPolicy;
	/**
	 * The longest a call is held before it is sent: well under the page's own timeout (10 s, api.ts)
	 * and the upstream call's, so a held claim is never sent after its page gave up on it.
	 */
	maxWaitMs?: number;
	now?: () => number;
	/**
	 * The calling address's budget, shared by every streamer: hosted mode's is kept across
	 * instances; by default this process's own count (AddressShare).
	 */
	address?: AddressBudget;
}

/** What /healthz and /metrics read: the budgets and what was held back or refused for them. */
export interface UpstreamBudgetSnapshot extends BudgetSnapshot {
	queued: { claims: number; reads: number };
	/**
	 * Since start: calls held until a reset (and claims among them: none while the claims keep
	 * within their share), calls answered 429 here, 429s from the upstream.
	 */
	held: number;
	heldClaims: number;
	refusedHere: number;
	upstream429: number;
	/** The calling address's budget, deployment-wide, and since start the reads held for it. */
	address: AddressSnapshot & { heldReads: number };
}

interface Waiter {
	authorization: string;
	priority: CallPriority;
	deadline: number;
	go: (slot: Slot) => void;
}

/** May go (its ticket, for observe() to match the answer to it), or the 429 to answer instead. */
type Slot = { ok: true; ticket: Ticket } | { ok: false; response: Response };

/** The longest a read is held for the calling address's budget alone (address-budget.ts). */
const ADDRESS_WAIT_MS = 1000;

export class UpstreamBudget {
	private readonly book: BudgetBook;
	private readonly maxWaitMs: number;
	private readonly now: () => number;
	private readonly waiting: Waiter[] = [];
	private timer: ReturnType<typeof setTimeout> | null = null;
	private timerAt = Infinity;
	private held = 0;
	private heldClaims = 0;
	private refusedHere = 0;
	private upstream429 = 0;
	private heldForAddress = 0;
	private readonly address: AddressBudget;

	constructor(o: UpstreamBudgetOptions = {}) {
		const policy = o.policy ?? DOCUMENTED_POLICY;
		this.address = o.address ?? new AddressShare(addressPolicy(policy));
		this.book = new BudgetBook(policy, () => this.address.instances());
		this.maxWaitMs = o.maxWaitMs ?? 5_000;
		this.now = o.now ?? Date.now;
		this.address.onChange(() => {
			if (this.waiting.length) this.wake(this.now());
		});
	}

	/**
	 * Resolves when the call may be sent, or with the 429 to answer instead. `authorization` names
	 * the streamer too (hosted mode: their id; one process: its one credential).
	 */
	admit(authorization: string, priority: CallPriority): Promise<Slot> | Slot {
		const now = this.now();
		const at = this.sendAt(authorization, priority, now);
		if (at <= now) return { ok: true, ticket: this.spend(authorization, priority, now) };
		if (at - now > this.maxWaitMs) return this.refuse(authorization, priority, at - now);
		this.held += 1;
		// A read held only for the calling address waits less: a page's reads go one at a time with
		// its claims, so it is told at once to come back rather than kept.
		let deadline = now + this.maxWaitMs;
		if (priority === 'claim') this.heldClaims += 1;
		else if (this.book.sendAt(authorization, priority, now) <= now) {
			this.heldForAddress += 1;
			deadline = now + Math.min(this.maxWaitMs, ADDRESS_WAIT_MS);
		}
		return new Promise<Slot>((go) => {
			this.waiting.push({ authorization, priority, deadline, go });
			this.wake(at);
		});
	}

	/**
	 * An answer from the upstream (to the call of `ticket`): its RateLimit-* headers update the
	 * budgets, and the reads held for answers look again.
	 */
	observe(authorization: string, res: Response, ticket?: Ticket): void {
		if (res.status === 429) this.upstream429 += 1;
		const headers = readRateLimitHeaders(res.headers);
		if (!headers) return;
		this.book.observe(authorization, headers, res.status, this.now(), ticket);
		if (this.waiting.length) this.wake(this.now());
	}

	forget(authorization: string): void {
		this.book.forget(authorization);
	}

	/** Read-only; cheap enough for every /healthz and /metrics request. */
	budgetSnapshot(): UpstreamBudgetSnapshot {
		const claims = this.waiting.filter((w) => w.priority === 'claim').length;
		return {
			...this.book.snapshot(this.now()),
			queued: { claims, reads: this.waiting.length - claims },
			held: this.held,
			heldClaims: this.heldClaims,
			refusedHere: this.refusedHere,
			upstream429: this.upstream429,
			address: { ...this.address.snapshot(this.now()), heldReads: this.heldForAddress }
		};
	}

	/** When a call may go: claims wait only for a spent budget; reads for the address's too. */
	private sendAt(authorization: string, priority: CallPriority, now: number): number {
		const at = this.book.sendAt(authorization, priority, now);
		return priority === 'read' ? Math.max(at, this.address.readAt(authorization, now)) : at;
	}

	private spend(authorization: string, priority: CallPriority, now: number): Ticket {
		this.address.spent(authorization, priority, now);
		return this.book.spend(authorization, now);
	}

	/** Lets go what may go now, claims first, and sleeps until the next one may. */
	private drain(): void {
		this.timer = null;
		this.timerAt = Infinity;
		const now = this.now();
		const order = [...this.waiting].sort(
			(a, b) => Number(a.priority === 'read') - Number(b.priority === 'read')
		);
		let next = Infinity;
		for (const w of order) {
			const at = this.sendAt(w.authorization, w.priority, now);
			if (at <= now)
				this.release(w, { ok: true, ticket: this.spend(w.authorization, w.priority, now) });
			else if (at > w.deadline) this.release(w, this.refuse(w.authorization, w.priority, at - now));
			else next = Math.min(next, at);
		}
		if (next < Infinity) this.wake(next);
	}

	private release(w: Waiter, slot: Slot): void {
		this.waiting.splice(this.waiting.indexOf(w), 1);
		w.go(slot);
	}

	private wake(at: number): void {
		if (at >= this.timerAt) return;
		if (this.timer) clearTimeout(this.timer);
		this.timerAt = at;
		this.timer = setTimeout(() => this.drain(), Math.max(0, at - this.now()));
	}

	private refuse(authorization: string, priority: CallPriority, waitMs: number): Slot {
		this.refusedHere += 1;
		const now = this.now();
		// The budget that holds the call: the authorization's or the IP's, else the address's.
		const limit = this.book.holdingLimit(authorization, priority, now) || this.book.policy.perIp;
		const resetS = Math.max(1, Math.ceil(waitMs / 1000));
		return {
			ok: false,
			response: Response.json(
				{ error: `rate limit: this budget is spent for ${resetS} s more` },
				{
					status: 429,
					headers: {
						'RateLimit-Limit': String(limit),
						'RateLimit-Remaining': '0',
						'RateLimit-Reset': String(resetS),
						'cache-control': 'no-store'
					}
				}
			)
		};
	}
}

/** A streamer's upstream client whose calls count against (and wait for) the budgets. */
export class BudgetedUpstreamClient extends UpstreamClient {
	constructor(
		private readonly budget: UpstreamBudget,
		private readonly authorization: string,
		...client: ConstructorParameters<typeof UpstreamClient>
	) {
		super(...client);
	}

	protected override async send(
		method: string,
		path: string,
		body: string | undefined,
		sent: () => void,
		priority?: CallPriority
	): Promise<Response> {
		const slot = await this.budget.admit(
			this.authorization,
			priority ?? callPriority(method, path)
		);
		if (!slot.ok) return slot.response;
		const res = await super.send(method, path, body, sent, priority);
		this.budget.observe(this.authorization, res, slot.ticket);
		return res;
	}
}
