// What several of the migrations' tables have alike (migrations.ts), spelled once. Migrations that
// shipped call these, so their DDL stays as it is: a table that needs other columns gets a new
// migration, never a changed helper.
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/** The `streamer_id` column: a streamer's rows are deleted with the streamer. */
export const streamerId =
	(rows: 'one' | 'many') =>
	(c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
		(rows === 'one' ? c.primaryKey() : c.notNull()).references('streamers.id').onDelete('cascade');

/**
 * A table of a streamer's rows, `streamer_id` first. 'one': one row per streamer (the primary key);
 * 'many': any number of rows.
 */
export function streamerTable(db: Kysely<unknown>, table: string, rows: 'one' | 'many') {
	return db.schema.createTable(table).addColumn('streamer_id', 'text', streamerId(rows));
}

/** An overlay key or a control key (streamer-keys.ts): the same columns and index for both. */
export async function keyTable(db: Kysely<unknown>, table: 'overlay_keys' | 'control_keys') {
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
export async function dropTables(db: Kysely<unknown>, tables: string[]) {
	for (const t of tables) await db.schema.dropTable(t).execute();
}
