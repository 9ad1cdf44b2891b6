// Each streamer's webhook endpoint at the upstream (docs/hosted.md, webhooks), a store of its own
// (the kept shape does not fit: one row per streamer, found by the opaque id of its URL): table
// `webhook_endpoints` (migration 014). The signing secret is sealed (crypto.ts) bound to its
// streamer, never kept or logged in clear.
import { sql } from 'kysely';
import type { SecretBox } from './crypto.ts';
import type { Db } from './db.ts';

/** The id in the endpoint's URL (`/webhooks/<id>`): 256 random bits, base64url (randomToken). */
export const HOOK_ID = /^[A-Za-z0-9_-]{43}$/;

export interface RegisteredHook {
	hookId: string;
	/** The upstream's endpoint id (`we_...`). */
	endpointId: string;
}

const context = (streamer: string) => `webhook_endpoints.secret:${streamer}`;

export class WebhookEndpoints {
	constructor(
		private readonly db: Db,
		private readonly box: SecretBox
	) {}

	/** The streamer's registered endpoint, if any. */
	async of(streamer: string): Promise<RegisteredHook | null> {
		const { rows } = await sql<{ hook_id: string; endpoint_id: string }>`
			select hook_id, endpoint_id from webhook_endpoints where streamer_id = ${streamer}`.execute(
			this.db
		);
		return rows[0] ? { hookId: rows[0].hook_id, endpointId: rows[0].endpoint_id } : null;
	}

	/** Keeps the streamer's endpoint unless they have one already (false then: this one is extra). */
	async add(streamer: string, hook: RegisteredHook, secret: string): Promise<boolean> {
		const { rows } = await sql<{ streamer_id: string }>`
			insert into webhook_endpoints (streamer_id, hook_id, endpoint_id, secret)
			values (${streamer}, ${hook.hookId}, ${hook.endpointId}, ${this.box.seal(secret, context(streamer))})
			on conflict (streamer_id) do nothing
			returning streamer_id`.execute(this.db);
		return rows.length === 1;
	}

	/** The streamer and the opened secret of the endpoint whose URL ends in `hookId`. */
	async byHook(hookId: string): Promise<{ streamer: string; secret: string } | null> {
		if (!HOOK_ID.test(hookId)) return null;
		const { rows } = await sql<{ streamer_id: string; secret: string }>`
			select streamer_id, secret from webhook_endpoints where hook_id = ${hookId}`.execute(this.db);
		const row = rows[0];
		return row
			? { streamer: row.streamer_id, secret: this.box.open(row.secret, context(row.streamer_id)) }
			: null;
	}

	/** Forgets the streamer's endpoint (Disconnect). */
	async remove(streamer: string): Promise<RegisteredHook | null> {
		const { rows } = await sql<{ hook_id: string; endpoint_id: string }>`
			delete from webhook_endpoints where streamer_id = ${streamer}
			returning hook_id, endpoint_id`.execute(this.db);
		return rows[0] ? { hookId: rows[0].hook_id, endpointId: rows[0].endpoint_id } : null;
	}
}
