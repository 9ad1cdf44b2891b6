// The lock that lets one refresh at a time, deployment-wide, refresh a given streamer's token
// (docs/hosted.md): each refresh rotates the refresh token, so two at once would use one token
// twice and the upstream would revoke the authorization.
//
// On a PostgreSQL server it is a session-level advisory lock, taken with pg_try_advisory_lock on a
// connection of the lock pool (db.ts). That connection then runs every statement of the refresh
// (the "refreshing" mark, the rotated token). They autocommit, so the mark is stored before the
// upstream is called (a transaction would be rolled back if the instance died). The server frees
// the lock as soon as the holder's connection ends, even when the instance is killed. The holder's
// last statement (writing the rotated token) can free it too (`HeldLock`), saving a round trip.
//
// Only the holder keeps a connection. A refresh that finds the lock taken (by another instance, or
// by this one) gives its connection back at once and waits without one: now and then it checks
// whether the holder has already stored the refreshed token (`checkStored`, a short query on the
// query pool), and tries the lock again. So it uses the holder's result as soon as it is stored,
// and takes the lock itself if the holder died (it then finds the dead holder's mark). Blocking in
// pg_advisory_lock instead would hold a connection per waiting refresh for as long as the holder
// waits for the upstream; when many tokens expire at once (the "refresh storm" of
// docs/performance.md) none would be left for the requests' overlay key lookups.
//
// The lock pool has LOCK_POOL_MAX connections. Refreshes waiting for one are served by deadline,
// the moment the token in hand expires (`due`), not by arrival: a refresh that a call waits for
// (its token has expired) goes before refreshes started ahead of expiry, whose calls meanwhile use
// the old token. A refresh queued there for more than 200 ms also checks for a stored result,
// every 250 to 500 ms; the checks of all queued refreshes of the process run at the same moments,
// so grant-reads.ts reads their rows in one query. In a storm each instance queues a refresh per
// streamer, and another instance has made most of them by the time a connection comes free:
// without these checks the queue would drain only one lock attempt at a time.
//
// On PGlite (embedded: one process, one connection) the lock is in memory and the statements run
// on the shared connection; holding that connection across an upstream call would stall the rest.
import { sql, type RawBuilder } from 'kysely';
import { embedded, lockDatabase, LOCK_POOL_MAX, LOCK_STATEMENT_TIMEOUT_MS, type Db } from './db.ts';
import { KeyedLine } from '../core/keyed-line.ts';
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

/** Between two attempts at a lock another holds: from 20 ms, doubling, at most 250 ms. */
const retryDelay = (attempt: number) =>
	Math.min(250, 20 * 2 ** attempt) * (0.75 + Math.random() / 2);

/**
 * Queued for a connection of the lock pool, a refresh checks for a stored result at the process's
 * next check time: one every 250 to 500 ms while any refresh is queued, once it has waited 200 ms
 * (a short wait is not worth a read). The checks due at one check time run together, so the store
 * reads their rows in one query (grant-reads.ts).
 */
const QUEUED_CHECK_INTERVAL_MS = 250;
const QUEUED_CHECK_AFTER_MS = 200;

/** A place in the queue for a connection of the lock pool (`queueForTurn`). */
interface QueuePlace {
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

/** What the refreshes of this process are doing at their locks now (/metrics). */
export interface LockStats {
	/** Waiting for a connection of the lock pool (to try the lock). */
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

/** One refresh counted in a state of LockStats until `end()` (which uncounts it once only). */
interface Counted {
	end(): void;
}

export class RefreshLocks {
	/** Every refresh in progress, at its lock or waiting for it (`settled`). */
	private readonly running = new Set<Promise<unknown>>();
	/** On PGlite: each key's refreshes in line (`inMemory`). */
	private readonly memoryLine = new KeyedLine();
	/** Changed only through `count` and `during`, which always undo what they add. */
	readonly current: LockStats = { connecting: 0, waiting: 0, holding: 0 };
	readonly totals: LockTotals = {
		contended: 0,
		waitSeconds: 0,
		waitCount: 0,
		heldSeconds: 0,
		heldCount: 0
	};

	/** Refreshes waiting for a connection of the lock pool, soonest deadline first. */
	private readonly queue: QueuePlace[] = [];
	/** Refreshes using or about to use a connection of the lock pool (at most LOCK_POOL_MAX). */
	private inUse = 0;
	/** The next moment queued refreshes check for a stored result, while one waits for it. */
	private nextCheck: Promise<'check'> | null = null;

	constructor(private readonly db: Db) {}

	/**
	 * Runs `fn` holding `key`'s lock, with the database handle to use while holding it and, on a
	 * server, the lock (null on PGlite). `checkStored`, if given, checks without the lock whether
	 * another holder has already stored the result: a result from it (not null) is the answer and
	 * the lock is not taken. It does not run before the first attempt (the callers have just read
	 * the same row, and in a storm every refresh would read it twice on the query pool); it runs
	 * after the lock was found taken, before each new attempt, and while the first attempt waits in
	 * the queue for a connection (`checkStoredWhileQueued`). `due` (epoch ms): when the caller's
	 * token expires (0: it has none, or the upstream refused it); a connection of the lock pool goes
	 * to the soonest.
	 */
	run<T>(
		key: string,
		fn: (db: Db, lock: HeldLock | null) => Promise<T>,
		checkStored?: () => Promise<T | null>,
		due = 0
	): Promise<T> {
		const p = embedded(this.db) ? this.inMemory(key, fn) : this.advisory(key, fn, checkStored, due);
		this.running.add(p);
		void p.then(
			() => this.running.delete(p),
			() => this.running.delete(p)
		);
		return p;
	}

	/** Resolves once no refresh holds or waits for a lock (a graceful shutdown waits for it). */
	async settled(): Promise<void> {
		while (this.running.size) await Promise.allSettled([...this.running]);
	}

	/** Counts one refresh in `state` until the returned `end()`; a second `end()` does nothing. */
	private count(state: keyof LockStats): Counted {
		this.current[state] += 1;
		let counted = true;
		return {
			end: () => {
				if (!counted) return;
				counted = false;
				this.current[state] -= 1;
			}
		};
	}

	/** Runs `fn`, counting one refresh in `state` for as long as it runs, however it ends. */
	private async during<T>(state: keyof LockStats, fn: () => Promise<T>): Promise<T> {
		const counted = this.count(state);
		try {
			return await fn();
		} finally {
			counted.end();
		}
	}

	/** Adds the time from `asked` to now to the wait totals. */
	private recordWait(asked: number): void {
		this.totals.waitSeconds += (performance.now() - asked) / 1000;
		this.totals.waitCount += 1;
	}

	/**
	 * A turn at a connection of the lock pool: at once (null) while fewer than LOCK_POOL_MAX
	 * refreshes have one, else a place in the queue whose turn comes when one ends (`endTurn`),
	 * soonest `due` first, in arrival order among equals. Either way the caller gives it back with
	 * `leaveQueue`.
	 */
	private queueForTurn(due: number): QueuePlace | null {
		if (this.inUse < LOCK_POOL_MAX) {
			this.inUse += 1;
			return null;
		}
		let go!: () => void;
		const ready = new Promise<void>((r) => (go = r));
		const place = { due, go, ready };
		let i = this.queue.length;
		while (i > 0 && this.queue[i - 1].due > due) i -= 1;
		this.queue.splice(i, 0, place);
		return place;
	}

	/** Gives up a place in the queue, or the turn if it came (null: the turn was given at once). */
	private leaveQueue(place: QueuePlace | null): void {
		const i = place ? this.queue.indexOf(place) : -1;
		if (i >= 0) this.queue.splice(i, 1);
		else this.endTurn();
	}

	/** A turn ended: the next in the queue takes it over. */
	private endTurn(): void {
		const next = this.queue.shift();
		if (next) next.go();
		else this.inUse -= 1;
	}

	/**
	 * Queued for a connection, the refresh checks for a stored result now and then: in a storm the
	 * queue can be seconds long, and the refresh it waits to make has often been made meanwhile by
	 * another instance. Null: the turn came first.
	 */
	private async checkStoredWhileQueued<T>(
		place: QueuePlace,
		checkStored: () => Promise<T | null>
	): Promise<T | null> {
		const queued = performance.now();
		const turn = place.ready.then(() => 'turn' as const);
		for (;;) {
			const woke = await Promise.race([turn, this.nextCheckTime()]);
			if (woke === 'turn') return null;
			if (performance.now() - queued < QUEUED_CHECK_AFTER_MS) continue;
			const stored = await checkStored();
			if (stored !== null) return stored;
		}
	}

	/** Resolves at the next check time; no timer runs while no refresh waits for one. */
	private nextCheckTime(): Promise<'check'> {
		return (this.nextCheck ??= new Promise((resolve) => {
			const timer = setTimeout(
				() => {
					this.nextCheck = null;
					resolve('check');
				},
				QUEUED_CHECK_INTERVAL_MS * (1 + Math.random())
			);
			timer.unref?.();
		}));
	}

	private async advisory<T>(
		key: string,
		fn: (db: Db, lock: HeldLock) => Promise<T>,
		checkStored: (() => Promise<T | null>) | undefined,
		due: number
	): Promise<T> {
		const deadline = Date.now() + LOCK_WAIT_MS;
		const asked = performance.now();
		for (let attempt = 0; ; attempt++) {
			// The caller has just read the row (oauth-tokens.ts credential): the first try is the lock.
			const stored = checkStored && attempt > 0 ? await checkStored() : null;
			if (stored !== null) {
				this.recordWait(asked);
				return stored;
			}
			const got = await this.attempt(key, fn, checkStored, due, asked);
			if (got) return got.value;
			if (attempt === 0) this.totals.contended += 1;
			if (Date.now() > deadline)
				throw new LockWaitTimeout(
					`another refresh of this streamer held its lock for more than ${LOCK_WAIT_MS / 1000} s`
				);
			await this.during('waiting', () => new Promise((r) => setTimeout(r, retryDelay(attempt))));
		}
	}

	/**
	 * One attempt at `key`'s lock: a turn at a connection of the lock pool (queued, checking for a
	 * stored result meanwhile), then pg_try_advisory_lock on it. The value: `fn`'s, or a stored
	 * result found while queued; null: another holds the lock.
	 */
	private async attempt<T>(
		key: string,
		fn: (db: Db, lock: HeldLock) => Promise<T>,
		checkStored: (() => Promise<T | null>) | undefined,
		due: number,
		asked: number
	): Promise<{ value: T } | null> {
		const connecting = this.count('connecting');
		const place = this.queueForTurn(due);
		try {
			if (place) {
				const stored = checkStored
					? await this.checkStoredWhileQueued(place, checkStored)
					: (await place.ready, null);
				if (stored !== null) {
					this.recordWait(asked);
					return { value: stored };
				}
			}
			return await (lockDatabase(this.db) ?? this.db).connection().execute((conn) => {
				connecting.end();
				return this.holdIfFree(conn, key, fn, asked);
			});
		} finally {
			connecting.end();
			this.leaveQueue(place);
		}
	}

	/** Takes `key`'s lock on `conn` if it is free, and runs `fn` holding it; null: it was taken. */
	private async holdIfFree<T>(
		conn: Db,
		key: string,
		fn: (db: Db, lock: HeldLock) => Promise<T>,
		asked: number
	): Promise<{ value: T } | null> {
		const { rows } = await sql<{
			locked: boolean;
		}>`select pg_try_advisory_lock(${LOCK_CLASS}, hashtext(${key})) as locked`.execute(conn);
		if (!rows[0]?.locked) return null;
		this.recordWait(asked);
		const since = performance.now();
		let free = false;
		const lock: HeldLock = {
			release: sql`case when pg_try_advisory_xact_lock(${LOCK_CLASS}, hashtext(${key}))
				then pg_advisory_unlock(${LOCK_CLASS}, hashtext(${key})) end`,
			released: () => (free = true)
		};
		try {
			return { value: await this.during('holding', () => fn(conn, lock)) };
		} finally {
			this.totals.heldSeconds += (performance.now() - since) / 1000;
			this.totals.heldCount += 1;
			// Fails only with a broken connection, whose end frees the lock anyway. After a failed
			// statement that selected `release` it may find the lock already freed: the server then
			// only warns.
			if (!free)
				await sql`select pg_advisory_unlock(${LOCK_CLASS}, hashtext(${key}))`
					.execute(conn)
					.catch(() => {});
		}
	}

	private inMemory<T>(key: string, fn: (db: Db, lock: null) => Promise<T>): Promise<T> {
		// No check for a stored result while waiting: `fn` reads the row first thing, on the same
		// one connection.
		return this.memoryLine.run(key, () => this.during('holding', () => fn(this.db, null)));
	}
}

const perDatabase = new WeakMap<Db, RefreshLocks>();

/** The locks of one database handle: every store on it in this process shares them. */
export function refreshLocks(db: Db): RefreshLocks {
	let locks = perDatabase.get(db);
	if (!locks) perDatabase.set(db, (locks = new RefreshLocks(db)));
	return locks;
}
