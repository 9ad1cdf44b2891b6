// Reading a streamer together with their authorization (grant), in one query: what a streamer's
// upstream client loads first, and what each token refresh reads again before it refreshes.
//
// Reads asked for during one turn of the event loop go to the database together, as one query for
// all of their streamers. This matters when many tokens expire at once: every instance then queues
// a refresh per streamer, and while they wait for a database connection each queued refresh checks
// now and then whether another instance already stored the refreshed token (locks.ts). Those checks
// come at the same moments, hundreds at a time; one query each would crowd the database.
//
// Each caller gets only the row it asked for, and only that row's tokens are decrypted.
import type { Selectable } from 'kysely';
import type { GrantsTable, StreamersTable } from './db.ts';
import { openGrant, type Grant } from './grants.ts';
import type { StoreContext } from './store-context.ts';
import { toStreamer, type Streamer } from './streamers.ts';

export interface StreamerAndGrant {
	streamer: Streamer | null;
	grant: Grant | null;
}

/** A streamer with their authorization's columns (null: they have none). */
type StreamerGrantRow = Omit<Selectable<StreamersTable>, 'created_at' | 'updated_at'> & {
	[K in Exclude<keyof GrantsTable, 'streamer_id' | 'updated_at'>]:
		Selectable<GrantsTable>[K] | null;
};

/** The reads waiting for the current turn of the event loop to end, and their one query. */
interface PendingReads {
	ids: Set<string>;
	rows: Promise<Map<string, StreamerGrantRow>>;
}

export class GrantReads {
	/** Reads being gathered for one query (`read`). */
	private pending: PendingReads | null = null;

	constructor(private readonly ctx: StoreContext) {}

	/**
	 * The streamer and their authorization. Gathered with the other reads of this turn of the event
	 * loop, except on a lock's connection: the refresh holding it reads alone, at once.
	 */
	read(id: string): Promise<StreamerAndGrant> {
		if (this.ctx.lock) return this.readMany([id]).then((rows) => this.pick(id, rows));
		let pending = this.pending;
		if (!pending) {
			const ids = new Set<string>();
			const rows = new Promise<Map<string, StreamerGrantRow>>((resolve) =>
				setImmediate(() => {
					this.pending = null;
					resolve(this.readMany([...ids]));
				})
			);
			pending = this.pending = { ids, rows };
		}
		pending.ids.add(id);
		return pending.rows.then((rows) => this.pick(id, rows));
	}

	private async readMany(ids: string[]): Promise<Map<string, StreamerGrantRow>> {
		const rows = await this.ctx.db
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
	private pick(id: string, rows: Map<string, StreamerGrantRow>): StreamerAndGrant {
		const row = rows.get(id);
		if (!row) return { streamer: null, grant: null };
		const { refresh_token, scopes, generation } = row;
		return {
			streamer: toStreamer(row),
			grant:
				refresh_token !== null && scopes !== null && generation !== null
					? openGrant(this.ctx.box, id, { ...row, refresh_token, scopes, generation })
					: null
		};
	}
}
