// Which instance holds each signed-in streamer's intake (docs/hosted.md, the intake's lease): a row
// of `intake_leases` per streamer (migration 013), held by one instance until `expires_at` unless
// it renews it, its `epoch` counting the holders so that a holder that lost it can write nothing
// more. Every time is the database's (now()), so the instances' clocks do not matter. Each
// instance says it is alive in `intake_instances`, so that each takes its share of the streamers.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from './db.ts';

/** A lease this instance holds: the streamer and the holder's epoch. */
export interface Lease {
	streamer: string;
	epoch: number;
}

export interface LeaseTimes {
	/** How long a lease lasts unless renewed (ms): how long a dead holder keeps it at most. */
	ttlMs: number;
	/**
	 * How long an instance counts as alive after it last said so (ms): shorter than a lease, so
	 * that a dead holder has stopped counting by the time its leases expire, and the survivors'
	 * shares have room for them.
	 */
	aliveMs: number;
	/**
	 * How long an instance whose database session has ended may go unseen before it counts as dead
	 * at once, its leases anybody's (ms): a little over a tick, so that a live instance whose lease
	 * connection was replaced has renewed, and locked again, by then.
	 */
	deadMs: number;
}

/**
 * The advisory lock each instance holds on its lease connection while it lives (the first key; the
 * second is of its id): a session that ends (the process killed, SIGKILL) lets it go at once, so
 * the others need not wait for its leases to expire. PGlite: one session for every instance, whose
 * locks never go; there the leases' expiry alone decides.
 */
const ALIVE_LOCK = sql.lit(6778);
const lockKey = (id: RawBuilder<unknown>) => sql`(hashtext(${id}) & 2147483647)`;
/** The instance `i` has not been seen for `dead` and holds its lock no more. */
const deadInstance = (dead: string) => sql`i.seen_at < now() - ${dead}::interval
	and not exists (select 1 from pg_locks k where k.locktype = 'advisory' and k.granted
		and k.classid = ${ALIVE_LOCK} and k.objid = ${lockKey(sql.ref('i.id'))}::oid and k.objsubid = 2)`;

export class IntakeLeases {
	constructor(
		private readonly db: Db,
		/** This instance's id (random per start). */
		readonly me: string,
		private readonly times: LeaseTimes
	) {}

	/**
	 * Says this instance is alive, and renews every lease it holds of a streamer still signed in
	 * (the others' are given up). Returns the leases held now and how many instances are alive.
	 */
	async renew(): Promise<{ held: Lease[]; instances: number; streamers: number }> {
		const ttl = `${this.times.ttlMs} milliseconds`;
		const alive = `${this.times.aliveMs} milliseconds`;
		const dead = `${this.times.deadMs} milliseconds`;
		return this.db.transaction().execute(async (tx) => {
			await sql`insert into intake_instances (id, seen_at) values (${this.me}, now())
				on conflict (id) do update set seen_at = now()`.execute(tx);
			// Locked once per session (a lock taken again would only count up).
			const key = lockKey(sql`${this.me}::text`);
			await sql`select pg_try_advisory_lock(${ALIVE_LOCK}, ${key}) where not exists (
				select 1 from pg_locks k where k.locktype = 'advisory' and k.pid = pg_backend_pid()
					and k.classid = ${ALIVE_LOCK} and k.objid = ${key}::oid and k.objsubid = 2)`.execute(tx);
			// Instances gone long ago (their rows stay after a kill) are forgotten.
			await sql`delete from intake_instances where seen_at < now() - interval '1 hour'`.execute(tx);
			await sql`delete from intake_leases l using streamers s
				where l.holder = ${this.me} and s.id = l.streamer_id and s.status <> 'connected'`.execute(tx);
			const held = await sql<{ streamer_id: string; epoch: string }>`
				update intake_leases set expires_at = now() + ${ttl}::interval
				where holder = ${this.me} and expires_at > now()
				returning streamer_id, epoch`.execute(tx);
			const counts = await sql<{ instances: string; streamers: string }>`
				select
					(select count(*) from intake_instances i
						where i.seen_at > now() - ${alive}::interval
							and not (${deadInstance(dead)})) as instances,
					(select count(*) from streamers where status = 'connected') as streamers`.execute(tx);
			return {
				held: held.rows.map((r) => ({ streamer: r.streamer_id, epoch: Number(r.epoch) })),
				instances: Math.max(1, Number(counts.rows[0].instances)),
				streamers: Number(counts.rows[0].streamers)
			};
		});
	}

	/**
	 * Takes, `room` at most, the leases of signed-in streamers that expired (their holder died, was
	 * cut off, or gave them up; a dead holder's at once, deadInstance; those this instance held
	 * itself only once they have been expired for a TTL, so that the others take what it gave up
	 * first, and an instance alone still takes back what it let expire) and of those no instance holds yet, in an order of this instance's
	 * own, so that instances taking at once mostly take different ones. The upsert's condition
	 * decides a race: of two instances taking one lease, one gets it.
	 */
	async take(room: number): Promise<Lease[]> {
		const ttl = `${this.times.ttlMs} milliseconds`;
		const dead = `${this.times.deadMs} milliseconds`;
		// A dead holder's leases expire now (its intakes stopped with its process).
		await sql`update intake_leases set expires_at = now() where expires_at > now()
			and holder in (select i.id from intake_instances i where ${deadInstance(dead)})`.execute(this.db);
		const { rows } = await sql<{ streamer_id: string; epoch: string }>`
			with expired as (
				select l.streamer_id as id from intake_leases l
				join streamers s on s.id = l.streamer_id and s.status = 'connected'
				where l.expires_at <= now()
					and (l.holder <> ${this.me} or l.expires_at <= now() - ${ttl}::interval)
			), unheld as (
				select s.id from streamers s
				where s.status = 'connected'
					and not exists (select 1 from intake_leases l where l.streamer_id = s.id)
			)
			insert into intake_leases (streamer_id, holder, epoch, expires_at)
			select id, ${this.me}, 1, now() + ${ttl}::interval
			from (
				select id from (select id from expired union select id from unheld) candidates
				order by md5(id || ${this.me}) limit ${Math.max(0, room)}
			) wanted
			on conflict (streamer_id) do update
				set holder = excluded.holder, epoch = intake_leases.epoch + 1,
					expires_at = excluded.expires_at
				where intake_leases.expires_at <= now()
			returning streamer_id, epoch`.execute(this.db);
		return rows.map((r) => ({ streamer: r.streamer_id, epoch: Number(r.epoch) }));
	}

	/**
	 * Gives up the leases of `streamers` (all of this instance's when absent): they expire now, for
	 * the other instances to take at their next tick.
	 */
	async release(streamers?: readonly string[]): Promise<void> {
		if (streamers && streamers.length === 0) return;
		await (
			streamers
				? sql`update intake_leases set expires_at = now()
				where holder = ${this.me} and streamer_id = any(${[...streamers]}::text[])`
				: sql`update intake_leases set expires_at = now() where holder = ${this.me}`
		).execute(this.db);
	}

	/** This instance stops: its leases go at once, and it no longer counts as alive. */
	async leave(): Promise<void> {
		await this.release();
		await sql`delete from intake_instances where id = ${this.me}`.execute(this.db);
	}
}
