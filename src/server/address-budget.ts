// The upstream's per-address budget as the token endpoint keeps it (the rules: src/core/address-share.ts).
// One process (single mode) knows every call it sends, so its count is exact; hosted instances
// share theirs through PostgreSQL (src/hosted/address-ledger.ts implements the same interface).
import { AddressShare, type AddressPolicy, type AddressSnapshot } from '../core/address-share.ts';
import type { BudgetPolicy, CallPriority } from '../core/rate-budget.ts';

/** What UpstreamBudget asks of the address budget before a call, and tells it after. */
export interface AddressBudget {
	/** When a read of `streamer` may be sent: `now`, or a later moment to ask again. */
	readAt(streamer: string, now: number): number;
	/** A call of `streamer` is being sent. */
	spent(streamer: string, priority: CallPriority, now: number): void;
	/** Calls `listener` whenever a held read may have become possible (a sync arrived). */
	onChange(listener: () => void): void;
	snapshot(now: number): AddressSnapshot;
}

/** The address policy of a budget policy: its per-IP limit, reserve and claims' share. */
export function addressPolicy(p: BudgetPolicy): AddressPolicy {
	return { limit: p.perIp, reserve: p.reserve, claimShare: p.claimShare, windowMs: p.windowMs };
}

/**
 * How long a held read waits before it is asked about again: the calls of a second leave the
 * window one second later.
 */
const RECHECK_MS = 1000;

/** One process's own count: every call from this address is one it sent. */
export class LocalAddressBudget implements AddressBudget {
	private readonly share: AddressShare;

	constructor(policy: AddressPolicy) {
		this.share = new AddressShare(policy);
	}

	readAt(streamer: string, now: number): number {
		return this.share.mayRead(streamer, now) ? now : now + RECHECK_MS;
	}

	spent(streamer: string, priority: CallPriority, now: number): void {
		this.share.spend(streamer, priority, now);
	}

	onChange(): void {}

	snapshot(now: number): AddressSnapshot {
		return this.share.snapshot(now);
	}
}
