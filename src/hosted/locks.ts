// The deployment-wide lock around one streamer's token refresh (docs/hosted.md). On a PostgreSQL
// server: a session-level advisory lock, taken with pg_try_advisory_lock on a connection of the
// locks' own pool (db.ts), which then carries every statement of the refresh (the mark, the rotated
// token). They autocommit, so the mark is durable before the upstream call (a transaction would
// roll it back with a dying instance). The server frees the lock the moment the holder's
// connection ends, an instance killed included. The holder's last statement (the rotated token's
// write) can free it too (`HeldLock`), which saves the hold a round trip of its own.
//
// Only a holder has a connection. A refresh that finds the lock taken (another instance, or this
// one, is refreshing the streamer) gives its connection back at once and waits without one: it
// looks at the stored result now and then (`peek`, a short query on the queries' pool) and tries
// the lock again, so it uses the holder's result as soon as it is stored, and takes the lock itself
// if the holder died (then finds its mark). Blocking in pg_advisory_lock instead would hold a
// pooled connection per waiter for as long as the holder's upstream call, and a storm of refreshes
// would leave none for the requests' key lookups (docs/performance.md, the refresh storm).
//
// Refreshes that wait for a connection of the locks' pool go in order of their deadline, the
// moment the token in hand expires (`due`), not in order of arrival: in a storm, a refresh that a
// call waits for (its token has expired) goes before the refreshes started ahead of expiry, whose
// calls still use the old token meanwhile. One that waits there longer than 200 ms looks at the
// stored result on the process's beat (`peek`; the looks of one beat are one query, store.ts):
// when every instance's tokens of many streamers expire at once, each instance queues a refresh
// for each of them, another instance has made most of them by the time a connection comes free,
// and without the looks the queue drains only one lock attempt at a time (docs/performance.md).
//
// On PGlite (embedded: one process, one connection) the lock is in memory and the statements run
// on the shared connection; holding that connection across an upstream call would stall the rest.
import { sql, type RawBuilder } from 'kysely';
import { embedded, lockDatabase, LOCK_POOL_MAX, LOCK_STATEMENT_TIMEOUT_MS, type Db } from './db.ts';
import { REQUEST_TIMEOUT_MS } from '../server/oauth-http.ts';

/**
 * The advisory lock class of token refreshes; the second key is hashtext of `refresh:<streamer id>`
 * (store.ts refreshLock).
 */
export const LOCK_CLASS = 0x746f6b;

/**
 * The longest a refresh waits for another holder: a holder's time is bounded by its token request
 * (REQUEST_TIMEOUT_MS) and its statements (LOCK_STATEMENT_TIMEOUT_MS, the mark and the write).
 */
export const LOCK_WAIT_MS = REQUEST_TIMEOUT_MS + 2 * LOCK_STATEMENT_TIMEOUT_MS;

/** Between two looks at another holder's result: from 20 ms, doubling, at most 250 ms. */
const pollDelay = (attempt: number) =>
	Math.min(250, 20 * 2 ** attempt) * (0.75 + Math.random() / 2);

/**
 * Queued for a connection of the locks' pool, a refresh looks at the stored result on this
 * process's beat, one every 250 to 500 ms while any refresh is queued, once it has waited 200 ms (a
 * short wait is not worth a read). The looks of one beat run together, so the store reads their
 * rows in one query (store.ts streamerAndGrant).
 */
const BEAT_MS = 250;
const QUEUED_LOOK_AFTER_MS = 200;

/** A place in the queue for a connection of the locks' pool (`gate`). */
interface Ticket {
	due: number;
	go: () => void;
	/** Resolves when the turn is ours. */
	ready: Promise<void>;
}

export class LockWaitTimeout extends Error {}

/** A lock held on a PostgreSQL server, which the holder's last statement may free. */
export interface HeldLock {
	/**
	 * Selected in a statement, frees the lock once that statement's transaction has ended. A
	 * session-level lock freed inside a statement would be free before the statement's writes are
	 * committed, and the next holder could read the row without them (and take the refresh's mark
	 * for a dead holder's); so the lock is first taken again at transaction level, which the server
	 * frees only after the commit (or the rollback).
	 */
	readonly release: RawBuilder<boolean | null>;
	/** The statement that selected `release` succeeded: nothing is left to unlock. */
	released(): void;
}

/** What a refresh of this process is doing at its lock now (/metrics). */
export interface LockStats {
	/** Waiting for a connection of the locks' pool (to try the lock). */
	connecting: number;
	/** The lock is another's: waiting for its result, without a connection. */
	waiting: number;
	holding: number;
}

/** Since start, for /metrics. */
export interface LockTotals {
	/** Refreshes that found the lock held by another (each once). */
	contended: number;
	/** From asking for the lock to holding it or to using a stored result (seconds, and how many). */
	waitSeconds: number;
	waitCount: number;
	/** Time holding it. */
	heldSeconds: number;
	heldCount: number;
}

export class RefreshLocks {
	private readonly held = new Set<Promise<unknown>>();
	private readonly local = new Map<string, Promise<unknown>>();
	readonly now: LockStats = { connecting: 0, waiting: 0, holding: 0 };
	readonly totals: LockTotals = {
		contended: 0,
		waitSeconds: 0,
		waitCount: 0,
		heldSeconds: 0,
		heldCount: 0
	};

	/** Refreshes waiting for a connection of the locks' pool, soonest deadline first (`gate`). */
	private readonly queue: Ticket[] = [];
	/** Refreshes using or about to use a connection of the locks' pool (at most LOCK_POOL_MAX). */
	private inUse = 0;
	/** The next beat of the queued refreshes' looks, while one waits for it (`lookWhileQueued`). */
	private beat: Promise<'look'> | null = null;

	constructor(private readonly db: Db) {}

	/**
	 * Runs `fn` holding `key`'s lock, with the database handle to use while holding it and, on a
	 * server, the lock (null on PGlite). `peek`, if given, runs without the lock after the lock was
	 * found taken, before the next attempt: a result from it (not null) is the answer and the lock
	 * is not taken (another holder's stored result). It does not run before the first attempt: the
	 * callers have just read the same row, and a storm of refreshes would read it twice for each on
	 * the queries' pool; it does run while the first attempt waits in the queue for a connection
	 * (`lookWhileQueued`). `due` (epoch ms): when the caller's token expires (0: it has none, or the
	 * upstream refused it); a connection of the locks' pool goes to the soonest.
	 */
	run<T>(
		key: string,
		fn: (db: Db, lock: HeldLock | null) => Promise<T>,
		peek?: () => Promise<T | null>,
		due = 0
	): Promise<T> {
		const p = embedded(this.db) ? this.inMemory(key, fn) : this.advisory(key, fn, peek, due);
		this.held.add(p);
		void p.then(
			() => this.held.delete(p),
			() => this.held.delete(p)
		);
		return p;
	}

	/** Resolves once no refresh holds or waits for a lock (a graceful shutdown waits for it). */
	async settled(): Promise<void> {
		while (this.held.size) await Promise.allSettled([...this.held]);
	}

	/**
	 * A turn at a connection of the locks' pool: at once (null) while fewer than LOCK_POOL_MAX
	 * refreshes have one, else a place in the queue whose turn comes when one ends (`ungate`),
	 * soonest `due` first, in arrival order among equals.
	 */
	private gate(due: number): Ticket | null {
		if (this.inUse < LOCK_POOL_MAX) {
			this.inUse += 1;
			return null;
		}
		let go!: () => void;
		const ready = new Promise<void>((r) => (go = r));
		const ticket = { due, go, ready };
		let i = this.queue.length;
		while (i > 0 && this.queue[i - 1].due > due) i -= 1;
		this.queue.splice(i, 0, ticket);
		return ticket;
	}

	/** Gives up a place in the queue, or the turn if it came meanwhile. */
	private leave(ticket: Ticket): void {
		const i = this.queue.indexOf(ticket);
		if (i >= 0) this.queue.splice(i, 1);
		else this.ungate();
	}

	/**
	 * Queued for a connection, the refresh looks at the stored result now and then: in a storm the
	 * queue can be seconds long, and the refresh it waits to make has often been made meanwhile by
	 * another instance. A result found gives the place up (null: the turn came first).
	 */
	private async lookWhileQueued<T>(
		ticket: Ticket,
		peek: () => Promise<T | null>
	): Promise<T | null> {
		const queued = performance.now();
		const turn = ticket.ready.then(() => 'turn' as const);
		for (;;) {
			const woke = await Promise.race([turn, this.nextBeat()]);
			if (woke === 'turn') return null;
			if (performance.now() - queued < QUEUED_LOOK_AFTER_MS) continue;
			let seen: T | null;
			try {
				seen = await peek();
			} catch (err) {
				this.leave(ticket);
				throw err;
			}
			if (seen !== null) {
				this.leave(ticket);
				return seen;
			}
		}
	}

	/** Resolves on the next beat; no timer runs while no refresh waits for one. */
	private nextBeat(): Promise<'look'> {
		return (this.beat ??= new Promise((resolve) => {
			const timer = setTimeout(
				() => {
					this.beat = null;
					resolve('look');
				},
				BEAT_MS * (1 + Math.random())
			);
			timer.unref?.();
		}));
	}

	/** A turn ended: the next in the queue takes it over. */
	private ungate(): void {
		const next = this.queue.shift();
		if (next) next.go();
		else this.inUse -= 1;
	}

	private async advisory<T>(
		key: string,
		fn: (db: Db, lock: HeldLock) => Promise<T>,
		peek: (() => Promise<T | null>) | undefined,
		due: number
	): Promise<T> {
		const lockDb = lockDatabase(this.db) ?? this.db;
		const deadline = Date.now() + LOCK_WAIT_MS;
		const asked = performance.now();
		const waited = () => {
			this.totals.waitSeconds += (performance.now() - asked) / 1000;
			this.totals.waitCount += 1;
		};
		for (let attempt = 0; ; attempt++) {
			// The caller has just looked (oauth-client.ts credential): the first look is the lock.
			const seen = peek && attempt > 0 ? await peek() : null;
			if (seen !== null) {
				waited();
				return seen;
			}
			this.now.connecting += 1;
			let connecting = true;
			const ticket = this.gate(due);
			if (ticket) {
				let seen: T | null;
				try {
					seen = peek ? await this.lookWhileQueued(ticket, peek) : (await ticket.ready, null);
				} catch (err) {
					this.now.connecting -= 1;
					throw err;
				}
				if (seen !== null) {
					this.now.connecting -= 1;
					waited();
					return seen;
				}
			}
			const got = await lockDb
				.connection()
				.execute(async (conn) => {
					this.now.connecting -= 1;
					connecting = false;
					const { rows } = await sql<{
						locked: boolean;
					}>`select pg_try_advisory_lock(${LOCK_CLASS}, hashtext(${key})) as locked`.execute(conn);
					if (!rows[0]?.locked) return null;
					waited();
					this.now.holding += 1;
					const since = performance.now();
					let free = false;
					const lock: HeldLock = {
						release: sql`case when pg_try_advisory_xact_lock(${LOCK_CLASS}, hashtext(${key}))
							then pg_advisory_unlock(${LOCK_CLASS}, hashtext(${key})) end`,
						released: () => (free = true)
					};
					try {
						return { value: await fn(conn, lock) };
					} finally {
						this.now.holding -= 1;
						this.totals.heldSeconds += (performance.now() - since) / 1000;
						this.totals.heldCount += 1;
						// Fails only with a broken connection, whose end frees the lock anyway. After
						// a failed statement that selected `release` it may find the lock already
						// freed: the server then only warns.
						if (!free)
							await sql`select pg_advisory_unlock(${LOCK_CLASS}, hashtext(${key}))`
								.execute(conn)
								.catch(() => {});
					}
				})
				.finally(() => {
					this.ungate();
					if (connecting) this.now.connecting -= 1;
				});
			if (got) return got.value;
			if (attempt === 0) this.totals.contended += 1;
			if (Date.now() > deadline)
				throw new LockWaitTimeout(
					`another refresh of this streamer held its lock for more than ${LOCK_WAIT_MS / 1000} s`
				);
			this.now.waiting += 1;
			await new Promise((r) => setTimeout(r, pollDelay(attempt)));
			this.now.waiting -= 1;
		}
	}

	private async inMemory<T>(key: string, fn: (db: Db, lock: null) => Promise<T>): Promise<T> {
		const before = this.local.get(key);
		let release!: () => void;
		const mine = new Promise<void>((resolve) => (release = resolve));
		this.local.set(key, mine);
		// No look at the row while waiting: `fn` reads it first thing, on the same one connection.
		await before;
		this.now.holding += 1;
		try {
			return await fn(this.db, null);
		} finally {
			this.now.holding -= 1;
			release();
			if (this.local.get(key) === mine) this.local.delete(key);
		}
	}
}

const perDatabase = new WeakMap<Db, RefreshLocks>();

/** The locks of one database handle: every store on it in this process shares them. */
export function refreshLocks(db: Db): RefreshLocks {
	let locks = perDatabase.get(db);
	if (!locks) perDatabase.set(db, (locks = new RefreshLocks(db)));
	return locks;
}
