import { describe, expect, it } from 'vitest';
import { statementName } from '../../src/hosted/db.ts';

describe('prepared statements on a PostgreSQL server', () => {
	it('names a query by its text, the same name every time and for every instance', () => {
		const text = 'select "id", "name" from "streamers" where "id" = $1';
		const name = statementName(text);
		expect(name).toMatch(/^q_[A-Za-z0-9_-]{24}$/);
		expect(statementName(text)).toBe(name);
		expect(statementName(text.replace('"name"', '"status"'))).not.toBe(name);
		expect(
			statementName(
				'with w as (update "grants" set "x" = $1 returning "generation") select (select count(*) from w) as n'
			)
		).not.toBeNull();
	});

	it('leaves unnamed what a migration could change under it, and what is not a query', () => {
		for (const text of [
			'select * from "kysely_migration" order by "name"',
			'select "s".* from "streamers" as "s"',
			'insert into "grants" ("a") values ($1) returning *',
			'create table "grants" ("streamer_id" text)',
			'begin',
			'drop schema public cascade; create schema public'
		])
			expect(statementName(text), text).toBeNull();
	});
});
