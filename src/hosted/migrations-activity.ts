// The Activity's tables (docs/activity.md; src/hosted/activity-store.ts), a migration of
// migrations.ts kept apart for its length. Never edit it once shipped: a change is a new migration.
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';

/**
 * `activity_entries`: a streamer's entries by id, `at` and `id` their place newest first (the list's
 * index), `name_key` the lower-case name the search matches from its start (its own index);
 * `activity_events`: the event ids applied, so that an event heard twice changes nothing;
 * `activity_starts`: the stream's start as the streamer set it.
 */
export const ACTIVITY_MIGRATION: Migration = {
	async up(db: Kysely<unknown>) {
		const streamer = (c: ColumnDefinitionBuilder) =>
			c.notNull().references('streamers.id').onDelete('cascade');
		await db.schema
			.createTable('activity_entries')
			.addColumn('streamer_id', 'text', streamer)
			.addColumn('id', 'text', (c) => c.notNull())
			.addColumn('at', 'timestamptz', (c) => c.notNull())
			.addColumn('kind', 'text', (c) => c.notNull())
			.addColumn('name_key', 'text')
			.addColumn('entry', 'jsonb', (c) => c.notNull())
			.addPrimaryKeyConstraint('activity_entries_pk', ['streamer_id', 'id'])
			.execute();
		await sql`create index activity_entries_list on activity_entries (streamer_id, at desc, id desc)`.execute(
			db
		);
		await sql`create index activity_entries_name on activity_entries (streamer_id, name_key text_pattern_ops)`.execute(
			db
		);
		await sql`create index activity_entries_at on activity_entries (at)`.execute(db);
		await db.schema
			.createTable('activity_events')
			.addColumn('streamer_id', 'text', streamer)
			.addColumn('event_id', 'text', (c) => c.notNull())
			.addColumn('at', 'timestamptz', (c) => c.notNull())
			.addPrimaryKeyConstraint('activity_events_pk', ['streamer_id', 'event_id'])
			.execute();
		await sql`create index activity_events_at on activity_events (at)`.execute(db);
		await db.schema
			.createTable('activity_starts')
			.addColumn('streamer_id', 'text', (c) =>
				c.primaryKey().references('streamers.id').onDelete('cascade')
			)
			.addColumn('at', 'timestamptz', (c) => c.notNull())
			.execute();
	},
	async down(db: Kysely<unknown>) {
		for (const t of ['activity_starts', 'activity_events', 'activity_entries'])
			await db.schema.dropTable(t).execute();
	}
};
