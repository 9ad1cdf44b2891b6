// The streamers of a hosted deployment: one row each, identified by the upstream's tenant id, with
// their status (connected, or asked to reconnect, or disconnected). Signing in, being asked to
// reconnect and disconnecting change their grant (grants.ts) and keys (streamer-keys.ts: the
// overlay key and the dock's control key) too, in the same transaction, so this module runs those
// three changes.
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { StreamersTable } from './db.ts';
import type { GrantInput, Grants } from './grants.ts';
import type { StreamerKeys } from './streamer-keys.ts';
import type { StoreContext } from './store-context.ts';

export interface Streamer {
	id: string;
	tenantId: string;
	name: string;
	currency: string;
	status: 'connected' | 'reconnect' | 'disconnected';
}

export function toStreamer(
	row: Omit<Selectable<StreamersTable>, 'created_at' | 'updated_at'>
): Streamer {
	const { id, tenant_id: tenantId, name, currency, status } = row;
	return { id, tenantId, name, currency, status };
}

export class Streamers {
	constructor(
		private readonly ctx: StoreContext,
		private readonly grants: Grants,
		/** Their overlay key and their control key. */
		private readonly keys: readonly StreamerKeys[]
	) {}

	/**
	 * A streamer signed in (authorization code exchanged, GET /me read): creates or updates them by
	 * tenant id, replaces any previous authorization, and makes sure they have a live overlay key
	 * and control key.
	 */
	async signedIn(
		me: { tenantId: string; name: string; currency: string },
		grant: GrantInput
	): Promise<{ streamer: Streamer; created: boolean }> {
		return this.ctx.db.transaction().execute(async (tx) => {
			const now = this.ctx.now();
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
			await this.grants.replace(tx, id, grant, now);
			for (const keys of this.keys) await keys.ensureLive(tx, id);
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
		const row = await this.ctx.db
			.selectFrom('streamers')
			.selectAll()
			.where('id', '=', id)
			.executeTakeFirst();
		return row ? toStreamer(row) : null;
	}

	/**
	 * The authorization is gone (revoked, scopes removed, or a refresh whose answer was lost): drop
	 * the tokens and show Reconnect. The overlay key stays, so sources work again after reconnecting.
	 */
	async needsReconnect(streamerId: string): Promise<void> {
		await this.ctx.db.transaction().execute(async (tx) => {
			await this.grants.drop(tx, streamerId);
			await tx
				.updateTable('streamers')
				.set({ status: 'reconnect', updated_at: this.ctx.now() })
				.where('id', '=', streamerId)
				.execute();
		});
	}

	/** Disconnect: tokens deleted, both keys turned off (after the caller revoked upstream). */
	async disconnect(streamerId: string): Promise<void> {
		await this.ctx.db.transaction().execute(async (tx) => {
			const now = this.ctx.now();
			await this.grants.drop(tx, streamerId);
			for (const keys of this.keys) await keys.turnOff(tx, streamerId, now);
			await tx
				.updateTable('streamers')
				.set({ status: 'disconnected', updated_at: now })
				.where('id', '=', streamerId)
				.execute();
		});
	}
}
