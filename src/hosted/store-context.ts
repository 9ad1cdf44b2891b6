// What every part of the hosted store works with. store.ts builds one of these and hands the same
// one to each part (streamers, grants, overlay keys, sessions, sign-in attempts), so they all use
// one database handle, one secret box (the encryption of what they store, crypto.ts) and one clock.
import type { Insertable, Kysely } from 'kysely';
import type { SecretBox } from './crypto.ts';
import type { Database, Db } from './db.ts';
import type { HeldLock } from './locks.ts';

export interface StoreContext {
	/** The database, or the connection of a refresh holding its lock (store.ts refreshLock). */
	readonly db: Db;
	readonly box: SecretBox;
	readonly now: () => Date;
	/** The lock held on `db` by a refresh, on a PostgreSQL server; null everywhere else. */
	readonly lock: HeldLock | null;
	/**
	 * Within the transaction `tx` that turns a key of the streamer off: tells every instance once
	 * it commits (push-channel.ts announceKeys), so none serves it from memory any more
	 * (key-cache.ts). Set by serve.ts; absent, nobody keeps keys in memory.
	 */
	announceKeys?: (tx: Db, streamerId: string) => Promise<void>;
}

/** The tables of short-lived rows (sessions.ts, sign-in-attempts.ts): each row has an expiry. */
type ExpiringTable = 'sessions' | 'sign_in_attempts';

/**
 * Adds a short-lived row that expires `ttlMs` from now. The table's expired rows are deleted first,
 * so that it holds hardly more than the live ones.
 */
export async function addExpiring<T extends ExpiringTable>(
	ctx: StoreContext,
	table: T,
	row: Omit<Insertable<Database[T]>, 'expires_at'>,
	ttlMs: number
): Promise<void> {
	// kysely types a statement for one named table; these are typed for what the two have alike.
	const db = ctx.db as unknown as Kysely<{
		expiring: { expires_at: Date; [column: string]: unknown };
	}>;
	const name = table as 'expiring';
	const now = ctx.now();
	await db.deleteFrom(name).where('expires_at', '<=', now).execute();
	await db
		.insertInto(name)
		.values({ ...row, expires_at: new Date(now.getTime() + ttlMs) })
		.execute();
}
