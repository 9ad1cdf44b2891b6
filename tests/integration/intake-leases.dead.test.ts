// An instance's death seen at once (src/hosted/intake-leases.ts, the alive lock): on a PostgreSQL
// server each instance holds an advisory lock on its lease connection, which a killed process
// lets go with its session. Its leases are then taken a little over a tick after it was last
// seen, not a whole lease later; an instance that is only quiet, its session alive, keeps them.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leaseDatabase, openDatabase, type Db } from '../../src/hosted/db.ts';
import { IntakeLeases } from '../../src/hosted/intake-leases.ts';
import type { HostedStore } from '../../src/hosted/store.ts';
import { pause } from '../fixtures/hosted-instances.ts';
import { grant, me, openForSuite, serverUrl, storeEngines } from '../fixtures/hosted-store.ts';

/** Leases long enough that only a death seen through the lock can free them within the test. */
const TIMES = { ttlMs: 120_000, aliveMs: 110_000, deadMs: 300 };

const servers = storeEngines().filter(([name]) => name === 'PostgreSQL server');

describe.skipIf(servers.length === 0).each(servers)('an instance dead, on %s', (_name, open) => {
	let db: Db;
	let store: HostedStore;
	openForSuite(open, (opened) => ({ db, store } = opened));

	/** An instance with a database handle (and so a session) of its own. */
	async function instance() {
		const own = await openDatabase({ databaseUrl: await serverUrl(db) });
		return { own, leases: new IntakeLeases(leaseDatabase(own), randomUUID(), TIMES) };
	}

	it('has its leases taken once its session has ended, long before they expire', async () => {
		const { streamer } = await store.signedIn(me(1), grant(1));
		const a = await instance();
		const b = await instance();
		try {
			await a.leases.renew();
			expect(await a.leases.take(10)).toEqual([{ streamer: streamer.id, epoch: 1 }]);
			await b.leases.renew();

			// Quiet past deadMs, its session alive: it still counts, and keeps its lease.
			await pause(TIMES.deadMs * 2);
			expect((await b.leases.renew()).instances).toBe(2);
			expect(await b.leases.take(10)).toEqual([]);

			// Its process gone: its session ends, and the lock with it.
			await a.own.destroy();
			await pause(TIMES.deadMs * 2);
			expect((await b.leases.renew()).instances).toBe(1);
			expect(await b.leases.take(10)).toEqual([{ streamer: streamer.id, epoch: 2 }]);
		} finally {
			await b.own.destroy();
		}
	});
});
