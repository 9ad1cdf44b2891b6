// Hosted mode's stored settings (src/server/settings/store.ts): each streamer's targets in
// PostgreSQL (migration 005), shared by every instance, never read with another streamer's key
// (every statement names the streamer the credential resolved to).
// - A save or an undo is one transaction that first bumps the streamer's revision row: that row's
//   lock puts a streamer's changes one after another on every instance, so a base_revision that is
//   not the current one is a conflict, and two saves never both replace the same set.
// - Every change is published on the push channel (push-channel.ts) in its own transaction: heard
//   only once committed, on every instance, by that streamer's pages only.
// - Nothing is kept in memory: a page reads its settings when it starts and after a change, a
//   handful of reads per save, each one indexed statement.
import type { Kysely } from 'kysely';
import { z } from 'zod/mini';
import { SettingsValues, type ControlSettings, type SavedSettings } from '../contract/index.ts';
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
import { jsonColumn, type Database, type Db } from './db.ts';
import { HostedPushChannel } from './push-channel.ts';

type Next = (
	was: TargetRecord | undefined,
	count: () => Promise<number>
) => Promise<TargetRecord | 'too_many_targets' | 'nothing_to_undo'>;

export class HostedSettingsStore implements SettingsStore {
	readonly push: HostedPushChannel;
	/** The push channel when this store made it (and so closes it). */
	private readonly ownPush: HostedPushChannel | null;
	private closed: Promise<void> | null = null;

	/** Publishes on the instance's push channel (serve.ts), or on one of its own (tests). */
	constructor(
		private readonly db: Db,
		opts: { push?: HostedPushChannel } = {}
	) {
		this.ownPush = opts.push ? null : new HostedPushChannel(db);
		this.push = opts.push ?? this.ownPush!;
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

	/** Closes its own push channel, if it made one; call before the database is destroyed. */
	close(): Promise<void> {
		return (this.closed ??= (async () => {
			await this.ownPush?.close();
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
			await this.push.publish(streamer, settingsMessage(target, revision), tx);
			return savedOf(revision, target, record);
		});
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

const StoredRecord = z.object({ values: SettingsValues, history: z.array(SettingsValues) });

/** A stored row, read with the contract's schema; an unreadable one is an empty set (logged). */
function readRecord(
	streamer: string,
	target: string,
	row: { values: unknown; history: unknown }
): TargetRecord {
	const parsed = StoredRecord.safeParse({
		values: jsonColumn(row.values),
		history: jsonColumn(row.history)
	});
	if (parsed.success) return parsed.data;
	console.error(`[settings] the stored settings of ${streamer} ${target} are unreadable: none`);
	return { values: {}, history: [] };
}
