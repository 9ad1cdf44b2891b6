// The calling address's budget across hosted instances (the rules: src/core/address-share.ts).
// Every instance that calls the upstream from one address (UPSTREAM_LOCAL_ADDRESS, or the
// machine's own: `default`) writes what it sent, by second and streamer, to `upstream_calls`, and
// reads what the others sent in the window. A sync is one write of the seconds that changed and one
// read of the others' sums; it runs once at start, at most every SYNC_MS while this instance sends,
// and at a read when the last one is older than STALE_MS. An idle instance writes and reads nothing.
//
// Claims never wait for a sync, nor do reads while this instance's part of the room left at the last
// sync lasts; past it, a read waits for the next sync that shows room. A restarted instance comes
// back with a new id, and the rows of its previous run still count until they leave the window:
// nothing it sent is forgotten.
//
// One clock for the deployment: the database's. The instances' own clocks may differ by seconds,
// so the seconds in `upstream_calls` are the database's: each sync's read asks for the database's
// now() with the others' sums (the window is cut by it, in the query), and this instance counts its
// own calls by its clock plus the offset that read measured. The offset is taken from the read with
// the shortest round trip lately (an error of at most half of it); the time counted never runs
// backwards, so a second once written keeps its row.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
	AddressShare,
	type AddressPolicy,
	type AddressSnapshot,
	type OthersSpend
} from '../core/address-share.ts';
import type { CallPriority } from '../core/rate-budget.ts';
import type { AddressBudget } from '../server/address-budget.ts';
import type { Db } from './db.ts';

/** The longest between two syncs while this instance sends. */
const SYNC_MS = 250;
/** A read waits for a sync when the last one is older than this. */
const STALE_MS = 1000;
/** Rows older than this many windows are deleted (by any instance, now and then). */
const KEEP_WINDOWS = 2;
/** A read whose round trip is at most this long always gives the clock's offset. */
const GOOD_TRIP_MS = 100;

/** One row of a sync's read: the database's time, and one instance's sums for one streamer. */
interface SyncRow {
	db_now: string;
	streamer_id: string | null;
	instance: string | null;
	claims: string | null;
	reads: string | null;
}

export interface AddressLedgerOptions {
	egress: string;
	now?: () => number;
	/** Where a failed sync is told (once a minute at most). */
	log?: (message: string) => void;
}

export class AddressLedger implements AddressBudget {
	readonly instance: string = randomUUID();
	private readonly share: AddressShare;
	private readonly egress: string;
	private readonly now: () => number;
	private readonly log: (message: string) => void;
	private readonly listeners: (() => void)[] = [];
	/** When the last sync read the others (ms), and when the one before wrote from. */
	private syncedAt = -Infinity;
	private writtenFrom = 0;
	private syncing: Promise<void> | null = null;
	private timer: ReturnType<typeof setTimeout> | null = null;
	private syncs = 0;
	private loggedAt = -Infinity;
	private closed = false;
	/** The database's clock less this instance's (ms), and the round trip it was measured in. */
	private offset = 0;
	private offsetTrip = Infinity;
	/** The latest database time counted: it never runs backwards. */
	private counted = -Infinity;

	constructor(
		private readonly db: Db,
		policy: AddressPolicy,
		o: AddressLedgerOptions
	) {
		this.share = new AddressShare(policy);
		this.egress = o.egress;
		this.now = o.now ?? Date.now;
		this.log = o.log ?? ((m) => console.warn(m));
	}

	/** The first sync, before the instance serves: its first read knows what the others sent. */
	start(): Promise<void> {
		return this.sync();
	}

	readAt(streamer: string, now: number): number {
		if (this.syncedAt === -Infinity) {
			void this.sync();
			return now + SYNC_MS;
		}
		// What the last sync left this instance still holds (its part of the room then); a sync now
		// brings the others' news for the reads after this one.
		if (now - this.syncedAt > STALE_MS) void this.sync();
		if (this.share.mayRead(streamer, this.dbTime(now))) return now;
		this.soon();
		return now + SYNC_MS;
	}

	spent(streamer: string, priority: CallPriority, now: number): void {
		this.share.spent(streamer, priority, this.dbTime(now));
		this.soon();
	}

	onChange(listener: () => void): void {
		this.listeners.push(listener);
	}

	instances(): number {
		return this.share.instances();
	}

	snapshot(now: number): AddressSnapshot {
		return this.share.snapshot(this.dbTime(now));
	}

	/** This instance's time `now` on the database's clock (never before the last one counted). */
	private dbTime(now: number): number {
		if (!this.measuredOnce) return now;
		this.counted = Math.max(this.counted, now + this.offset);
		return this.counted;
	}

	/** Whether a read has measured the offset yet (the first sync's, before the instance serves). */
	private get measuredOnce(): boolean {
		return this.offsetTrip !== Infinity;
	}

	/** Stops syncing (the instance drains): what it sent stays in the table for the others. */
	async close(): Promise<void> {
		this.closed = true;
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		await this.syncing;
	}

	/** A sync within SYNC_MS (one timer at most). */
	private soon(): void {
		if (this.timer || this.closed) return;
		this.timer = setTimeout(() => {
			this.timer = null;
			void this.sync();
		}, SYNC_MS);
	}

	/** Writes this instance's changed seconds and reads the others' window; one at a time. */
	private sync(): Promise<void> {
		if (this.closed) return Promise.resolve();
		this.syncing ??= this.write()
			.then(() => this.read())
			.catch((err: unknown) => {
				const now = this.now();
				if (now - this.loggedAt < 60_000) return;
				this.loggedAt = now;
				this.log(`[address budget] sync failed: ${err instanceof Error ? err.message : err}`);
			})
			.finally(() => {
				this.syncing = null;
				for (const l of this.listeners) l();
			});
		return this.syncing;
	}

	private async write(): Promise<void> {
		// Nothing is written before the database's clock is known (the first sync reads it first).
		if (!this.measuredOnce) return;
		const from = this.writtenFrom;
		this.writtenFrom = this.dbTime(this.now());
		const rows = this.share.ownSince(from).map((r) => ({
			egress: this.egress,
			second: r.second,
			instance: this.instance,
			streamer_id: r.streamer,
			claims: r.claims,
			reads: r.reads
		}));
		try {
			if (rows.length)
				// Each instance writes only its own rows, with their counts as they are now.
				await this.db
					.insertInto('upstream_calls')
					.values(rows)
					.onConflict((oc) =>
						oc.columns(['egress', 'second', 'instance', 'streamer_id']).doUpdateSet((eb) => ({
							claims: eb.ref('excluded.claims'),
							reads: eb.ref('excluded.reads')
						}))
					)
					.execute();
		} catch (err) {
			this.writtenFrom = from;
			throw err;
		}
		if (++this.syncs % 100 === 1) await this.prune();
	}

	private async read(): Promise<void> {
		const windowSeconds = this.share.policy.windowMs / 1000;
		const sent = this.now();
		// One row at least (the database's time), with the sums of the window it cuts, if any: a second
		// counts while its start is in the window (inWindow of src/core/window-limit.ts).
		const { rows } = await sql<SyncRow>`
			select (extract(epoch from t.now) * 1000)::text as db_now, c.streamer_id, c.instance,
				sum(c.claims)::text as claims, sum(c.reads)::text as reads
			from (select now() as now) t
			left join upstream_calls c on c.egress = ${this.egress}
				and c.second > floor(extract(epoch from t.now) - ${windowSeconds})
			group by t.now, c.streamer_id, c.instance`.execute(this.db);
		const received = this.now();
		this.measured(Number(rows[0].db_now), sent, received);
		const others: OthersSpend = { claims: 0, reads: 0, readsBy: new Map(), instances: 1 };
		const instances = new Set([this.instance]);
		for (const r of rows) {
			if (r.instance === null || r.streamer_id === null) continue;
			instances.add(r.instance);
			if (r.instance === this.instance) continue;
			const reads = Number(r.reads);
			others.claims += Number(r.claims);
			others.reads += reads;
			if (reads > 0)
				others.readsBy.set(r.streamer_id, (others.readsBy.get(r.streamer_id) ?? 0) + reads);
		}
		others.instances = instances.size;
		this.share.synced(others, this.dbTime(received));
		this.syncedAt = received;
	}

	/**
	 * The database's clock read at `dbNow` by a query sent at `sent` and answered at `received`
	 * (this instance's clock): the offset, kept from the read with the shortest round trip lately.
	 */
	private measured(dbNow: number, sent: number, received: number): void {
		if (!Number.isFinite(dbNow)) return;
		const trip = received - sent;
		if (trip <= GOOD_TRIP_MS || trip <= this.offsetTrip) {
			this.offset = dbNow - (sent + received) / 2;
			this.offsetTrip = trip;
			return;
		}
		// A slow answer: the kept offset stands, and the next one at least as quick replaces it.
		this.offsetTrip = trip;
	}

	private async prune(): Promise<void> {
		const keep = (KEEP_WINDOWS * this.share.policy.windowMs) / 1000;
		await this.db
			.deleteFrom('upstream_calls')
			.where('second', '<', sql<number>`floor(extract(epoch from now()) - ${keep})`)
			.execute();
	}
}
