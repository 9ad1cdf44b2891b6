// The deployment-wide lock around one streamer's token refresh (docs/hosted.md). On a PostgreSQL
// server: a session-level advisory lock taken on one pooled connection, which then carries every
// statement of the refresh (the mark, the rotated token). They autocommit, so the mark is durable
// before the upstream call (a transaction would roll it back with a dying instance), and a refresh
// needs one connection only: refreshes waiting for locks can exhaust the pool, never deadlock it.
// The server frees the lock the moment the holder's connection ends, an instance killed included.
// On PGlite (embedded: one process, one connection) the lock is in memory and the statements run
// on the shared connection; holding that connection across an upstream call would stall the rest.
import { sql } from 'kysely';
import { embedded, type Db } from './db.ts';

/** The advisory lock class of token refreshes (the second key is the hash of the streamer id). */
const LOCK_CLASS = 0x746f6b;

export class RefreshLocks {
	private readonly held = new Set<Promise<unknown>>();
	private readonly local = new Map<string, Promise<unknown>>();

	constructor(private readonly db: Db) {}

	/** Runs `fn` holding `key`'s lock, with the database handle to use while holding it. */
	run<T>(key: string, fn: (db: Db) => Promise<T>): Promise<T> {
		const p = embedded(this.db) ? this.inMemory(key, fn) : this.advisory(key, fn);
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

	private advisory<T>(key: string, fn: (db: Db) => Promise<T>): Promise<T> {
		return this.db.connection().execute(async (conn) => {
			await sql`select pg_advisory_lock(${LOCK_CLASS}, hashtext(${key}))`.execute(conn);
			try {
				return await fn(conn);
			} finally {
				// Fails only with a broken connection, whose end frees the lock anyway.
				await sql`select pg_advisory_unlock(${LOCK_CLASS}, hashtext(${key}))`
					.execute(conn)
					.catch(() => {});
			}
		});
	}

	private async inMemory<T>(key: string, fn: (db: Db) => Promise<T>): Promise<T> {
		const before = this.local.get(key);
		let release!: () => void;
		const mine = new Promise<void>((resolve) => (release = resolve));
		this.local.set(key, mine);
		await before;
		try {
			return await fn(this.db);
		} finally {
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
