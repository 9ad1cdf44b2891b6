// How the streamers' intakes spread over hosted instances (src/hosted/intakes.ts,
// intake-leases.ts), on both databases hosted mode supports: three instances sharing one database,
// started one after another once the ones before hold everyone. Those give up, ten a tick, what
// they hold above their share plus a tenth, and only the one short of its share takes it: a lease
// moves once, never to an instance that already holds its share (which gave it up again).
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/hosted/db.ts';
import { HostedIntakes } from '../../src/hosted/intakes.ts';
import type { HostedStore } from '../../src/hosted/store.ts';
import { noPush as push, unreachable as upstream } from '../fixtures/hosted-intakes.ts';
import { grant, me, openForSuite, storeEngines } from '../fixtures/hosted-store.ts';
import { eventually as until } from '../fixtures/sim.ts';

const STREAMERS = 90;

describe.each(storeEngines())('hosted intakes spread, on %s', (_name, open) => {
	let db: Db;
	let store: HostedStore;
	openForSuite(open, (opened) => ({ db, store } = opened));

	it('moves each lease once to the instance started last, none between the others', async () => {
		for (let n = 1; n <= STREAMERS; n++) await store.signedIn(me(n), grant(n));
		const start = () => {
			const intakes = new HostedIntakes(db, push, {
				upstreamOf: () => upstream,
				tickMs: 100,
				ttlMs: 1000,
				log: () => {}
			});
			intakes.start();
			return intakes;
		};
		const all = [start()];
		const held = () => all.map((i) => i.status().held);
		const sum = () => held().reduce((a, b) => a + b, 0);
		try {
			await until(() => held()[0] === STREAMERS);
			all.push(start());
			// Its share is 45; the first gives up 10 a tick down to 50.
			await until(() => sum() === STREAMERS && held()[0] === 50);
			const before = all.map((i) => i.status().takeovers);
			all.push(start());
			// A share of 30 and a tenth: 33 at most. The first gives up 17 over two ticks, the
			// second 7 in one; neither takes what the other gives up.
			await until(() => sum() === STREAMERS && Math.max(...held()) <= 33);
			expect(held()).toEqual([33, 33, 24]);
			expect(all.slice(0, 2).map((i) => i.status().takeovers)).toEqual(before);
			expect(all[2].status().takeovers).toBe(24);
		} finally {
			await Promise.all(all.map((i) => i.close()));
		}
	});
});
