// Hosted mode's storage on both databases it supports: embedded PGlite and a real
// PostgreSQL server (a throwaway one). The same migrations, the same queries; secrets sealed at
// rest; keys and sessions looked up by keyed hash; reads batched; one streamer never reaching
// another's rows. The refresh locks have their own file (hosted-store.locks.test.ts).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/hosted/crypto.ts';
import type { Db } from '../../src/hosted/db.ts';
import { HostedStore } from '../../src/hosted/store.ts';
import {
	countingStore,
	grant,
	me,
	openForSuite,
	SECRET,
	storeEngines
} from '../fixtures/hosted-store.ts';

describe.each(storeEngines())('hosted store on %s', (_name, open) => {
	let db: Db;
	let store: HostedStore;
	openForSuite(open, (opened) => ({ db, store } = opened));

	it('signs a streamer in once per tenant, with an overlay key that resolves to them', async () => {
		const first = await store.signedIn(me(1), grant(1));
		expect(first.created).toBe(true);
		const key = (await store.overlayKey(first.streamer.id))!;
		expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(await store.resolveOverlayKey(key)).toEqual({ streamerId: first.streamer.id });
		// A re-authorization updates the same streamer, replaces the grant, keeps the key.
		const again = await store.signedIn({ ...me(1), name: 'Renamed' }, grant(2));
		expect(again).toMatchObject({ created: false, streamer: { id: first.streamer.id } });
		expect(await store.overlayKey(first.streamer.id)).toBe(key);
		expect((await store.grant(first.streamer.id))?.refreshToken).toBe('rt_secret_2');
		expect((await store.streamer(first.streamer.id))?.name).toBe('Renamed');
	});

	it('keeps tokens and keys sealed at rest: no secret appears in any row', async () => {
		const { streamer } = await store.signedIn(me(2), grant(3));
		const key = (await store.overlayKey(streamer.id))!;
		const dump = JSON.stringify([
			await db.selectFrom('grants').selectAll().execute(),
			await db.selectFrom('overlay_keys').selectAll().execute()
		]);
		for (const secret of ['rt_secret_3', 'at_secret_3', key]) expect(dump).not.toContain(secret);
		// Another secret cannot open them.
		const other = new HostedStore(db, new SecretBox('another-secret-of-at-least-32-characters'));
		expect(await other.resolveOverlayKey(key)).toBeNull();
	});

	it('opens what an older secret sealed after a rotation, and seals with the new one', async () => {
		const { streamer } = await store.signedIn(me(3), grant(4));
		const key = (await store.overlayKey(streamer.id))!;
		const rotated = new HostedStore(db, new SecretBox(`k2:${'n'.repeat(40)},k1:${SECRET}`));
		expect(await rotated.resolveOverlayKey(key)).toEqual({ streamerId: streamer.id });
		expect((await rotated.grant(streamer.id))?.accessToken).toBe('at_secret_4');
		const fresh = await rotated.newOverlayKey(streamer.id);
		const row = await db
			.selectFrom('overlay_keys')
			.select('sealed')
			.where('replaced_at', 'is', null)
			.where('streamer_id', '=', streamer.id)
			.executeTakeFirstOrThrow();
		expect(row.sealed.startsWith('v1.k2.')).toBe(true);
		expect(await rotated.resolveOverlayKey(fresh)).toEqual({ streamerId: streamer.id });
	});

	it('a new overlay key stops the old one at once, which then reads as replaced', async () => {
		const { streamer } = await store.signedIn(me(4), grant(5));
		const old = (await store.overlayKey(streamer.id))!;
		const fresh = await store.newOverlayKey(streamer.id);
		expect(fresh).not.toBe(old);
		expect(await store.resolveOverlayKey(old)).toEqual({ replaced: true });
		expect(await store.resolveOverlayKey(fresh)).toEqual({ streamerId: streamer.id });
		expect(await store.resolveOverlayKey('x'.repeat(43))).toBeNull();
		expect(await store.resolveOverlayKey('')).toBeNull();
	});

	it('sessions are found by token until they expire or end', async () => {
		const { streamer } = await store.signedIn(me(5), grant(6));
		const token = await store.createSession(streamer.id, 60_000);
		expect(await store.session(token)).toBe(streamer.id);
		const stored = await db.selectFrom('sessions').select('hash').execute();
		expect(JSON.stringify(stored)).not.toContain(token);
		await store.endSession(token);
		expect(await store.session(token)).toBeNull();
		const short = await store.createSession(streamer.id, -1);
		expect(await store.session(short)).toBeNull();
	});

	it('a sign-in attempt is used once', async () => {
		await store.beginSignIn('state-abc', 'verifier-xyz', 60_000);
		expect(await store.takeSignIn('state-abc')).toBe('verifier-xyz');
		expect(await store.takeSignIn('state-abc')).toBeNull();
		await store.beginSignIn('state-old', 'v', -1);
		expect(await store.takeSignIn('state-old')).toBeNull();
	});

	it('a refresh is marked before it is sent, once, and its answer stored under the next generation', async () => {
		const { streamer } = await store.signedIn(me(6), grant(7));
		const g = (await store.grant(streamer.id))!;
		expect(await store.markRefreshing(streamer.id, g.generation)).toBe(true);
		// A second writer (another request, another instance) does not send a second refresh.
		expect(await store.markRefreshing(streamer.id, g.generation)).toBe(false);
		expect((await store.grant(streamer.id))?.refreshingSince).toBeInstanceOf(Date);
		expect(await store.storeRefreshed(streamer.id, g.generation, grant(8))).toBe(true);
		const after = (await store.grant(streamer.id))!;
		expect(after).toMatchObject({
			refreshToken: 'rt_secret_8',
			accessToken: 'at_secret_8',
			generation: g.generation + 1,
			refreshingSince: null
		});
		// A writer that read the older generation stores nothing.
		expect(await store.storeRefreshed(streamer.id, g.generation, grant(9))).toBe(false);
		expect((await store.grant(streamer.id))?.refreshToken).toBe('rt_secret_8');
	});

	it('reads of several streamers asked for together go as one query, each caller getting their own', async () => {
		const a = (await store.signedIn(me(60), grant(60))).streamer;
		const b = (await store.signedIn(me(61), grant(61))).streamer;
		const c = (await store.signedIn(me(62), grant(62))).streamer;
		await store.disconnect(c.id);
		const { store: counted, queries } = countingStore(db);
		const [ga, gb, gc, nobody] = await Promise.all([
			counted.streamerAndGrant(a.id),
			counted.streamerAndGrant(b.id),
			counted.streamerAndGrant(c.id),
			counted.streamerAndGrant('st_nobody')
		]);
		expect(queries()).toBe(1);
		expect([ga.streamer?.name, ga.grant?.refreshToken]).toEqual(['Streamer 60', 'rt_secret_60']);
		expect([gb.streamer?.name, gb.grant?.refreshToken]).toEqual(['Streamer 61', 'rt_secret_61']);
		expect([gc.streamer?.status, gc.grant]).toEqual(['disconnected', null]);
		expect(nobody).toEqual({ streamer: null, grant: null });
		// One after another: a query each, each seeing the writes before it.
		await counted.storeRefreshed(a.id, (await counted.grant(a.id))!.generation, grant(63));
		expect((await counted.grant(a.id))?.refreshToken).toBe('rt_secret_63');
		expect(queries()).toBe(4);
	});

	it.runIf(_name === 'PostgreSQL server')(
		'runs a streamer’s reads as one prepared statement per connection, parsed once',
		async () => {
			const { streamer } = await store.signedIn(me(40), grant(40));
			// One at a time: the pool keeps reusing one connection, which this then reads.
			for (let i = 0; i < 5; i++) await store.grant(streamer.id);
			const { rows } = await db.connection().execute((conn) =>
				sql<{
					statement: string;
					generic_plans: string;
					custom_plans: string;
				}>`select statement, generic_plans, custom_plans from pg_prepared_statements`.execute(conn)
			);
			const reads = rows.filter((r) =>
				/from "streamers" as "s" left join "grants"/.test(r.statement)
			);
			expect(reads).toHaveLength(1);
			expect(Number(reads[0].generic_plans) + Number(reads[0].custom_plans)).toBeGreaterThanOrEqual(
				5
			);
		}
	);

	it('Disconnect drops the tokens and turns the key off for that streamer only', async () => {
		const a = (await store.signedIn(me(7), grant(9))).streamer;
		const b = (await store.signedIn(me(8), grant(10))).streamer;
		const keyA = (await store.overlayKey(a.id))!;
		const keyB = (await store.overlayKey(b.id))!;
		await store.disconnect(a.id);
		expect(await store.grant(a.id)).toBeNull();
		expect(await store.resolveOverlayKey(keyA)).toEqual({ replaced: true });
		expect((await store.streamer(a.id))?.status).toBe('disconnected');
		expect(await store.resolveOverlayKey(keyB)).toEqual({ streamerId: b.id });
		expect((await store.grant(b.id))?.refreshToken).toBe('rt_secret_10');
		// Signing in again brings a new key.
		await store.signedIn(me(7), grant(11));
		const back = (await store.overlayKey(a.id))!;
		expect(back).not.toBe(keyA);
		expect(await store.resolveOverlayKey(back)).toEqual({ streamerId: a.id });
	});
});
