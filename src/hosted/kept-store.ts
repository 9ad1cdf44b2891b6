// Hosted mode's kept store (src/server/store/kept.ts), shared by every instance: a kind's meta in
// one row of `kept_meta` per streamer, each entry in a row of `kept_entries` keyed by streamer, kind
// and key (migration 009), every statement naming the streamer (no streamer reaches another's
// rows). A change locks the streamer's meta row of its kind (an upsert, which makes it if there is
// none), so the changes of a streamer's kind run one after the other on every instance; it reads
// the open entries and those it names, inserts an entry it added only if there is none (an entry is
// made once), updates those it changed, and publishes what it tells on the push channel
// (push-channel.ts) in its own transaction: heard only once committed. An entry only added (add(),
// moderation's decisions) is one `INSERT ... ON CONFLICT DO NOTHING` and a read back, no lock. Entries past keeping are
// deleted at most once per PRUNE_EVERY_MS, after a change, and by streamers(). A kind whose meta
// changes always tell (Kind.metaTold) has its meta kept in memory while, and only while, the
// instance listens: the message, from whichever instance, drops it.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
	applyChange,
	changed,
	type Change,
	type Kept,
	type KeptStore,
	type Kind
} from '../server/store/kept.ts';
import { jsonColumn, type Database, type Db } from './db.ts';
import { HostedPushChannel } from './push-channel.ts';

/** Streamers whose meta an instance keeps in memory at most, per kind (the least recently read go). */
const META_CACHED_MAX = 1000;
const PRUNE_EVERY_MS = 3600_000;

interface Row {
	key: string | null;
	value: unknown;
}

export class HostedKeptStore<M extends object, E> implements KeptStore<M, E> {
	readonly push: HostedPushChannel;
	/** The push channel when this store made it (and so closes it). */
	readonly #ownPush: HostedPushChannel | null;
	readonly #leave: () => void;
	/** True while LISTEN is in place: only then may a meta be kept in memory. */
	#heard = false;
	readonly #metas = new Map<string, M>();
	/** Bumped whenever what is in memory may be stale: a read begun before is not kept. */
	#epoch = 0;
	#prunedAt = -Infinity;
	#pruning: Promise<void> | null = null;
	#closed: Promise<void> | null = null;
	readonly #now: () => number;

	/** Publishes on the instance's push channel (serve.ts), or on one of its own (tests). */
	constructor(
		readonly kind: Kind<M, E>,
		private readonly db: Db,
		opts: { push?: HostedPushChannel; now?: () => number } = {}
	) {
		this.#now = opts.now ?? Date.now;
		this.#ownPush = opts.push ? null : new HostedPushChannel(db);
		this.push = opts.push ?? this.#ownPush!;
		this.#leave = kind.metaTold
			? this.push.watch({
					heard: (streamer, m) => m.type === kind.metaTold && this.#drop(streamer),
					listening: () => {
						this.#forget();
						this.#heard = true;
					},
					lost: () => this.#forget()
				})
			: () => {};
	}

	async read(streamer: string, keys: readonly string[] = []): Promise<Kept<M, E>> {
		const cached = this.#metas.get(streamer);
		if (cached) {
			// Least recently read last: the first is the one to drop.
			this.#metas.delete(streamer);
			this.#metas.set(streamer, cached);
			return { ...structuredClone(cached), entries: await this.#entries(this.db, streamer, keys) };
		}
		const epoch = this.#epoch;
		// One statement: the meta and the entries as one snapshot.
		const entries = this.#entriesSql(streamer, keys);
		const { rows } = await sql<Row>`
			select null as key, value from kept_meta where streamer_id = ${streamer} and kind = ${this.kind.name}
			${entries ? sql`union all ${entries}` : sql``}`.execute(this.db);
		const metaRow = rows.find((r) => r.key === null);
		const meta = metaRow ? this.#meta(streamer, metaRow.value) : this.kind.empty();
		if (this.kind.metaTold && this.#heard && epoch === this.#epoch) {
			this.#metas.set(streamer, structuredClone(meta));
			if (this.#metas.size > META_CACHED_MAX) this.#metas.delete(this.#metas.keys().next().value!);
		}
		return { ...meta, entries: this.#entriesOf(streamer, rows) };
	}

	async update<T>(streamer: string, change: Change<M, E, T>, keys: readonly string[] = []) {
		const kind = this.kind.name;
		let metaChanged = false;
		const value = await this.db.transaction().execute(async (tx): Promise<T> => {
			// One statement makes the row if there is none and locks it till the commit (an upsert
			// that changes nothing still takes the row's lock), handing back the meta: a first change
			// of two instances at once waits on the same row.
			const { rows } = await sql<{ value: unknown }>`
				insert into kept_meta (streamer_id, kind, value)
				values (${streamer}, ${kind}, ${JSON.stringify(this.kind.empty())}::jsonb)
				on conflict (streamer_id, kind) do update set kind = excluded.kind
				returning value`.execute(tx);
			// Every entry read, an unreadable one too: a change that writes it replaces it.
			const stored = new Set<string>();
			const was = {
				...this.#meta(streamer, rows[0].value),
				entries: await this.#entries(tx, streamer, keys, stored)
			};
			const applied = applyChange(was, change);
			if (!changed(applied)) return applied.value;
			metaChanged = applied.meta !== null;
			if (applied.meta)
				await sql`update kept_meta set value = ${JSON.stringify(applied.meta)}::jsonb
					where streamer_id = ${streamer} and kind = ${kind}`.execute(tx);
			const added = applied.entries.filter(([key]) => !stored.has(key));
			const replaced = applied.entries.filter(([key]) => stored.has(key));
			if (added.length > 0) await this.#write(tx, streamer, added, sql`on conflict do nothing`);
			if (replaced.length > 0)
				await this.#write(
					tx,
					streamer,
					replaced,
					sql`on conflict (streamer_id, kind, key) do update set value = excluded.value,
						open = excluded.open, drop_at = excluded.drop_at`
				);
			for (const m of applied.told) await this.push.publish(streamer, m, tx);
			return applied.value;
		});
		if (metaChanged) this.#drop(streamer);
		this.#pruneNowAndThen();
		return value;
	}

	async add(streamer: string, entries: readonly [string, E][]): Promise<Record<string, E>> {
		if (entries.length === 0) return {};
		await this.#write(this.db, streamer, entries, sql`on conflict do nothing`);
		this.#pruneNowAndThen();
		return this.#entries(
			this.db,
			streamer,
			entries.map(([key]) => key)
		);
	}

	/** The streamers with open entries; the entries past keeping go first. */
	async streamers(): Promise<string[]> {
		await this.#prune();
		const { rows } = await sql<{ streamer_id: string }>`
			select distinct streamer_id from kept_entries where kind = ${this.kind.name} and open`.execute(
			this.db
		);
		return rows.map((r) => r.streamer_id);
	}

	/** Stops listening and waits for a prune under way; call before the database is destroyed. */
	close(): Promise<void> {
		return (this.#closed ??= (async () => {
			this.#leave();
			await this.#ownPush?.close();
			await this.#pruning;
			this.#forget();
		})());
	}

	/** The open entries and those of `keys` (null: none to read): two selects, each on its index. */
	#entriesSql(streamer: string, keys: readonly string[]): RawBuilder<Row> | null {
		const kind = this.kind.name;
		const open = this.kind.open
			? sql<Row>`select key, value from kept_entries
				where streamer_id = ${streamer} and kind = ${kind} and open`
			: null;
		if (keys.length === 0) return open;
		const named = sql<Row>`select key, value from kept_entries
			where streamer_id = ${streamer} and kind = ${kind} and key = any(${[...keys]}::text[])`;
		return open ? sql<Row>`${open} union all ${named} and not open` : named;
	}

	async #entries(
		db: Kysely<Database>,
		streamer: string,
		keys: readonly string[],
		stored?: Set<string>
	) {
		const entries = this.#entriesSql(streamer, keys);
		if (!entries) return {};
		const { rows } = await entries.execute(db);
		return this.#entriesOf(streamer, rows, stored);
	}

	/** Entries read back (their keys added to `stored`); one that cannot be read is skipped, logged. */
	#entriesOf(streamer: string, rows: Row[], stored?: Set<string>): Record<string, E> {
		const entries: Record<string, E> = {};
		for (const r of rows) {
			if (r.key === null) continue;
			stored?.add(r.key);
			const e = this.kind.entry.safeParse(jsonColumn(r.value));
			if (e.success) entries[r.key] = e.data;
			else console.error(`[${this.kind.name}] the stored entry ${streamer} ${r.key} is unreadable`);
		}
		return entries;
	}

	/** A stored meta read back; one that cannot be read is the empty one, and logged. */
	#meta(streamer: string, stored: unknown): M {
		const meta = this.kind.meta.safeParse(jsonColumn(stored));
		if (meta.success) return meta.data;
		// The fields only, never the values (a moderation rule's blocked words).
		const fields = meta.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
		console.error(`[${this.kind.name}] the stored state of ${streamer} is unreadable (${fields})`);
		return this.kind.unreadable?.(jsonColumn(stored)) ?? this.kind.empty();
	}

	/** Entries as rows: arrays, not a row of parameters each (one statement text for any count). */
	async #write(
		tx: Kysely<Database>,
		streamer: string,
		entries: readonly [string, E][],
		onConflict: RawBuilder<unknown>
	): Promise<void> {
		const column = <T>(f: (key: string, e: E) => T) => entries.map(([key, e]) => f(key, e));
		await sql`insert into kept_entries (streamer_id, kind, key, value, open, drop_at)
			select ${streamer}, ${this.kind.name}, e.key, e.value::jsonb, e.open, e.drop_at
			from unnest(
				${column((k) => k)}::text[], ${column((_, e) => JSON.stringify(e))}::text[],
				${column((_, e) => this.kind.open?.(e) ?? false)}::boolean[],
				${column((_, e) => this.kind.dropAt(e))}::bigint[]
			) as e(key, value, open, drop_at)
			${onConflict}`.execute(tx);
	}

	/** Deletes the entries past keeping, in the background, at most once per PRUNE_EVERY_MS. */
	#pruneNowAndThen(): void {
		if (this.#pruning || this.#closed || this.#now() - this.#prunedAt < PRUNE_EVERY_MS) return;
		void this.#prune();
	}

	#prune(): Promise<void> {
		this.#prunedAt = this.#now();
		return (this.#pruning ??= sql`delete from kept_entries
			where kind = ${this.kind.name} and drop_at < ${this.#prunedAt}`
			.execute(this.db)
			.then(
				() => {},
				(err: Error) => console.error(`[${this.kind.name}] pruning failed:`, err.message)
			)
			.finally(() => (this.#pruning = null)));
	}

	/** Nothing in memory can be trusted any more (not listening, or changes may be missed). */
	#forget(): void {
		this.#heard = false;
		this.#metas.clear();
		this.#epoch++;
	}

	#drop(streamer: string): void {
		this.#metas.delete(streamer);
		this.#epoch++;
	}
}
