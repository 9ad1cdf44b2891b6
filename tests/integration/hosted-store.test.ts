// Hosted mode's storage (issue 19) on both databases it supports: embedded PGlite and a real
// PostgreSQL server (a throwaway one). The same migrations, the same queries; secrets sealed at
// rest; keys and sessions looked up by keyed hash; one streamer never reaching another's rows.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/hosted/crypto.ts';
import { LOCK_POOL_MAX, openDatabase, type Db } from '../../src/hosted/db.ts';
import { migrate } from '../../src/hosted/migrations.ts';
import { DbGrantStore } from '../../src/hosted/connections.ts';
import { HostedStore, type Grant } from '../../src/hosted/store.ts';
import { postgresMissing, startPostgres, type PostgresServer } from './postgres-server.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const grant = (n: number) => ({
	refreshToken: `rt_secret_${n}`,
	accessToken: `at_secret_${n}`,
	expiresAt: new Date(Date.now() + 3600_000),
	scopes: 'tts:read tts:control'
});
const me = (n: number) => ({ tenantId: `t_${n}`, name: `Streamer ${n}`, currency: 'USD' });

const missing = postgresMissing();
if (missing && process.env.CI) throw new Error(`CI needs PostgreSQL: ${missing}`);

const engines: [string, () => Promise<{ db: Db; close: () => Promise<void> }>][] = [
	[
		'PGlite (embedded)',
		async () => {
			const db = await openDatabase({ dataDir: null });
			return { db, close: () => db.destroy() };
		}
	]
];
let server: PostgresServer | null = null;
if (!missing)
	engines.push([
		'PostgreSQL server',
		async () => {
			server ??= await startPostgres();
			const db = await openDatabase({ databaseUrl: server.url });
			// A clean schema per suite.
			await sql`drop schema public cascade; create schema public`.execute(db);
			return { db, close: () => db.destroy() };
		}
	]);
afterAll(async () => {
	await server?.stop();
});

describe.each(engines)('hosted store on %s', (_name, open) => {
	let db: Db;
	let close: () => Promise<void>;
	let store: HostedStore;

	beforeAll(async () => {
		({ db, close } = await open());
		expect(await migrate(db)).toEqual(['001-streamers-keys-sessions', '002-access-refresh-at']);
		// Applying again is a no-op (every instance migrates at start).
		expect(await migrate(db)).toEqual([]);
		store = new HostedStore(db, new SecretBox(SECRET));
	}, 60_000);
	afterAll(async () => {
		await close();
	});

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

	it('a streamer’s refresh lock has one holder at a time; other streamers’ locks are free', async () => {
		const { streamer } = await store.signedIn(me(9), grant(11));
		const other = (await store.signedIn(me(10), grant(12))).streamer;
		const order: string[] = [];
		let release!: () => void;
		let entered!: () => void;
		const gate = new Promise<void>((r) => (release = r));
		const aIn = new Promise<void>((r) => (entered = r));
		const hold = (name: string, id: string, wait: Promise<void> | null) =>
			store.refreshLock(id, async (locked) => {
				order.push(`${name} in`);
				if (name !== 'other') entered();
				// The holder's store works while it holds the lock (on the lock's own connection).
				expect((await locked.grant(id))?.generation).toBe(0);
				await wait;
				order.push(`${name} out`);
			});
		// Whichever of a, b and c takes the lock first holds it until the gate opens.
		const a = hold('a', streamer.id, gate);
		const b = hold('b', streamer.id, gate);
		const c = hold('c', streamer.id, gate);
		// While one holds it, the other two wait; another streamer's refresh does not.
		await aIn;
		await hold('other', other.id, null);
		expect(order).toHaveLength(3);
		expect(order[0]).toMatch(/^[abc] in$/);
		expect(order.slice(1)).toEqual(['other in', 'other out']);
		release();
		await Promise.all([a, b, c]);
		const held = order.filter((e) => !e.startsWith('other'));
		expect(held).toHaveLength(6);
		for (let i = 0; i < held.length; i += 2)
			expect(held[i + 1]).toBe(held[i].replace(' in', ' out'));
		await store.settled();
	});

	it('a lock holder whose connection the server ends fails its refresh, frees the lock, and the process lives on', async () => {
		const { streamer } = await store.signedIn(me(13), grant(14));
		const onServer = _name === 'PostgreSQL server';
		const broken = store.refreshLock(streamer.id, async (locked) => {
			if (onServer) {
				// The server ends the holder's connection (found by its advisory lock) while the
				// holder waits between two statements, as it does for its upstream call: an error
				// on a checked-out connection, which must not be thrown as an uncaught one.
				const { rows } = await sql<{ ended: boolean }>`
					select pg_terminate_backend(pid) as ended from pg_locks
					where locktype = 'advisory' and granted and pid <> pg_backend_pid()`.execute(db);
				expect(rows.map((r) => r.ended)).toEqual([true]);
				await new Promise((r) => setTimeout(r, 200));
			}
			// Its next statement fails on the server: the refresh fails, nothing is stored.
			return (await locked.grant(streamer.id))?.refreshToken;
		});
		if (onServer) await expect(broken).rejects.toThrow();
		else expect(await broken).toBe('rt_secret_14');
		// The lock went with the connection: the next refresh of the streamer takes it at once.
		const next = await store.refreshLock(
			streamer.id,
			async (locked) => (await locked.grant(streamer.id))?.refreshToken
		);
		expect(next).toBe('rt_secret_14');
		await store.settled();
	});

	it('a token the upstream rotated while the lock holder lost its connection is still stored', async () => {
		const { streamer } = await store.signedIn(me(15), grant(16));
		const grants = new DbGrantStore(store, streamer.id, { issuer: 'https://up', clientId: 'c' });
		const before = (await grants.read())!;
		const onServer = _name === 'PostgreSQL server';
		await grants.shared.exclusive(async () => {
			// Marked before it is sent, on the lock's connection.
			await grants.write({ ...before, status: 'refreshing' });
			// The upstream answers with a rotated token while PostgreSQL ends that connection.
			if (onServer)
				await sql`select pg_terminate_backend(pid) from pg_locks
					where locktype = 'advisory' and granted and pid <> pg_backend_pid()`.execute(db);
			await grants.write(
				{ ...before, status: 'connected', refresh_token: 'rt_rotated_16' },
				{ token: 'at_rotated_16', refreshAt: Date.now() + 60_000, expiresAt: Date.now() + 120_000 }
			);
		});
		// Stored through another connection: the streamer goes on with the rotated token.
		const after = (await store.grant(streamer.id))!;
		expect(after.refreshToken).toBe('rt_rotated_16');
		expect(after.refreshingSince).toBeNull();
		expect(after.generation).toBe(1);
		await store.settled();
	});

	it.runIf(_name === 'PostgreSQL server')(
		'the next holder of a streamer’s lock reads the rotated token, even when its commit is slow',
		async () => {
			const { streamer } = await store.signedIn(me(17), grant(18));
			// The rotated token's write (the one that clears the mark) takes 600 ms to commit: a
			// trigger deferred to the commit. The holder's last statement frees the lock too; were
			// it free before the commit, the waiter below would take it in those 600 ms, find the
			// mark, and send the streamer to Reconnect.
			await sql`create function slow_commit() returns trigger language plpgsql
				as $$ begin perform pg_sleep(0.6); return null; end $$`.execute(db);
			await sql`create constraint trigger slow_commit after update on grants
				deferrable initially deferred for each row when (new.refreshing_since is null)
				execute function slow_commit()`.execute(db);
			try {
				let next!: Promise<Grant | null>;
				await store.refreshLock(streamer.id, async (locked) => {
					const g = (await locked.grant(streamer.id))!;
					expect(await locked.markRefreshing(streamer.id, g.generation)).toBe(true);
					next = store.refreshLock(streamer.id, (waiter) => waiter.grant(streamer.id));
					await new Promise((r) => setTimeout(r, 100));
					expect(await locked.storeRefreshed(streamer.id, g.generation, grant(19))).toBe(true);
				});
				expect(await next).toMatchObject({
					refreshToken: 'rt_secret_19',
					generation: 1,
					refreshingSince: null
				});
			} finally {
				await sql`drop trigger slow_commit on grants; drop function slow_commit()`.execute(db);
			}
			await store.settled();
		}
	);

	it.runIf(_name === 'PostgreSQL server')(
		'with every connection of the locks’ pool busy, a refresh whose token has expired goes before one started ahead of expiry',
		async () => {
			const ids: string[] = [];
			for (let n = 0; n < LOCK_POOL_MAX + 2; n++)
				ids.push((await store.signedIn(me(100 + n), grant(100 + n))).streamer.id);
			const [ahead, expired, ...busy] = ids;
			// Each holder waits for its own gate: one turn at a time is given back below, so the two
			// queued refreshes cannot both get a connection at once and race each other.
			const opens: (() => void)[] = [];
			const gates = busy.map(() => new Promise<void>((r) => opens.push(r)));
			let inside = 0;
			let allIn!: () => void;
			const full = new Promise<void>((r) => (allIn = r));
			const holders = busy.map((id, n) =>
				store.refreshLock(id, async () => {
					if (++inside === busy.length) allIn();
					await gates[n];
				})
			);
			await full;
			const order: string[] = [];
			// Asked first, due in 10 s (a refresh ahead of expiry); then one whose token has expired.
			const a = store.refreshLock(
				ahead,
				async () => void order.push('ahead'),
				undefined,
				Date.now() + 10_000
			);
			const b = store.refreshLock(
				expired,
				async () => void order.push('expired'),
				undefined,
				Date.now() - 1
			);
			await new Promise((r) => setTimeout(r, 50));
			expect(order).toEqual([]);
			// One connection comes free: the expired one gets it; the one ahead waits for its end.
			opens[0]();
			await Promise.all([holders[0], a, b]);
			expect(order).toEqual(['expired', 'ahead']);
			for (const open of opens) open();
			await Promise.all(holders);
			await store.settled();
		}
	);

	it.runIf(_name === 'PostgreSQL server')(
		'with every connection of the locks’ pool busy, a queued refresh takes the result another instance stored meanwhile, without waiting for a connection',
		async () => {
			const ids: string[] = [];
			for (let n = 0; n < LOCK_POOL_MAX + 3; n++)
				ids.push((await store.signedIn(me(120 + n), grant(120 + n))).streamer.id);
			const [queued, queuedToo, failing, ...busy] = ids;
			let open!: () => void;
			const gate = new Promise<void>((r) => (open = r));
			let inside = 0;
			let allIn!: () => void;
			const full = new Promise<void>((r) => (allIn = r));
			const holders = busy.map((id) =>
				store.refreshLock(id, async () => {
					if (++inside === busy.length) allIn();
					await gate;
				})
			);
			await full;
			// Queued behind them: two whose result another instance stores while they wait, and one
			// whose look finds the authorization ended. The looks read the rows: those of one beat
			// go to the database as one query.
			const { store: counted, queries } = countingStore();
			let stored = false;
			let looks = 0;
			const ran: string[] = [];
			const look = async (id: string) => {
				looks++;
				expect((await counted.grant(id))?.refreshToken).toMatch(/^rt_secret_12\d$/);
				return stored ? 'adopted' : null;
			};
			const adopted = store.refreshLock(
				queued,
				async () => (ran.push('queued'), 'refreshed'),
				() => look(queued)
			);
			const adoptedToo = store.refreshLock(
				queuedToo,
				async () => (ran.push('queuedToo'), 'refreshed'),
				() => look(queuedToo)
			);
			const ended = store.refreshLock(
				failing,
				async () => (ran.push('failing'), 'refreshed'),
				async () => {
					throw new Error('the authorization ended');
				}
			);
			await expect(ended).rejects.toThrow('the authorization ended');
			await expect.poll(() => looks).toBeGreaterThan(1);
			stored = true;
			// Every holder still holds its connection: the result came from a look, not the lock.
			expect(await adopted).toBe('adopted');
			expect(await adoptedToo).toBe('adopted');
			expect(queries()).toBeLessThan(looks);
			expect(inside).toBe(busy.length);
			open();
			await Promise.all(holders);
			expect(ran).toEqual([]);
			// Both gave their places up: every connection of the pool can be had again.
			const again = await Promise.all(ids.map((id) => store.refreshLock(id, async () => id)));
			expect(again).toEqual(ids);
			expect(store.lockStats().connecting).toBe(0);
			await store.settled();
		}
	);

	/** A store on `db` that counts the queries it sends. */
	const countingStore = () => {
		let n = 0;
		const counting = db.withPlugin({
			transformQuery: (args) => (n++, args.node),
			transformResult: async (args) => args.result
		});
		return { store: new HostedStore(counting, new SecretBox(SECRET)), queries: () => n };
	};

	it('reads of several streamers asked for together go as one query, each caller getting their own', async () => {
		const a = (await store.signedIn(me(60), grant(60))).streamer;
		const b = (await store.signedIn(me(61), grant(61))).streamer;
		const c = (await store.signedIn(me(62), grant(62))).streamer;
		await store.disconnect(c.id);
		const { store: counted, queries } = countingStore();
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
