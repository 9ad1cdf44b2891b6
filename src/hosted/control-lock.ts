// The control lock: one dock action of a streamer at a time, deployment-wide (AppOptions
// controlLock). A skip reads the queue, then skips only the tip it saw playing; two docks pressing
// at once on two instances would both see it playing and skip twice (the second skip hitting the
// next tip). Under the lock the second reads the queue after the first's skip, and answers
// "already skipped".
//
// In this process, a streamer's actions wait in line in memory, so they never hold more than one
// connection. Across instances, on a PostgreSQL server, the one in front takes a session-level
// advisory lock, `pg_advisory_lock(CONTROL_LOCK_CLASS, hashtext('control:' || streamer id))`, on a
// connection of the control pool (db.ts), and keeps that connection for the action's upstream
// calls. The action's own statements (key lookups, a token refresh) run on the other pools, so
// holders never wait for each other's connections. The lock is freed when the action ends, however
// it ends; a connection whose unlock failed is closed, which frees it too, and so does the death
// of the instance. Waiting is bounded (CONTROL_LOCK_WAIT_MS): then the dock is told to try again,
// and nothing was done.
//
// On PGlite (embedded: one process) the line in memory is the whole lock.
import type { PoolClient } from 'pg';
import { KeyedLine } from '../core/keyed-line.ts';
import { HttpError } from '../server/http-error.ts';
import { controlPool, type Db } from './db.ts';

/** The advisory lock class of dock actions (the refresh lock's is locks.ts LOCK_CLASS). */
export const CONTROL_LOCK_CLASS = 0x646f63;

const busy = () =>
	new HttpError(
		503,
		'upstream_unavailable',
		'another action on your queues is still running (or the database did not answer): try again'
	);

class ControlLocks {
	/** Each streamer's actions in line, in this process. */
	private readonly line = new KeyedLine();

	constructor(private readonly db: Db) {}

	/** Runs `action` as the streamer's only dock action, deployment-wide; its result or error. */
	run<T>(streamerId: string, action: () => Promise<T>): Promise<T> {
		return this.line.run(streamerId, () => {
			const pool = controlPool(this.db);
			return pool ? this.advisory(pool, streamerId, action) : action();
		});
	}

	private async advisory<T>(
		pool: NonNullable<ReturnType<typeof controlPool>>,
		streamerId: string,
		action: () => Promise<T>
	): Promise<T> {
		let conn: PoolClient;
		try {
			conn = await pool.connect();
		} catch {
			throw busy();
		}
		const key = `control:${streamerId}`;
		// Set: the connection is closed instead of going back to the pool, so no lock outlives it.
		let broken: Error | undefined;
		try {
			try {
				// Waits for another instance's action; statement_timeout bounds the wait.
				await conn.query('select pg_advisory_lock($1, hashtext($2))', [CONTROL_LOCK_CLASS, key]);
			} catch (err) {
				broken = err instanceof Error ? err : new Error(String(err));
				throw busy();
			}
			try {
				return await action();
			} finally {
				await conn
					.query('select pg_advisory_unlock($1, hashtext($2))', [CONTROL_LOCK_CLASS, key])
					.catch((err: Error) => (broken = err));
			}
		} finally {
			conn.release(broken);
		}
	}
}

const perDatabase = new WeakMap<Db, ControlLocks>();

/** The control locks of one database handle: every store on it in this process shares them. */
export function controlLocks(db: Db): ControlLocks {
	let locks = perDatabase.get(db);
	if (!locks) perDatabase.set(db, (locks = new ControlLocks(db)));
	return locks;
}
