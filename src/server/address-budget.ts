// The upstream's per-address budget as the token endpoint keeps it (the rules: src/core/address-share.ts).
// One process (single mode) knows every call it sends, so its count is exact: AddressShare itself;
// hosted instances share theirs through PostgreSQL (src/hosted/address-ledger.ts).
import type { AddressPolicy, AddressSnapshot } from '../core/address-share.ts';
import type { BudgetPolicy, CallPriority } from '../core/rate-budget.ts';

/** What UpstreamBudget asks of the address budget before a call, and tells it after. */
export interface AddressBudget {
	/** When a read of `streamer` may be sent: `now`, or a later moment to ask again. */
	readAt(streamer: string, now: number): number;
	/** A call of `streamer` is being sent. */
	spent(streamer: string, priority: CallPriority, now: number): void;
	/** Calls `listener` whenever a held read may have become possible (a sync arrived). */
	onChange(listener: () => void): void;
	/** How many instances call from the address (those that called in the window; 1 alone). */
	instances(): number;
	snapshot(now: number): AddressSnapshot;
}

/** The address policy of a budget policy: its per-IP limit, reserve and claims' share. */
export function addressPolicy(p: BudgetPolicy): AddressPolicy {
	return { limit: p.perIp, reserve: p.reserve, claimShare: p.claimShare, windowMs: p.windowMs };
}
