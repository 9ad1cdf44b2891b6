// Hosted mode's stored settings (src/server/settings/store.ts): each streamer's targets in
// PostgreSQL (migration 005), shared by every instance, never read with another streamer's key
// (every statement names the streamer the credential resolved to).
// - A save or an undo is one transaction that first bumps the streamer's revision row: that row's
//   lock puts a streamer's changes one after another on every instance, so a base_revision that is
//   not the current one is a conflict, and two saves never both replace the same set.
// - Every change is sent with pg_notify in its own transaction (heard only once committed, never
//   lost while the change is kept) on the settings channel of the instance's one LISTEN
//   (moderation-listen.ts), which hands a streamer's notifications to that streamer's subscribers.
// - Nothing is kept in memory: a page reads its settings when it starts and after a change, a
//   handful of reads per save, each one indexed statement.
import { sql, type Kysely } from 'kysely';
import { z } from 'zod/mini';
import {
	SettingsValues,
	type ControlSettings,
	type LiveMessage,
	type SavedSettings
} from '../contract/index.ts';
import { LocalHub } from '../server/moderation/local-hub.ts';
import {
	afterSave,
	afterUndo,
	controlOf,
	MAX_TARGETS,
	savedOf,
	settingsMessage,
	SettingsRefused,
	type SettingsStore,
	type TargetRecord
} from '../server/settings/store.ts';
import type { Database, Db } from './db.ts';
import { InstanceListen, SETTINGS_CHANNEL } from './moderation-listen.ts';

/** A notification's payload: the streamer, the target saved or undone, the revision it made. */
const Notice = z.object({ s: z.string(), t: z.string(), v: z.int() });
type Notice = z.infer<typeof Notice>;

type Next = (
	was: TargetRecord | undefined,
	count: () => Promise<number>
) => Promise<TargetRecord | 'too_many_targets' | 'nothing_to_undo'>;

export class HostedSettingsStore implements SettingsStore {
	private readonly hub = new LocalHub();
	/** The instance's LISTEN when this store made it (and so closes it). */
	private readonly ownListen: InstanceListen | null;
	private readonly leave: () => void;
	private closed: Promise<void> | null = null;

	/** Listens at once: on the instance's LISTEN (serve.ts), or on one of its own (tests). */
	constructor(
		private readonly db: Db,
		opts: { listen?: InstanceListen } = {}
	) {
		this.ownListen = opts.listen ? null : new InstanceListen(db);
		this.leave = (opts.listen ?? this.ownListen!).join(SETTINGS_CHANNEL, {
			notified: (payload) => this.notified(payload),
			// Changes sent while it was not listening were not heard: every page reads again.
			listening: () => this.hub.publishAll({ type: 'resync' }),
			lost: () => {}
		});
	}

	/** One statement: the revision and the targets as one snapshot. */
	async read(streamer: string): Promise<ControlSettings> {
		const rows = await this.db
			.selectFrom('settings_revisions as r')
			.leftJoin('widget_settings as w', 'w.streamer_id', 'r.streamer_id')
			.select(['r.revision', 'w.target', 'w.values', 'w.history'])
			.where('r.streamer_id', '=', streamer)
			.execute();
		const records: [string, TargetRecord][] = [];
		for (const row of rows)
			if (row.target !== null) records.push([row.target, readRecord(streamer, row.target, row)]);
		return controlOf(rows[0]?.revision ?? 0, records);
	}

	save(
		streamer: string,
		target: string,
		values: SettingsValues,
		baseRevision?: number
	): Promise<SavedSettings> {
		return this.change(streamer, target, baseRevision, async (was, count) => {
			if (!was && (await count()) >= MAX_TARGETS) return 'too_many_targets';
			return afterSave(was, values);
		});
	}

	undo(streamer: string, target: string, baseRevision?: number): Promise<SavedSettings> {
		return this.change(
			streamer,
			target,
			baseRevision,
			async (was) => afterUndo(was) ?? 'nothing_to_undo'
		);
	}

	subscribe(streamer: string, listener: (m: LiveMessage) => void): () => void {
		// Its own entry: the same function subscribed twice is two subscriptions.
		return this.hub.subscribe(streamer, (m) => listener(m));
	}

	/** Stops listening (its own LISTEN: closed); call before the database is destroyed. */
	close(): Promise<void> {
		return (this.closed ??= (async () => {
			this.leave();
			await this.ownListen?.close();
		})());
	}

	/** The streamer's next revision, the target's new record, and the notice: all or nothing. */
	private change(
		streamer: string,
		target: string,
		baseRevision: number | undefined,
		next: Next
	): Promise<SavedSettings> {
		return this.db.transaction().execute(async (tx) => {
			const revision = await bumpRevision(tx, streamer);
			if (baseRevision !== undefined && baseRevision !== revision - 1)
				throw new SettingsRefused('settings_conflict', revision - 1);
			const row = await tx
				.selectFrom('widget_settings')
				.select(['values', 'history'])
				.where('streamer_id', '=', streamer)
				.where('target', '=', target)
				.executeTakeFirst();
			const record = await next(row && readRecord(streamer, target, row), () =>
				countTargets(tx, streamer)
			);
			if (typeof record === 'string') throw new SettingsRefused(record, revision - 1);
			await tx
				.insertInto('widget_settings')
				.values({
					streamer_id: streamer,
					target,
					values: JSON.stringify(record.values),
					history: JSON.stringify(record.history),
					updated_at: new Date()
				})
				.onConflict((oc) =>
					oc.columns(['streamer_id', 'target']).doUpdateSet((eb) => ({
						values: eb.ref('excluded.values'),
						history: eb.ref('excluded.history'),
						updated_at: eb.ref('excluded.updated_at')
					}))
				)
				.execute();
			await notify(tx, { s: streamer, t: target, v: revision });
			return savedOf(revision, target, record);
		});
	}

	private notified(payload: string): void {
		let notice: Notice;
		try {
			notice = Notice.parse(JSON.parse(payload));
		} catch {
			console.error('[settings] a notification that is not ours was ignored');
			return;
		}
		this.hub.publish(notice.s, settingsMessage(notice.t, notice.v));
	}
}

/** The streamer's revision, one more (its row locked until the transaction ends). */
async function bumpRevision(tx: Kysely<Database>, streamer: string): Promise<number> {
	const row = await tx
		.insertInto('settings_revisions')
		.values({ streamer_id: streamer, revision: 1 })
		.onConflict((oc) =>
			oc
				.column('streamer_id')
				.doUpdateSet((eb) => ({ revision: eb(eb.ref('settings_revisions.revision'), '+', 1) }))
		)
		.returning('revision')
		.executeTakeFirstOrThrow();
	return row.revision;
}

async function countTargets(tx: Kysely<Database>, streamer: string): Promise<number> {
	const row = await tx
		.selectFrom('widget_settings')
		.select((eb) => eb.fn.countAll<string>().as('n'))
		.where('streamer_id', '=', streamer)
		.executeTakeFirstOrThrow();
	return Number(row.n);
}

/** Sends a notice to every instance once (and only if) the transaction `tx` commits. */
async function notify(tx: Kysely<Database>, notice: Notice): Promise<void> {
	await sql`select pg_notify(${SETTINGS_CHANNEL}, ${JSON.stringify(notice)})`.execute(tx);
}

const StoredRecord = z.object({ values: SettingsValues, history: z.array(SettingsValues) });

/** A stored row, read with the contract's schema; an unreadable one is an empty set (logged). */
function readRecord(
	streamer: string,
	target: string,
	row: { values: unknown; history: unknown }
): TargetRecord {
	const parsed = StoredRecord.safeParse({ values: json(row.values), history: json(row.history) });
	if (parsed.success) return parsed.data;
	console.error(`[settings] the stored settings of ${streamer} ${target} are unreadable: none`);
	return { values: {}, history: [] };
}

/** A jsonb column: parsed by the driver, or its text (unreadable text: left to the schema). */
function json(v: unknown): unknown {
	if (typeof v !== 'string') return v;
	try {
		return JSON.parse(v);
	} catch {
		return v;
	}
}
