// Everything a hosted deployment keeps per streamer, in PostgreSQL (db.ts), behind the one object
// the rest of hosted mode and the tests use. Each kind of row has a module of its own, and this
// store gives all of them the same database handle and secret box (store-context.ts):
// - streamers.ts: the streamer, and their sign-in, Reconnect and Disconnect;
// - grants.ts: their authorization (OAuth tokens, encrypted) and what a token refresh writes;
//   grant-reads.ts reads it, many streamers' in one query;
// - streamer-keys.ts: the key in their overlay URLs, and the control key of their dock URL;
// - sessions.ts: their dashboard sessions; sign-in-attempts.ts: sign-ins in progress.
// The store also runs a token refresh under the streamer's deployment-wide lock (locks.ts), with a
// store on the lock's connection, and a dock action under the streamer's control lock
// (control-lock.ts). Every query names the streamers it is for, and a read of several
// hands each caller only the row it asked for: nothing here lists or reaches across streamers.
import { controlLocks } from './control-lock.ts';
import type { SecretBox } from './crypto.ts';
import type { Db } from './db.ts';
import { GrantReads, type StreamerAndGrant } from './grant-reads.ts';
import { Grants, type Grant, type GrantInput } from './grants.ts';
import { refreshLocks, type HeldLock, type LockStats, type LockTotals } from './locks.ts';
import { StreamerKeys, type KeyLookup } from './streamer-keys.ts';
import { Sessions } from './sessions.ts';
import { SignInAttempts } from './sign-in-attempts.ts';
import type { StoreContext } from './store-context.ts';
import { Streamers, type Streamer } from './streamers.ts';

export type { Grant, GrantInput, KeyLookup, Streamer };

export class HostedStore {
	private readonly ctx: StoreContext;
	private readonly streamers: Streamers;
	private readonly grants: Grants;
	private readonly reads: GrantReads;
	private readonly keys: StreamerKeys;
	private readonly controlKeys: StreamerKeys;
	private readonly sessions: Sessions;
	private readonly signIns: SignInAttempts;

	constructor(
		db: Db,
		box: SecretBox,
		now: () => Date = () => new Date(),
		/** Set on the store a refresh uses while it holds its lock on a server (refreshLock). */
		lock: HeldLock | null = null
	) {
		this.ctx = { db, box, now, lock };
		this.grants = new Grants(this.ctx);
		this.reads = new GrantReads(this.ctx);
		this.keys = new StreamerKeys(this.ctx, 'overlay');
		this.controlKeys = new StreamerKeys(this.ctx, 'control');
		this.streamers = new Streamers(this.ctx, this.grants, [this.keys, this.controlKeys]);
		this.sessions = new Sessions(this.ctx);
		this.signIns = new SignInAttempts(this.ctx);
	}

	// --- The refresh lock (locks.ts) ---

	/**
	 * Runs `fn` holding the streamer's refresh lock, deployment-wide, with the store to use
	 * meanwhile (on the lock's connection). `checkStored` checks, without the lock, whether another
	 * holder has already stored the refreshed token: it runs after the lock was found taken, before
	 * trying again, and a result from it (not null) is the answer. `due`: when the caller's token
	 * expires (the soonest gets a connection first).
	 */
	refreshLock<T>(
		streamerId: string,
		fn: (store: HostedStore) => Promise<T>,
		checkStored?: () => Promise<T | null>,
		due?: number
	): Promise<T> {
		const { db, box, now, announceKeys } = this.ctx;
		const onLock = (lockDb: Db, lock: HeldLock | null) => {
			if (lockDb === db) return this;
			const store = new HostedStore(lockDb, box, now, lock);
			// A Disconnect under the lock turns the keys off: announced as any other.
			if (announceKeys) store.announceKeysWith(announceKeys);
			return store;
		};
		return refreshLocks(db).run(
			`refresh:${streamerId}`,
			(lockDb, lock) => fn(onLock(lockDb, lock)),
			checkStored,
			due
		);
	}

	/** Refreshes of this process at their locks now, by state, and totals since start (/metrics). */
	lockStats(): LockStats & LockTotals {
		const locks = refreshLocks(this.ctx.db);
		return { ...locks.current, ...locks.totals };
	}

	/**
	 * Runs a dock action holding the streamer's control lock, deployment-wide (control-lock.ts):
	 * one action of a streamer at a time, so that two docks pressing at once never act twice.
	 */
	controlLock<T>(streamerId: string, action: () => Promise<T>): Promise<T> {
		return controlLocks(this.ctx.db).run(streamerId, action);
	}

	/** Resolves once no refresh of this process holds or waits for a lock. */
	settled(): Promise<void> {
		return refreshLocks(this.ctx.db).settled();
	}

	// --- Streamers (streamers.ts) ---

	signedIn(
		me: { tenantId: string; name: string; currency: string },
		grant: GrantInput
	): Promise<{ streamer: Streamer; created: boolean }> {
		return this.streamers.signedIn(me, grant);
	}

	streamer(id: string): Promise<Streamer | null> {
		return this.streamers.streamer(id);
	}

	needsReconnect(streamerId: string): Promise<void> {
		return this.streamers.needsReconnect(streamerId);
	}

	disconnect(streamerId: string): Promise<void> {
		return this.streamers.disconnect(streamerId);
	}

	// --- Authorizations (grants.ts, grant-reads.ts) ---

	async grant(streamerId: string): Promise<Grant | null> {
		return (await this.reads.read(streamerId)).grant;
	}

	streamerAndGrant(id: string): Promise<StreamerAndGrant> {
		return this.reads.read(id);
	}

	markRefreshing(streamerId: string, generation: number): Promise<boolean> {
		return this.grants.markRefreshing(streamerId, generation);
	}

	clearRefreshing(streamerId: string, generation: number): Promise<void> {
		return this.grants.clearRefreshing(streamerId, generation);
	}

	storeRefreshed(streamerId: string, generation: number, grant: GrantInput): Promise<boolean> {
		return this.grants.storeRefreshed(streamerId, generation, grant);
	}

	// --- Overlay keys and control keys (streamer-keys.ts) ---

	overlayKey(streamerId: string): Promise<string | null> {
		return this.keys.live(streamerId);
	}

	newOverlayKey(streamerId: string): Promise<string> {
		return this.keys.replace(streamerId);
	}

	resolveOverlayKey(key: string): Promise<KeyLookup> {
		return this.keys.resolve(key);
	}

	/** Every key turned off from now on is announced with `announce` (store-context.ts). */
	announceKeysWith(announce: NonNullable<StoreContext['announceKeys']>): void {
		this.ctx.announceKeys = announce;
	}

	/** The streamer's live control key (made now for a connected one without); null: none. */
	controlKey(streamerId: string): Promise<string | null> {
		return this.controlKeys.liveOrNew(streamerId);
	}

	/** "New control key": the old one is refused at once, on every instance. */
	newControlKey(streamerId: string): Promise<string> {
		return this.controlKeys.replace(streamerId);
	}

	/** The streamer a control key belongs to; an overlay key is never one (another table). */
	resolveControlKey(key: string): Promise<KeyLookup> {
		return this.controlKeys.resolve(key);
	}

	// --- Dashboard sessions (sessions.ts) and sign-ins in progress (sign-in-attempts.ts) ---

	createSession(streamerId: string, ttlMs: number): Promise<string> {
		return this.sessions.create(streamerId, ttlMs);
	}

	session(token: string): Promise<string | null> {
		return this.sessions.streamerOf(token);
	}

	/** The CSRF token of a live session (derived from its token), or null. */
	sessionCsrf(token: string): Promise<string | null> {
		return this.sessions.csrf(token);
	}

	/** The streamer of a live session whose CSRF token `csrf` is, or null. */
	sessionWithCsrf(token: string, csrf: string): Promise<string | null> {
		return this.sessions.streamerWithCsrf(token, csrf);
	}

	endSession(token: string): Promise<void> {
		return this.sessions.end(token);
	}

	beginSignIn(state: string, verifier: string, ttlMs: number): Promise<void> {
		return this.signIns.begin(state, verifier, ttlMs);
	}

	takeSignIn(state: string): Promise<string | null> {
		return this.signIns.take(state);
	}
}
