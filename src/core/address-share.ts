// The upstream's per-address budget (docs/upstream.md: 240 calls a minute per calling address) as
// one resource for a whole deployment: every instance and every streamer that calls from one egress
// address spends it together. Pure: the caller passes the time and, in hosted mode, what the other
// instances spent (src/hosted/address-ledger.ts reads it from PostgreSQL); the shell
// (src/server/upstream-budget.ts) holds the reads this says must wait.
//
// What is counted: every call sent, by second, by streamer, claim or read. The window slides
// (src/core/window-limit.ts: a second counts while its start is in the window): the calls of any
// window's length (a minute) never pass the limit, whichever way the upstream cuts its windows.
// Claims are never held here. Reads of every streamer together may spend what is left once the
// claims' share is kept: the limit, less a reserve (a tenth), less the larger of half the limit
// and the claims actually sent in the window. Past half of that ceiling, a streamer who has read more
// than an even share (the ceiling over the streamers reading) waits, so one streamer's readers never
// spend what the others need.
//
// Across instances, each instance counts its own calls exactly and learns the others' from its last
// sync. Between two syncs the others may spend too, so an instance may spend only its part of what
// was left at the sync (what was left, over the instances that called in the window).
import type { CallPriority } from './rate-budget.ts';
import { inWindow, type WindowLimit } from './window-limit.ts';

/** `limit`: calls a window per calling address (240 a minute). */
export interface AddressPolicy extends WindowLimit {
	/** Share of the limit no read spends (a tenth). */
	reserve: number;
	/** Share of the limit kept for claims whatever they spent (a half). */
	claimShare: number;
}

/** What the other instances sent in the window, as the last sync read it. */
export interface OthersSpend {
	claims: number;
	reads: number;
	/** Reads by streamer (only those who read). */
	readsBy: Map<string, number>;
	/** Instances that called in the window, this one included. */
	instances: number;
}

/** The address budget as /metrics shows it. */
export interface AddressSnapshot {
	limit: number;
	/** What reads of every streamer together may spend in the window now. */
	readCeiling: number;
	claims: number;
	reads: number;
	instances: number;
	/** The streamers who read most in the window, most first (at most five). */
	topReaders: { streamer: string; reads: number }[];
}

interface Second {
	at: number;
	claims: number;
	reads: Map<string, number>;
}

const NOBODY: OthersSpend = { claims: 0, reads: 0, readsBy: new Map(), instances: 1 };

export class AddressShare {
	/** This instance's calls, by second (oldest first), for one window. */
	private readonly seconds: Second[] = [];
	private others: OthersSpend = NOBODY;
	/** Reads this instance may still send before the next sync (Infinity: no other instance). */
	private untilSync = Infinity;
	/**
	 * This instance's calls in the window, kept as they are spent and pruned, so that a read's
	 * question costs the same however many streamers read.
	 */
	private ownClaims = 0;
	private ownReads = 0;
	private readonly ownReadsBy = new Map<string, number>();
	/** Streamers who read here in the window and not at the others (as of the last sync). */
	private ownOnly = 0;

	constructor(readonly policy: AddressPolicy) {}

	/** A call is being sent. */
	spent(streamer: string, priority: CallPriority, now: number): void {
		const s = this.second(now);
		if (priority === 'claim') {
			s.claims += 1;
			this.ownClaims += 1;
			return;
		}
		s.reads.set(streamer, (s.reads.get(streamer) ?? 0) + 1);
		this.count(streamer, 1);
		this.untilSync -= 1;
	}

	/** When a read may be sent (single mode's AddressBudget): now, or in a second, to ask again. */
	readAt(streamer: string, now: number): number {
		return this.mayRead(streamer, now) ? now : now + 1000;
	}

	onChange(): void {}

	/** Instances that called in the window as of the last sync, this one included. */
	instances(): number {
		return this.others.instances;
	}

	/** Whether a read of `streamer` may be sent now (and counted by `spent`). */
	mayRead(streamer: string, now: number): boolean {
		if (this.untilSync < 1) return false;
		this.prune(now);
		const others = this.others;
		const ceiling = this.readCeiling(others.claims + this.ownClaims);
		const reads = others.reads + this.ownReads;
		if (reads + 1 > ceiling) return false;
		if (reads + 1 <= ceiling / 2) return true;
		const theirs = others.readsBy.get(streamer) ?? 0;
		const mine = this.ownReadsBy.get(streamer) ?? 0;
		const readers = others.readsBy.size + this.ownOnly + (theirs || mine ? 0 : 1);
		return theirs + mine + 1 <= Math.max(1, ceiling / readers);
	}

	/**
	 * What the other instances spent, read now: this instance may send its part of what is left
	 * until the next sync.
	 */
	synced(others: OthersSpend, now: number): void {
		this.others = others;
		this.prune(now);
		this.ownOnly = 0;
		for (const streamer of this.ownReadsBy.keys())
			if (!others.readsBy.has(streamer)) this.ownOnly += 1;
		const claims = others.claims + this.ownClaims;
		const reads = others.reads + this.ownReads;
		const left = Math.max(0, this.readCeiling(claims) - reads);
		this.untilSync = others.instances <= 1 ? Infinity : Math.floor(left / others.instances);
	}

	/** This instance's calls since `from` (ms) by second and streamer, for a sync to write. */
	ownSince(from: number): { second: number; streamer: string; claims: number; reads: number }[] {
		const rows: { second: number; streamer: string; claims: number; reads: number }[] = [];
		for (const s of this.seconds) {
			if (s.at * 1000 < from - 999) continue;
			if (s.claims) rows.push({ second: s.at, streamer: '', claims: s.claims, reads: 0 });
			for (const [streamer, reads] of s.reads)
				rows.push({ second: s.at, streamer, claims: 0, reads });
		}
		return rows;
	}

	snapshot(now: number): AddressSnapshot {
		this.prune(now);
		const claims = this.others.claims + this.ownClaims;
		const readsBy = new Map(this.others.readsBy);
		for (const [streamer, n] of this.ownReadsBy)
			readsBy.set(streamer, (readsBy.get(streamer) ?? 0) + n);
		return {
			limit: this.policy.limit,
			readCeiling: this.readCeiling(claims),
			claims,
			reads: this.others.reads + this.ownReads,
			instances: this.others.instances,
			topReaders: [...readsBy]
				.sort((a, b) => b[1] - a[1])
				.slice(0, 5)
				.map(([streamer, n]) => ({ streamer, reads: n }))
		};
	}

	private readCeiling(claims: number): number {
		const { limit, reserve, claimShare } = this.policy;
		return Math.max(0, limit - Math.ceil(limit * reserve) - Math.max(limit * claimShare, claims));
	}

	/** This instance's reads of `streamer` in the window change by `n`. */
	private count(streamer: string, n: number): void {
		const before = this.ownReadsBy.get(streamer) ?? 0;
		const after = before + n;
		this.ownReads += n;
		if (after > 0) this.ownReadsBy.set(streamer, after);
		else this.ownReadsBy.delete(streamer);
		if (!this.others.readsBy.has(streamer)) this.ownOnly += Number(after > 0) - Number(before > 0);
	}

	private second(now: number): Second {
		const at = Math.floor(now / 1000);
		const last = this.seconds.at(-1);
		if (last?.at === at) return last;
		const s: Second = { at, claims: 0, reads: new Map() };
		this.seconds.push(s);
		return s;
	}

	/** Forgets the seconds that left the window. */
	private prune(now: number): void {
		while (this.seconds.length && !inWindow(this.policy, this.seconds[0].at * 1000, now)) {
			const gone = this.seconds.shift()!;
			this.ownClaims -= gone.claims;
			for (const [streamer, n] of gone.reads) this.count(streamer, -n);
		}
	}
}
