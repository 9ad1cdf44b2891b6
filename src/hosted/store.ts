// What a hosted deployment keeps per streamer, in PostgreSQL (db.ts): the streamer (identified by
// the upstream's tenant id), their authorization (tokens sealed, crypto.ts), their overlay key
// (looked up by keyed hash, sealed for their own dashboard), their dashboard sessions (by hash,
// with an expiry) and sign-in attempts in flight (by hash of `state`, one use each). Every query
// names the streamers it is for, and a read of several (one batch of lookups) hands each caller
// only the row it asked for: nothing here lists or reaches across streamers.
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db, GrantsTable, StreamersTable } from './db.ts';
import { randomToken, type SecretBox } from './crypto.ts';
import { refreshLocks, type HeldLock, type LockStats, type LockTotals } from './locks.ts';
import { resolveOverlayKey, type KeyLookup } from './overlay-keys.ts';

export interface Streamer {
	id: string;
	tenantId: string;
	name: string;
	currency: string;
	status: 'connected' | 'reconnect' | 'disconnected';
}

export interface GrantInput {
	refreshToken: string;
	accessToken: string;
	/** When the access token expires. */
	expiresAt: Date;
	/** When to refresh it (ahead of expiry); absent: at expiry. */
	refreshAt?: Date;
	scopes: string;
}

export interface Grant extends GrantInput {
	generation: number;
	/** A refresh was sent and its answer was never stored (a crash): the token may be rotated out. */
	refreshingSince: Date | null;
}

export type { KeyLookup };

/** A streamer with their authorization's columns (null: they have none). */
type StreamerGrantRow = Omit<Selectable<StreamersTable>, 'created_at' | 'updated_at'> & {
	[K in Exclude<keyof GrantsTable, 'streamer_id' | 'updated_at'>]:
		Selectable<GrantsTable>[K] | null;
};

export class HostedStore {
	constructor(
		private readonly db: Db,
		private readonly box: SecretBox,
		private readonly now: () => Date = () => new Date(),
		/** Set on the store a refresh uses while it holds its lock on a server (refreshLock). */
		private readonly lock: HeldLock | null = null
	) {}

	/**
	 * Runs `fn` holding the streamer's refresh lock, deployment-wide (locks.ts), with the store to
	 * use meanwhile (on the lock's connection). `peek` looks for another holder's result without the
	 * lock, after finding the lock taken and before trying again: not null, it is the answer.
	 * `due`: when the caller's token expires (locks.ts: the soonest gets a connection first).
	 */
	refreshLock<T>(
		streamerId: string,
		fn: (store: HostedStore) => Promise<T>,
		peek?: () => Promise<T | null>,
		due?: number
	): Promise<T> {
		return refreshLocks(this.db).run(
			`refresh:${streamerId}`,
			(db, lock) => fn(db === this.db ? this : new HostedStore(db, this.box, this.now, lock)),
			peek,
			due
		);
	}

	/** Refreshes of this process at their locks now, by state (/metrics). */
	lockStats(): LockStats & LockTotals {
		const locks = refreshLocks(this.db);
		return { ...locks.current, ...locks.totals };
	}

	/** Resolves once no refresh of this process holds or waits for a lock. */
	settled(): Promise<void> {
		return refreshLocks(this.db).settled();
	}

	/**
	 * A streamer signed in (authorization code exchanged, GET /me read): creates or updates them by
	 * tenant id, replaces any previous authorization, and makes sure they have a live overlay key.
	 */
	async signedIn(
		me: { tenantId: string; name: string; currency: string },
		grant: GrantInput
	): Promise<{ streamer: Streamer; created: boolean }> {
		return this.db.transaction().execute(async (tx) => {
			const now = this.now();
			const existing = await tx
				.selectFrom('streamers')
				.select('id')
				.where('tenant_id', '=', me.tenantId)
				.forUpdate()
				.executeTakeFirst();
			const id = existing?.id ?? `s_${randomBytes(9).toString('base64url')}`;
			if (existing)
				await tx
					.updateTable('streamers')
					.set({ name: me.name, currency: me.currency, status: 'connected', updated_at: now })
					.where('id', '=', id)
					.execute();
			else
				await tx
					.insertInto('streamers')
					.values({
						id,
						tenant_id: me.tenantId,
						name: me.name,
						currency: me.currency,
						status: 'connected',
						updated_at: now
					})
					.execute();
			const sealed = this.sealGrant(id, grant);
			await tx
				.insertInto('grants')
				.values({ streamer_id: id, ...sealed, updated_at: now })
				.onConflict((oc) =>
					oc.column('streamer_id').doUpdateSet((eb) => ({
						...sealed,
						generation: eb('grants.generation', '+', 1),
						refreshing_since: null,
						updated_at: now
					}))
				)
				.execute();
			const live = await tx
				.selectFrom('overlay_keys')
				.select('hash')
				.where('streamer_id', '=', id)
				.where('replaced_at', 'is', null)
				.executeTakeFirst();
			if (!live) await this.insertKey(tx, id);
			return {
				streamer: {
					id,
					tenantId: me.tenantId,
					name: me.name,
					currency: me.currency,
					status: 'connected'
				},
				created: !existing
			};
		});
	}

	async streamer(id: string): Promise<Streamer | null> {
		const row = await this.db
			.selectFrom('streamers')
			.selectAll()
			.where('id', '=', id)
			.executeTakeFirst();
		return row ? toStreamer(row) : null;
	}

	// --- Overlay keys ---

	/** The streamer's live overlay key, for their own dashboard; null after Disconnect. */
	async overlayKey(streamerId: string): Promise<string | null> {
		const row = await this.db
			.selectFrom('overlay_keys')
			.select(['hash', 'sealed'])
			.where('streamer_id', '=', streamerId)
			.where('replaced_at', 'is', null)
			.orderBy('created_at', 'desc')
			.executeTakeFirst();
		return row ? this.box.open(row.sealed, `overlay_key:${streamerId}`) : null;
	}

	/** "New overlay key": the old one stops at once (its sources are told the URL was replaced). */
	async newOverlayKey(streamerId: string): Promise<string> {
		return this.db.transaction().execute(async (tx) => {
			await tx
				.updateTable('overlay_keys')
				.set({ replaced_at: this.now() })
				.where('streamer_id', '=', streamerId)
				.where('replaced_at', 'is', null)
				.execute();
			return this.insertKey(tx, streamerId);
		});
	}

	/**
	 * The streamer an overlay key belongs to (overlay-keys.ts): one indexed query every time, so a
	 * key replaced or turned off on any instance is refused at once.
	 */
	resolveOverlayKey(key: string): Promise<KeyLookup> {
		return resolveOverlayKey(this.db, this.box, key);
	}

	// --- Sessions ---

	async createSession(streamerId: string, ttlMs: number): Promise<string> {
		const token = randomToken();
		const now = this.now();
		await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
		await this.db
			.insertInto('sessions')
			.values({
				hash: this.box.lookupHash(token),
				streamer_id: streamerId,
				expires_at: new Date(now.getTime() + ttlMs)
			})
			.execute();
		return token;
	}

	/** The streamer of a live session, or null (unknown, expired, or signed out). */
	async session(token: string): Promise<string | null> {
		if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
		const row = await this.db
			.selectFrom('sessions')
			.select('streamer_id')
			.where('hash', 'in', this.box.lookupHashes(token))
			.where('expires_at', '>', this.now())
			.executeTakeFirst();
		return row?.streamer_id ?? null;
	}

	async endSession(token: string): Promise<void> {
		await this.db
			.deleteFrom('sessions')
			.where('hash', 'in', this.box.lookupHashes(token))
			.execute();
	}

	// --- Sign-in attempts (OAuth state and PKCE verifier), shared by every instance ---

	async beginSignIn(state: string, verifier: string, ttlMs: number): Promise<void> {
		const now = this.now();
		await this.db.deleteFrom('sign_in_attempts').where('expires_at', '<=', now).execute();
		await this.db
			.insertInto('sign_in_attempts')
			.values({
				state_hash: this.box.lookupHash(state),
				verifier: this.box.seal(verifier, 'sign_in'),
				expires_at: new Date(now.getTime() + ttlMs)
			})
			.execute();
	}

	/** The attempt's PKCE verifier, once: a second callback with the same state gets null. */
	async takeSignIn(state: string): Promise<string | null> {
		const row = await this.db
			.deleteFrom('sign_in_attempts')
			.where('state_hash', 'in', this.box.lookupHashes(state))
			.returning(['verifier', 'expires_at'])
			.executeTakeFirst();
		if (!row || new Date(row.expires_at) <= this.now()) return null;
		return this.box.open(row.verifier, 'sign_in');
	}

	// --- The authorization ---

	async grant(streamerId: string): Promise<Grant | null> {
		return (await this.streamerAndGrant(streamerId)).grant;
	}

	/**
	 * The streamer and their authorization in one query (what a streamer's client loads first).
	 * Off a lock's connection, the reads asked for in one turn of the event loop go to the
	 * database as one query (`readMany`): in a refresh storm each instance's queued refreshes look
	 * at their rows on the same beat (locks.ts), hundreds at a time.
	 */
	streamerAndGrant(id: string): Promise<{ streamer: Streamer | null; grant: Grant | null }> {
		if (this.lock) return this.readMany([id]).then((rows) => this.toStreamerAndGrant(id, rows));
		let batch = this.batch;
		if (!batch) {
			const ids = new Set<string>();
			const rows = new Promise<Map<string, StreamerGrantRow>>((resolve) =>
				setImmediate(() => {
					this.batch = null;
					resolve(this.readMany([...ids]));
				})
			);
			batch = this.batch = { ids, rows };
		}
		batch.ids.add(id);
		return batch.rows.then((rows) => this.toStreamerAndGrant(id, rows));
	}

	/** Reads being gathered for one query (`streamerAndGrant`). */
	private batch: { ids: Set<string>; rows: Promise<Map<string, StreamerGrantRow>> } | null = null;

	private async readMany(ids: string[]): Promise<Map<string, StreamerGrantRow>> {
		const rows = await this.db
			.selectFrom('streamers as s')
			.leftJoin('grants as g', 'g.streamer_id', 's.id')
			.select([
				's.id',
				's.tenant_id',
				's.name',
				's.currency',
				's.status',
				'g.refresh_token',
				'g.access_token',
				'g.access_expires_at',
				'g.access_refresh_at',
				'g.scopes',
				'g.generation',
				'g.refreshing_since'
			])
			.where((eb) => eb('s.id', '=', eb.fn.any(eb.val(ids))))
			.execute();
		return new Map(rows.map((r) => [r.id, r]));
	}

	/** One streamer's part of a read: only their own row is opened (and so decrypted). */
	private toStreamerAndGrant(
		id: string,
		rows: Map<string, StreamerGrantRow>
	): { streamer: Streamer | null; grant: Grant | null } {
		const row = rows.get(id);
		if (!row) return { streamer: null, grant: null };
		const { refresh_token, scopes, generation } = row;
		return {
			streamer: toStreamer(row),
			grant:
				refresh_token !== null && scopes !== null && generation !== null
					? this.openGrant(id, { ...row, refresh_token, scopes, generation })
					: null
		};
	}

	private openGrant(
		streamerId: string,
		row: Omit<Selectable<GrantsTable>, 'streamer_id' | 'updated_at'>
	): Grant {
		const ctx = `grant:${streamerId}`;
		return {
			refreshToken: this.box.open(row.refresh_token, `${ctx}:refresh`),
			accessToken: row.access_token ? this.box.open(row.access_token, `${ctx}:access`) : '',
			expiresAt: row.access_expires_at ? new Date(row.access_expires_at) : new Date(0),
			refreshAt: row.access_refresh_at ? new Date(row.access_refresh_at) : undefined,
			scopes: row.scopes,
			generation: row.generation,
			refreshingSince: row.refreshing_since ? new Date(row.refreshing_since) : null
		};
	}

	/** Marks a refresh as sent (before sending it): false if another writer got there first. */
	async markRefreshing(streamerId: string, generation: number): Promise<boolean> {
		const r = await this.db
			.updateTable('grants')
			.set({ refreshing_since: this.now() })
			.where('streamer_id', '=', streamerId)
			.where('generation', '=', generation)
			.where('refreshing_since', 'is', null)
			.executeTakeFirst();
		return Number(r.numUpdatedRows) === 1;
	}

	/** A refresh that did not rotate (the upstream was not reached): the mark is cleared. */
	async clearRefreshing(streamerId: string, generation: number): Promise<void> {
		await this.db
			.updateTable('grants')
			.set({ refreshing_since: null })
			.where('streamer_id', '=', streamerId)
			.where('generation', '=', generation)
			.execute();
	}

	/**
	 * Stores the rotated tokens (before anyone uses them) and clears the refresh mark; false if the
	 * row moved on meanwhile (its lock lost with its connection, or the streamer disconnected).
	 * Under a refresh lock on a server it is the refresh's last statement, and frees the lock.
	 */
	async storeRefreshed(
		streamerId: string,
		generation: number,
		grant: GrantInput
	): Promise<boolean> {
		const update = this.db
			.updateTable('grants')
			.set((eb) => ({
				...this.sealGrant(streamerId, grant),
				generation: eb('generation', '+', 1),
				refreshing_since: null,
				updated_at: this.now()
			}))
			.where('streamer_id', '=', streamerId)
			.where('generation', '=', generation);
		const lock = this.lock;
		if (!lock) return Number((await update.executeTakeFirst()).numUpdatedRows) === 1;
		// The write frees the lock itself, which saves the holder the round trip of an unlock
		// statement (and the lock is still free only once the write is committed: HeldLock). If
		// the statement fails, locks.ts unlocks with a statement of its own.
		const { updated } = await this.db
			.with('w', () => update.returning('generation'))
			.selectNoFrom((eb) => [
				eb.selectFrom('w').select(eb.fn.countAll<number>().as('n')).as('updated'),
				lock.release.as('released')
			])
			.executeTakeFirstOrThrow();
		lock.released();
		return Number(updated) === 1;
	}

	/**
	 * The authorization is gone (revoked, scopes removed, or a refresh whose answer was lost): drop
	 * the tokens and show Reconnect. The overlay key stays, so sources work again after reconnecting.
	 */
	async needsReconnect(streamerId: string): Promise<void> {
		await this.db.transaction().execute(async (tx) => {
			await tx.deleteFrom('grants').where('streamer_id', '=', streamerId).execute();
			await tx
				.updateTable('streamers')
				.set({ status: 'reconnect', updated_at: this.now() })
				.where('id', '=', streamerId)
				.execute();
		});
	}

	/** Disconnect: tokens deleted, overlay key turned off (after the caller revoked upstream). */
	async disconnect(streamerId: string): Promise<void> {
		await this.db.transaction().execute(async (tx) => {
			const now = this.now();
			await tx.deleteFrom('grants').where('streamer_id', '=', streamerId).execute();
			await tx
				.updateTable('overlay_keys')
				.set({ replaced_at: now })
				.where('streamer_id', '=', streamerId)
				.where('replaced_at', 'is', null)
				.execute();
			await tx
				.updateTable('streamers')
				.set({ status: 'disconnected', updated_at: now })
				.where('id', '=', streamerId)
				.execute();
		});
	}

	private sealGrant(streamerId: string, g: GrantInput) {
		const ctx = `grant:${streamerId}`;
		return {
			refresh_token: this.box.seal(g.refreshToken, `${ctx}:refresh`),
			access_token: this.box.seal(g.accessToken, `${ctx}:access`),
			access_expires_at: g.expiresAt,
			access_refresh_at: g.refreshAt ?? g.expiresAt,
			scopes: g.scopes
		};
	}

	private async insertKey(tx: Db, streamerId: string): Promise<string> {
		const key = randomToken();
		await tx
			.insertInto('overlay_keys')
			.values({
				hash: this.box.lookupHash(key),
				streamer_id: streamerId,
				sealed: this.box.seal(key, `overlay_key:${streamerId}`)
			})
			.execute();
		return key;
	}
}

function toStreamer(row: Omit<Selectable<StreamersTable>, 'created_at' | 'updated_at'>): Streamer {
	const { id, tenant_id: tenantId, name, currency, status } = row;
	return { id, tenantId, name, currency, status };
}
