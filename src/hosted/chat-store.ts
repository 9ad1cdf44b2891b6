// Hosted mode's chat store (src/server/chat/store.ts), shared by every instance: each streamer's
// meta (settings, the budget's sends, the problem, the last messages) in one row of `chat_state`
// (migration 007), and each tip's entry in a row of `chat_entries` keyed by streamer and order id
// (migration 008), so a change reads and writes the entries not done and those it names, never the
// day's. A change locks the streamer's meta row (an upsert, which makes it if the streamer has none),
// so two instances' changes run one after the other; within it a new entry is inserted only if its
// tip has none (a tip's entry is made once), and a changed one is updated only from the state it
// was read in, `UPDATE ... WHERE state = <was> RETURNING`: a sender's claim (owed to sending) holds,
// and a row found otherwise rolls the change back. The docks are told in the change's own
// transaction (push-channel.ts), so only once it is committed. Entries past keeping are deleted by
// the sweep (busy()).
import type { ColumnType, Kysely } from 'kysely';
import { applyChange, changed, type ChatChange, type ChatStore } from '../server/chat/store.ts';
import { ChatMeta, emptyMeta, Entry, KEEP_DONE_MS, type ChatState } from '../server/chat/ledger.ts';
import { jsonColumn, type Database, type Db } from './db.ts';
import type { HostedPushChannel } from './push-channel.ts';

/** A tip's thanks entry (migration 008). */
export interface ChatEntriesTable {
	streamer_id: string;
	order_id: string;
	/** The entry's state, apart for the queries (the entries not done, the busy streamers). */
	state: string;
	/** When it entered its state (ms since 1970), apart for pruning (never selected: a bigint). */
	at: ColumnType<number, number, number>;
	/** The Entry of src/server/chat/ledger.ts. */
	entry: ColumnType<unknown, string, string>;
}

type ChatDb = { chat_entries: ChatEntriesTable };

/** States a sender has work on (ledger.ts isBusy). */
const BUSY = ['finishing', 'owed', 'sending'];

export class HostedChatStore implements ChatStore {
	readonly #db: Kysely<Database & ChatDb>;

	constructor(
		private readonly db: Db,
		readonly push: HostedPushChannel
	) {
		this.#db = db.withTables<ChatDb>();
	}

	async read(streamer: string, ids: readonly string[] = []): Promise<ChatState> {
		const row = await this.#db
			.selectFrom('chat_state')
			.select('state')
			.where('streamer_id', '=', streamer)
			.executeTakeFirst();
		const meta = row ? metaOf(streamer, row.state) : emptyMeta();
		return { ...meta, entries: await entriesOf(this.#db, streamer, ids) };
	}

	async update<T>(streamer: string, change: ChatChange<T>, ids: readonly string[] = []) {
		return this.db.transaction().execute(async (outer): Promise<T> => {
			const tx = outer.withTables<ChatDb>();
			// One statement makes the row if the streamer has none and locks it till the commit (an
			// upsert that changes nothing still takes the row's lock), handing back its meta: a first
			// change of two instances at once waits on the same row.
			const row = await tx
				.insertInto('chat_state')
				.values({ streamer_id: streamer, state: JSON.stringify(emptyMeta()), busy: false })
				.onConflict((oc) =>
					oc
						.column('streamer_id')
						.doUpdateSet((eb) => ({ streamer_id: eb.ref('excluded.streamer_id') }))
				)
				.returning('state')
				.executeTakeFirstOrThrow();
			const was = { ...metaOf(streamer, row.state), entries: await entriesOf(tx, streamer, ids) };
			const applied = applyChange(was, change);
			if (!changed(applied)) return applied.value;
			if (applied.meta)
				await tx
					.updateTable('chat_state')
					.set({ state: JSON.stringify(applied.meta), updated_at: new Date() })
					.where('streamer_id', '=', streamer)
					.execute();
			const added = applied.entries.filter(([id]) => !was.entries[id]);
			if (added.length > 0)
				await tx
					.insertInto('chat_entries')
					.values(added.map(([id, e]) => rowOf(streamer, id, e)))
					.onConflict((oc) => oc.columns(['streamer_id', 'order_id']).doNothing())
					.execute();
			for (const [id, e] of applied.entries) {
				const before = was.entries[id];
				if (!before) continue;
				const { state, at, entry } = rowOf(streamer, id, e);
				const done = await tx
					.updateTable('chat_entries')
					.set({ state, at, entry })
					.where('streamer_id', '=', streamer)
					.where('order_id', '=', id)
					.where('state', '=', before.state)
					.returning('order_id')
					.executeTakeFirst();
				if (!done) throw new Error(`the thanks entry ${id} changed under its streamer's lock`);
			}
			if (applied.told) await this.push.publish(streamer, { type: 'chat' }, outer);
			return applied.value;
		});
	}

	/** The streamers with entries a sender has work on; the entries past keeping go first. */
	async busy(): Promise<string[]> {
		await this.#db
			.deleteFrom('chat_entries')
			.where('state', 'in', ['done', 'unsure'])
			.where('at', '<', Date.now() - KEEP_DONE_MS)
			.execute();
		const rows = await this.#db
			.selectFrom('chat_entries')
			.select('streamer_id')
			.distinct()
			.where('state', 'in', BUSY)
			.execute();
		return rows.map((r) => r.streamer_id);
	}
}

/** The streamer's entries not done, and those of `ids`. */
async function entriesOf(
	db: Kysely<Database & ChatDb>,
	streamer: string,
	ids: readonly string[]
): Promise<Record<string, Entry>> {
	// Two selects, each on its index (the partial index of the entries not done, the primary key):
	// one `or` of both would read every entry of the streamer's day.
	const open = db
		.selectFrom('chat_entries')
		.select(['order_id', 'entry'])
		.where('streamer_id', '=', streamer)
		.where('state', '<>', 'done');
	const rows = await (
		ids.length > 0
			? open.unionAll(
					db
						.selectFrom('chat_entries')
						.select(['order_id', 'entry'])
						.where('streamer_id', '=', streamer)
						.where('order_id', 'in', [...ids])
				)
			: open
	).execute();
	const entries: Record<string, Entry> = {};
	for (const r of rows) {
		const e = Entry.safeParse(jsonColumn(r.entry));
		if (e.success) entries[r.order_id] = e.data;
		else console.error(`[chat] the stored thanks entry ${r.order_id} is unreadable: skipped`);
	}
	return entries;
}

const rowOf = (streamer: string, id: string, e: Entry) => ({
	streamer_id: streamer,
	order_id: id,
	state: e.state,
	at: e.at,
	entry: JSON.stringify(e)
});

/** A stored meta read back; one that cannot be read starts afresh (thanks off), and is logged. */
function metaOf(streamer: string, stored: unknown): ChatMeta {
	const meta = ChatMeta.safeParse(jsonColumn(stored));
	if (meta.success) return meta.data;
	console.error(`[chat] the stored chat of ${streamer} is unreadable: thanks are off until saved`);
	return emptyMeta();
}
