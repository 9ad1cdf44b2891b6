// What every part of the hosted store works with. store.ts builds one of these and hands the same
// one to each part (streamers, grants, overlay keys, sessions, sign-in attempts), so they all use
// one database handle, one secret box (the encryption of what they store, crypto.ts) and one clock.
import type { SecretBox } from './crypto.ts';
import type { Db } from './db.ts';
import type { HeldLock } from './locks.ts';

export interface StoreContext {
	/** The database, or the connection of a refresh holding its lock (store.ts refreshLock). */
	readonly db: Db;
	readonly box: SecretBox;
	readonly now: () => Date;
	/** The lock held on `db` by a refresh, on a PostgreSQL server; null everywhere else. */
	readonly lock: HeldLock | null;
}
