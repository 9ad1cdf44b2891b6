// The hosted schema, as versioned migrations applied at start (kysely's Migrator: it records what
// ran in kysely_migration and takes a PostgreSQL advisory lock, so instances starting together
// apply each migration once). Append new migrations; never edit one that shipped.
import { Migrator, sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import { ACTIVITY_MIGRATION } from './migrations-activity.ts';

// What several tables have alike, spelled once. Migrations that shipped call these, so their DDL
// stays as it is: a table that needs other columns gets a new migration, never a changed helper.

/** The `streamer_id` column: a streamer's rows are deleted with the streamer. */
const streamerId =
	(rows: 'one' | 'many') =>
	(c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
		(rows === 'one' ? c.primaryKey() : c.notNull()).references('streamers.id').onDelete('cascade');

/**
 * A table of a streamer's rows, `streamer_id` first. 'one': one row per streamer (the primary key);
 * 'many': any number of rows.
 */
function streamerTable(db: Kysely<unknown>, table: string, rows: 'one' | 'many') {
	return db.schema.createTable(table).addColumn('streamer_id', 'text', streamerId(rows));
}

/** An overlay key or a control key (streamer-keys.ts): the same columns and index for both. */
async function keyTable(db: Kysely<unknown>, table: 'overlay_keys' | 'control_keys') {
	await db.schema
		.createTable(table)
		.addColumn('hash', 'text', (c) => c.primaryKey())
		.addColumn('streamer_id', 'text', streamerId('many'))
		.addColumn('sealed', 'text', (c) => c.notNull())
		.addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
		.addColumn('replaced_at', 'timestamptz')
		.execute();
	await db.schema.createIndex(`${table}_streamer`).on(table).column('streamer_id').execute();
}

/** A migration's `down`: its tables dropped, the last created first. */
async function dropTables(db: Kysely<unknown>, tables: string[]) {
	for (const t of tables) await db.schema.dropTable(t).execute();
}

const MIGRATIONS: Record<string, Migration> = {
	'001-streamers-keys-sessions': {
		async up(db: Kysely<unknown>) {
			await db.schema
				.createTable('streamers')
				.addColumn('id', 'text', (c) => c.primaryKey())
				.addColumn('tenant_id', 'text', (c) => c.notNull().unique())
				.addColumn('name', 'text', (c) => c.notNull())
				.addColumn('currency', 'text', (c) => c.notNull())
				.addColumn('status', 'text', (c) => c.notNull().defaultTo('connected'))
				.addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
				.addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
				.execute();
			await streamerTable(db, 'grants', 'one')
				.addColumn('refresh_token', 'text', (c) => c.notNull())
				.addColumn('access_token', 'text')
				.addColumn('access_expires_at', 'timestamptz')
				.addColumn('scopes', 'text', (c) => c.notNull())
				.addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
				.addColumn('refreshing_since', 'timestamptz')
				.addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
				.execute();
			await keyTable(db, 'overlay_keys');
			await db.schema
				.createTable('sessions')
				.addColumn('hash', 'text', (c) => c.primaryKey())
				.addColumn('streamer_id', 'text', streamerId('many'))
				.addColumn('expires_at', 'timestamptz', (c) => c.notNull())
				.addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
				.execute();
			await db.schema
				.createTable('sign_in_attempts')
				.addColumn('state_hash', 'text', (c) => c.primaryKey())
				.addColumn('verifier', 'text', (c) => c.notNull())
				.addColumn('expires_at', 'timestamptz', (c) => c.notNull())
				.execute();
		},
		async down(db: Kysely<unknown>) {
			await dropTables(db, ['sign_in_attempts', 'sessions', 'overlay_keys', 'grants', 'streamers']);
		}
	},
	// Instances share the access token of the last refresh (with when to refresh it).
	'002-access-refresh-at': {
		async up(db: Kysely<unknown>) {
			await db.schema.alterTable('grants').addColumn('access_refresh_at', 'timestamptz').execute();
		},
		async down(db: Kysely<unknown>) {
			await db.schema.alterTable('grants').dropColumn('access_refresh_at').execute();
		}
	},
	// The dock's control keys (streamer-keys.ts): the overlay keys' columns, a table of their own
	// so that one kind can never be looked up as the other.
	'003-control-keys': {
		async up(db: Kysely<unknown>) {
			await keyTable(db, 'control_keys');
		},
		async down(db: Kysely<unknown>) {
			await dropTables(db, ['control_keys']);
		}
	},
	// Moderation (moved to kept state by 012): each streamer's rules, and the decision made for
	// each of their tips (kept 30 days, pruned by decided_at).
	'004-moderation': {
		async up(db: Kysely<unknown>) {
			await streamerTable(db, 'moderation_rules', 'one')
				.addColumn('rules', 'jsonb', (c) => c.notNull())
				.addColumn('version', 'integer', (c) => c.notNull())
				.addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
				.execute();
			await streamerTable(db, 'moderation_decisions', 'many')
				.addColumn('order_id', 'text', (c) => c.notNull())
				.addColumn('decision', 'jsonb', (c) => c.notNull())
				.addColumn('outcome', 'text', (c) => c.notNull())
				.addColumn('decided_at', 'timestamptz', (c) => c.notNull())
				.addPrimaryKeyConstraint('moderation_decisions_pkey', ['streamer_id', 'order_id'])
				.execute();
			await db.schema
				.createIndex('moderation_decisions_decided_at')
				.on('moderation_decisions')
				.column('decided_at')
				.execute();
		},
		async down(db: Kysely<unknown>) {
			await dropTables(db, ['moderation_decisions', 'moderation_rules']);
		}
	},
	// Stored settings (moved to kept state by 010): each streamer's revision (one counter for all
	// their targets), and each target's set with the sets Undo can bring back.
	'005-settings': {
		async up(db: Kysely<unknown>) {
			await streamerTable(db, 'settings_revisions', 'one')
				.addColumn('revision', 'integer', (c) => c.notNull())
				.execute();
			await streamerTable(db, 'widget_settings', 'many')
				.addColumn('target', 'text', (c) => c.notNull())
				.addColumn('values', 'jsonb', (c) => c.notNull())
				.addColumn('history', 'jsonb', (c) => c.notNull())
				.addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
				.addPrimaryKeyConstraint('widget_settings_pkey', ['streamer_id', 'target'])
				.execute();
		},
		async down(db: Kysely<unknown>) {
			await dropTables(db, ['widget_settings', 'settings_revisions']);
		}
	},
	// The calling address's budget across instances (address-ledger.ts): a minute of rows, pruned.
	'006-upstream-calls': {
		async up(db: Kysely<unknown>) {
			await db.schema
				.createTable('upstream_calls')
				.addColumn('egress', 'text', (c) => c.notNull())
				.addColumn('second', 'bigint', (c) => c.notNull())
				.addColumn('instance', 'text', (c) => c.notNull())
				.addColumn('streamer_id', 'text', (c) => c.notNull())
				.addColumn('claims', 'integer', (c) => c.notNull())
				.addColumn('reads', 'integer', (c) => c.notNull())
				.addPrimaryKeyConstraint('upstream_calls_pkey', [
					'egress',
					'second',
					'instance',
					'streamer_id'
				])
				.execute();
		},
		async down(db: Kysely<unknown>) {
			await dropTables(db, ['upstream_calls']);
		}
	},
	// Thanks in chat (moved to kept state by 011): each streamer's chat state in one row, changed under its lock.
	'007-chat': {
		async up(db: Kysely<unknown>) {
			await streamerTable(db, 'chat_state', 'one')
				.addColumn('state', 'jsonb', (c) => c.notNull())
				.addColumn('busy', 'boolean', (c) => c.notNull().defaultTo(false))
				.addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
				.execute();
		},
		async down(db: Kysely<unknown>) {
			await dropTables(db, ['chat_state']);
		}
	},
	// Thanks in chat, each tip's entry a row (moved to kept state by 011): a change reads and writes the entries
	// not done and those it names, never the day's. The entries of 007's rows move here.
	'008-chat-entries': {
		async up(db: Kysely<unknown>) {
			await streamerTable(db, 'chat_entries', 'many')
				.addColumn('order_id', 'text', (c) => c.notNull())
				.addColumn('state', 'text', (c) => c.notNull())
				.addColumn('at', 'bigint', (c) => c.notNull())
				.addColumn('entry', 'jsonb', (c) => c.notNull())
				.addPrimaryKeyConstraint('chat_entries_pkey', ['streamer_id', 'order_id'])
				.execute();
			await db.schema
				.createIndex('chat_entries_open')
				.on('chat_entries')
				.column('streamer_id')
				.where(sql.ref('state'), '<>', 'done')
				.execute();
			await db.schema
				.createIndex('chat_entries_kept')
				.on('chat_entries')
				.column('at')
				.where(sql.ref('state'), 'in', sql`('done', 'unsure')`)
				.execute();
			await sql`
				insert into chat_entries (streamer_id, order_id, state, at, entry)
				select s.streamer_id, e.key, e.value->>'state', (e.value->>'at')::bigint, e.value
				from chat_state s, jsonb_each(coalesce(s.state->'entries', '{}'::jsonb)) e
			`.execute(db);
			await sql`update chat_state set state = state - 'entries'`.execute(db);
		},
		async down(db: Kysely<unknown>) {
			await sql`
				update chat_state s set state = s.state || jsonb_build_object('entries', coalesce(
					(select jsonb_object_agg(e.order_id, e.entry) from chat_entries e
					 where e.streamer_id = s.streamer_id), '{}'::jsonb))
			`.execute(db);
			await dropTables(db, ['chat_entries']);
		}
	},
	// Every kind of a streamer's kept state (kept-store.ts): its meta in a row per streamer and
	// kind, its entries in a row each (the open ones read with every read, those past drop_at
	// deleted).
	'009-kept': {
		async up(db: Kysely<unknown>) {
			await streamerTable(db, 'kept_meta', 'many')
				.addColumn('kind', 'text', (c) => c.notNull())
				.addColumn('value', 'jsonb', (c) => c.notNull())
				.addPrimaryKeyConstraint('kept_meta_pkey', ['streamer_id', 'kind'])
				.execute();
			await streamerTable(db, 'kept_entries', 'many')
				.addColumn('kind', 'text', (c) => c.notNull())
				.addColumn('key', 'text', (c) => c.notNull())
				.addColumn('value', 'jsonb', (c) => c.notNull())
				.addColumn('open', 'boolean', (c) => c.notNull())
				.addColumn('drop_at', 'bigint')
				.addPrimaryKeyConstraint('kept_entries_pkey', ['streamer_id', 'kind', 'key'])
				.execute();
			await db.schema
				.createIndex('kept_entries_open')
				.on('kept_entries')
				.columns(['streamer_id', 'kind'])
				.where(sql.ref('open'), '=', true)
				.execute();
			await db.schema
				.createIndex('kept_entries_drop_at')
				.on('kept_entries')
				.columns(['kind', 'drop_at'])
				.where(sql.ref('drop_at'), 'is not', null)
				.execute();
		},
		async down(db: Kysely<unknown>) {
			await dropTables(db, ['kept_entries', 'kept_meta']);
		}
	},
	// Stored settings (src/server/settings/store.ts) are kept state: 005's rows move to 009's tables.
	'010-kept-settings': {
		async up(db: Kysely<unknown>) {
			await sql`
				insert into kept_meta (streamer_id, kind, value)
				select streamer_id, 'settings', jsonb_build_object('revision', revision)
				from settings_revisions
			`.execute(db);
			await sql`
				insert into kept_entries (streamer_id, kind, key, value, open)
				select streamer_id, 'settings', target,
					jsonb_build_object('values', "values", 'history', history), true
				from widget_settings
			`.execute(db);
			await dropTables(db, ['widget_settings', 'settings_revisions']);
		},
		async down(db: Kysely<unknown>) {
			await MIGRATIONS['005-settings'].up(db);
			await sql`
				insert into settings_revisions (streamer_id, revision)
				select streamer_id, (value->>'revision')::integer from kept_meta where kind = 'settings'
			`.execute(db);
			await sql`
				insert into widget_settings (streamer_id, target, "values", history)
				select streamer_id, key, value->'values', value->'history'
				from kept_entries where kind = 'settings'
			`.execute(db);
			await sql`delete from kept_entries where kind = 'settings'`.execute(db);
			await sql`delete from kept_meta where kind = 'settings'`.execute(db);
		}
	},
	// Thanks in chat (src/server/chat/store.ts) are kept state: 007's and 008's rows move to 009's
	// tables (an entry open until done; a done or unsure one dropped a day, 86400000 ms, after it
	// got there: ledger.ts KEEP_DONE_MS).
	'011-kept-chat': {
		async up(db: Kysely<unknown>) {
			await sql`
				insert into kept_meta (streamer_id, kind, value)
				select streamer_id, 'chat', state - 'entries' from chat_state
			`.execute(db);
			await sql`
				insert into kept_entries (streamer_id, kind, key, value, open, drop_at)
				select streamer_id, 'chat', order_id, entry, state <> 'done',
					case when state in ('done', 'unsure') then at + 86400000 end
				from chat_entries
			`.execute(db);
			await dropTables(db, ['chat_entries', 'chat_state']);
		},
		async down(db: Kysely<unknown>) {
			await MIGRATIONS['007-chat'].up(db);
			await MIGRATIONS['008-chat-entries'].up(db);
			await sql`
				insert into chat_state (streamer_id, state)
				select streamer_id, value from kept_meta where kind = 'chat'
			`.execute(db);
			await sql`
				insert into chat_entries (streamer_id, order_id, state, at, entry)
				select streamer_id, key, value->>'state', (value->>'at')::bigint, value
				from kept_entries where kind = 'chat'
			`.execute(db);
			await sql`delete from kept_entries where kind = 'chat'`.execute(db);
			await sql`delete from kept_meta where kind = 'chat'`.execute(db);
		}
	},
	// Moderation (src/server/moderation/store.ts) is kept state: 004's rows move to 009's tables (a
	// decision dropped 30 days, 2592000000 ms, after it was made or settled).
	'012-kept-moderation': {
		async up(db: Kysely<unknown>) {
			await sql`
				insert into kept_meta (streamer_id, kind, value)
				select streamer_id, 'moderation', jsonb_build_object('rules', rules, 'version', version)
				from moderation_rules
			`.execute(db);
			await sql`
				insert into kept_entries (streamer_id, kind, key, value, open, drop_at)
				select streamer_id, 'moderation', order_id,
					decision || jsonb_build_object('orderId', order_id), false,
					(extract(epoch from decided_at) * 1000)::bigint + 2592000000
				from moderation_decisions
			`.execute(db);
			await dropTables(db, ['moderation_decisions', 'moderation_rules']);
		},
		async down(db: Kysely<unknown>) {
			await MIGRATIONS['004-moderation'].up(db);
			await sql`
				insert into moderation_rules (streamer_id, rules, version)
				select streamer_id, value->'rules', (value->>'version')::integer
				from kept_meta where kind = 'moderation'
			`.execute(db);
			await sql`
				insert into moderation_decisions (streamer_id, order_id, decision, outcome, decided_at)
				select streamer_id, key, value, value->>'outcome', (value->>'decidedAt')::timestamptz
				from kept_entries where kind = 'moderation'
			`.execute(db);
			await sql`delete from kept_entries where kind = 'moderation'`.execute(db);
			await sql`delete from kept_meta where kind = 'moderation'`.execute(db);
		}
	},
	// The streamers' intakes (intake-leases.ts): the instances alive, which one holds each signed-in
	// streamer's intake (until expires_at, unless renewed; epoch counts the holders), and the parts
	// of the live view its holder shares with the others (body null: not sure of it).
	'013-intake-leases': {
		async up(db: Kysely<unknown>) {
			await db.schema
				.createTable('intake_instances')
				.addColumn('id', 'text', (c) => c.primaryKey())
				.addColumn('seen_at', 'timestamptz', (c) => c.notNull())
				.execute();
			await streamerTable(db, 'intake_leases', 'one')
				.addColumn('holder', 'text', (c) => c.notNull())
				.addColumn('epoch', 'bigint', (c) => c.notNull())
				.addColumn('expires_at', 'timestamptz', (c) => c.notNull())
				.execute();
			await sql`create index intake_leases_holder on intake_leases (holder)`.execute(db);
			await streamerTable(db, 'view_parts', 'many')
				.addColumn('part', 'text', (c) => c.notNull())
				.addColumn('epoch', 'bigint', (c) => c.notNull())
				.addColumn('body', 'jsonb')
				.addPrimaryKeyConstraint('view_parts_pk', ['streamer_id', 'part'])
				.execute();
		},
		async down(db: Kysely<unknown>) {
			await dropTables(db, ['view_parts', 'intake_leases', 'intake_instances']);
		}
	},
	'014-activity': ACTIVITY_MIGRATION
};

/**
 * Applies every migration not applied yet (up to `to`, tests of a migration); throws with the
 * failing one's name.
 */
export async function migrate(db: Kysely<any>, to?: string): Promise<string[]> {
	const migrator = new Migrator({
		db,
		provider: { getMigrations: async () => MIGRATIONS }
	});
	const { error, results } = await (to ? migrator.migrateTo(to) : migrator.migrateToLatest());
	const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? '';
	const why = error instanceof Error ? error.message : String(error);
	if (error) throw new Error(`database migration ${failed} failed: ${why}`);
	return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
