// A streamer's authorization ("grant"): the refresh and access tokens the upstream gave when they
// signed in, sealed (encrypted, crypto.ts) and bound to the streamer's row, and what a token
// refresh writes to it (connections.ts). Every write names the row's generation, bumped by each
// rotation: a writer that read an older generation lost a race to another refresh and writes
// nothing. Reading a grant is grant-reads.ts's job (it reads many at once).
import type { Selectable } from 'kysely';
import type { SecretBox } from './crypto.ts';
import type { Db, GrantsTable } from './db.ts';
import type { StoreContext } from './store-context.ts';

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

/** The secret box's context for a streamer's token: it opens only on their row, in its column. */
const sealedAs = (streamerId: string, token: 'refresh' | 'access') =>
	`grant:${streamerId}:${token}`;

/** A grant's columns as stored: its tokens sealed. */
function sealGrant(box: SecretBox, streamerId: string, g: GrantInput) {
	return {
		refresh_token: box.seal(g.refreshToken, sealedAs(streamerId, 'refresh')),
		access_token: box.seal(g.accessToken, sealedAs(streamerId, 'access')),
		access_expires_at: g.expiresAt,
		access_refresh_at: g.refreshAt ?? g.expiresAt,
		scopes: g.scopes
	};
}

/** A stored grant, its tokens opened. */
export function openGrant(
	box: SecretBox,
	streamerId: string,
	row: Omit<Selectable<GrantsTable>, 'streamer_id' | 'updated_at'>
): Grant {
	return {
		refreshToken: box.open(row.refresh_token, sealedAs(streamerId, 'refresh')),
		accessToken: row.access_token ? box.open(row.access_token, sealedAs(streamerId, 'access')) : '',
		expiresAt: row.access_expires_at ? new Date(row.access_expires_at) : new Date(0),
		refreshAt: row.access_refresh_at ? new Date(row.access_refresh_at) : undefined,
		scopes: row.scopes,
		generation: row.generation,
		refreshingSince: row.refreshing_since ? new Date(row.refreshing_since) : null
	};
}

export class Grants {
	constructor(private readonly ctx: StoreContext) {}

	/**
	 * Within a sign-in's transaction `tx`: the streamer's new authorization replaces any previous
	 * one (its generation bumped, so a refresh of the old one stores nothing).
	 */
	async replace(tx: Db, streamerId: string, grant: GrantInput, now: Date): Promise<void> {
		const sealed = sealGrant(this.ctx.box, streamerId, grant);
		await tx
			.insertInto('grants')
			.values({ streamer_id: streamerId, ...sealed, updated_at: now })
			.onConflict((oc) =>
				oc.column('streamer_id').doUpdateSet((eb) => ({
					...sealed,
					generation: eb('grants.generation', '+', 1),
					refreshing_since: null,
					updated_at: now
				}))
			)
			.execute();
	}

	/** Within the transaction `tx`: the streamer's tokens are deleted. */
	async drop(tx: Db, streamerId: string): Promise<void> {
		await tx.deleteFrom('grants').where('streamer_id', '=', streamerId).execute();
	}

	/** Marks a refresh as sent (before sending it): false if another writer got there first. */
	async markRefreshing(streamerId: string, generation: number): Promise<boolean> {
		const r = await this.ctx.db
			.updateTable('grants')
			.set({ refreshing_since: this.ctx.now() })
			.where('streamer_id', '=', streamerId)
			.where('generation', '=', generation)
			.where('refreshing_since', 'is', null)
			.executeTakeFirst();
		return Number(r.numUpdatedRows) === 1;
	}

	/** A refresh that did not rotate (the upstream was not reached): the mark is cleared. */
	async clearRefreshing(streamerId: string, generation: number): Promise<void> {
		await this.ctx.db
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
		const { db, lock } = this.ctx;
		const update = db
			.updateTable('grants')
			.set((eb) => ({
				...sealGrant(this.ctx.box, streamerId, grant),
				generation: eb('generation', '+', 1),
				refreshing_since: null,
				updated_at: this.ctx.now()
			}))
			.where('streamer_id', '=', streamerId)
			.where('generation', '=', generation);
		if (!lock) return Number((await update.executeTakeFirst()).numUpdatedRows) === 1;
		// The write frees the lock itself, which saves the holder the round trip of an unlock
		// statement (and the lock is still free only once the write is committed: HeldLock). If
		// the statement fails, locks.ts unlocks with a statement of its own.
		const { updated } = await db
			.with('w', () => update.returning('generation'))
			.selectNoFrom((eb) => [
				eb.selectFrom('w').select(eb.fn.countAll<number>().as('n')).as('updated'),
				lock.release.as('released')
			])
			.executeTakeFirstOrThrow();
		lock.released();
		return Number(updated) === 1;
	}
}
