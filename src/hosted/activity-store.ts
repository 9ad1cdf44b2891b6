// Hosted mode's Activity (docs/activity.md; the tables: migrations-activity.ts): every statement
// names the streamer, so no streamer reaches another's entries. An apply is one transaction: each
// event id is inserted once (a second delivery finds it and changes nothing), the entries it
// changes are read `for update`, and what they became is written back.
import { sql, type Kysely, type Transaction } from 'kysely';
import { ActivityEntry } from '../contract/activity.ts';
import { nameOf } from '../core/activity/entries.ts';
import { nameKey, type ListFilter } from '../core/activity/query.ts';
import { ActivityRecorder } from '../server/activity/recorder.ts';
import {
	DEFAULT_RETENTION_DAYS,
	type ActivityStore,
	type Heard
} from '../server/activity/store.ts';
import type { HostedPushChannel } from './push-channel.ts';
import type { Db } from './db.ts';

interface ActivityTables {
	activity_entries: {
		streamer_id: string;
		id: string;
		at: Date | string;
		kind: string;
		name_key: string | null;
		entry: unknown;
	};
	activity_events: { streamer_id: string; event_id: string; at: Date | string };
	activity_starts: { streamer_id: string; at: Date | string };
}
type ActivityDb = Kysely<ActivityTables>;

/** `%`, `_` and `\` taken as themselves in a LIKE pattern. */
const likeStart = (s: string) => `${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class PgActivityStore implements ActivityStore {
	readonly #db: ActivityDb;

	constructor(db: Db) {
		this.#db = db as unknown as ActivityDb;
	}

	apply(streamer: string, heard: readonly Heard[], now: number): Promise<ActivityEntry[]> {
		return this.#db.transaction().execute(async (tx) => {
			const changed = new Map<string, ActivityEntry>();
			for (const h of heard) await applyOne(tx, streamer, h, now, changed);
			return [...changed.values()];
		});
	}

	async get(streamer: string, keys: readonly string[]): Promise<Map<string, ActivityEntry>> {
		if (keys.length === 0) return new Map();
		const rows = await this.#db
			.selectFrom('activity_entries')
			.select(['id', 'entry'])
			.where('streamer_id', '=', streamer)
			.where('id', 'in', [...keys])
			.execute();
		return entriesOf(rows);
	}

	async list(streamer: string, f: ListFilter): Promise<ActivityEntry[]> {
		let q = this.#db
			.selectFrom('activity_entries')
			.select(['id', 'entry'])
			.where('streamer_id', '=', streamer);
		if (f.kinds?.length) q = q.where('kind', 'in', [...f.kinds]);
		if (f.name) q = q.where(sql<boolean>`name_key like ${likeStart(nameKey(f.name))}`);
		if (f.from !== undefined) q = q.where('at', '>=', new Date(f.from));
		if (f.to !== undefined) q = q.where('at', '<', new Date(f.to));
		if (f.before) {
			const at = new Date(f.before.at);
			q = q.where(sql<boolean>`(at, id) < (${at}, ${f.before.id})`);
		}
		const rows = await q.orderBy('at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
		return [...entriesOf(rows).values()];
	}

	async start(streamer: string): Promise<string | null> {
		const row = await this.#db
			.selectFrom('activity_starts')
			.select('at')
			.where('streamer_id', '=', streamer)
			.executeTakeFirst();
		return row ? new Date(row.at).toISOString() : null;
	}

	async setStart(streamer: string, at: string | null): Promise<void> {
		if (at === null) {
			await this.#db.deleteFrom('activity_starts').where('streamer_id', '=', streamer).execute();
			return;
		}
		await this.#db
			.insertInto('activity_starts')
			.values({ streamer_id: streamer, at: new Date(at) })
			.onConflict((oc) => oc.column('streamer_id').doUpdateSet({ at: new Date(at) }))
			.execute();
	}

	delete(streamer: string): Promise<number> {
		return this.#db.transaction().execute(async (tx) => {
			await tx.deleteFrom('activity_events').where('streamer_id', '=', streamer).execute();
			await tx.deleteFrom('activity_starts').where('streamer_id', '=', streamer).execute();
			const gone = await tx
				.deleteFrom('activity_entries')
				.where('streamer_id', '=', streamer)
				.executeTakeFirst();
			return Number(gone.numDeletedRows);
		});
	}

	async prune(before: number): Promise<void> {
		const at = new Date(before);
		await this.#db.deleteFrom('activity_entries').where('at', '<', at).execute();
		await this.#db.deleteFrom('activity_events').where('at', '<', at).execute();
	}

	/** The tables' bytes with their indexes (the bench's size per 1,000 entries). */
	async bytes(): Promise<number> {
		const { rows } = await sql<{ n: string }>`
			select (pg_total_relation_size('activity_entries') + pg_total_relation_size('activity_events'))::text as n
		`.execute(this.#db);
		return Number(rows[0].n);
	}

	async close(): Promise<void> {}
}

async function applyOne(
	tx: Transaction<ActivityTables>,
	streamer: string,
	h: Heard,
	now: number,
	changed: Map<string, ActivityEntry>
): Promise<void> {
	if (h.eventId !== null) {
		const fresh = await tx
			.insertInto('activity_events')
			.values({ streamer_id: streamer, event_id: h.eventId, at: new Date(now) })
			.onConflict((oc) => oc.columns(['streamer_id', 'event_id']).doNothing())
			.returning('event_id')
			.executeTakeFirst();
		if (!fresh) return;
	}
	const keys = [...new Set(h.updates.map((u) => u.key))].filter((k) => !changed.has(k));
	const stored = keys.length
		? entriesOf(
				await tx
					.selectFrom('activity_entries')
					.select(['id', 'entry'])
					.where('streamer_id', '=', streamer)
					.where('id', 'in', keys)
					.forUpdate()
					.execute()
			)
		: new Map<string, ActivityEntry>();
	for (const u of h.updates) {
		const next = u.make(changed.get(u.key) ?? stored.get(u.key));
		if (!next) continue;
		changed.set(u.key, next);
		await write(tx, streamer, next);
	}
}

async function write(tx: Transaction<ActivityTables>, streamer: string, e: ActivityEntry) {
	const name = nameOf(e);
	const row = {
		streamer_id: streamer,
		id: e.id,
		at: new Date(e.at),
		kind: e.kind,
		name_key: name === null ? null : nameKey(name),
		entry: JSON.stringify(e)
	};
	await tx
		.insertInto('activity_entries')
		.values(row)
		.onConflict((oc) =>
			oc.columns(['streamer_id', 'id']).doUpdateSet({ entry: row.entry, name_key: row.name_key })
		)
		.execute();
}

/** Rows' entries by id; one that does not read as an entry (a later shape) is left out. */
function entriesOf(rows: { id: string; entry: unknown }[]): Map<string, ActivityEntry> {
	const out = new Map<string, ActivityEntry>();
	for (const r of rows) {
		const parsed = ActivityEntry.safeParse(
			typeof r.entry === 'string' ? JSON.parse(r.entry) : r.entry
		);
		if (parsed.success) out.set(r.id, parsed.data);
	}
	return out;
}

/** The Activity on the database, pruned from now on; its messages told by NOTIFY on their own. */
export function hostedActivity(
	db: Db,
	push: HostedPushChannel,
	retentionDays = DEFAULT_RETENTION_DAYS
): ActivityRecorder {
	const activity = new ActivityRecorder({
		store: new PgActivityStore(db),
		retentionDays,
		publish: (streamer, message) => push.publish(streamer, message, db)
	});
	activity.startPruning();
	return activity;
}
