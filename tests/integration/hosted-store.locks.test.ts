// The hosted store's refresh locks on both databases hosted mode supports: one
// holder per streamer at a time, a holder whose connection the server ends, a rotated token still
// stored when its holder lost its connection, and, on PostgreSQL, the order and the shortcuts of
// refreshes queued while every connection of the lock pool is busy.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DbGrantStore } from '../../src/hosted/connections.ts';
import { LOCK_POOL_MAX, type Db } from '../../src/hosted/db.ts';
import type { Grant, HostedStore } from '../../src/hosted/store.ts';
import { countingStore, grant, me, openForSuite, storeEngines } from '../fixtures/hosted-store.ts';

describe.each(storeEngines())('hosted store on %s', (_name, open) => {
	let db: Db;
	let store: HostedStore;
	openForSuite(open, (opened) => ({ db, store } = opened));

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
			// whose check for a stored result finds the authorization ended. Each check
			// (`checkStored`) reads the rows: the checks asked for at the same moment go to the database as one query.
			const { store: counted, queries } = countingStore(db);
			let stored = false;
			let checks = 0;
			const ran: string[] = [];
			const checkStored = async (id: string) => {
				checks++;
				expect((await counted.grant(id))?.refreshToken).toMatch(/^rt_secret_12\d$/);
				return stored ? 'adopted' : null;
			};
			const adopted = store.refreshLock(
				queued,
				async () => (ran.push('queued'), 'refreshed'),
				() => checkStored(queued)
			);
			const adoptedToo = store.refreshLock(
				queuedToo,
				async () => (ran.push('queuedToo'), 'refreshed'),
				() => checkStored(queuedToo)
			);
			const ended = store.refreshLock(
				failing,
				async () => (ran.push('failing'), 'refreshed'),
				async () => {
					throw new Error('the authorization ended');
				}
			);
			await expect(ended).rejects.toThrow('the authorization ended');
			await expect.poll(() => checks).toBeGreaterThan(1);
			stored = true;
			// Every holder still holds its connection: the result came from a check, not the lock.
			expect(await adopted).toBe('adopted');
			expect(await adoptedToo).toBe('adopted');
			expect(queries()).toBeLessThan(checks);
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
});
