// The calling address's budget kept by two hosted instances (src/hosted/address-ledger.ts) whose
// own clocks differ by six seconds, on both databases hosted mode supports: each counts the other's
// calls for exactly as long as they are in the window, by the database's clock, neither missing
// them early nor keeping them late.
import { afterEach, describe, expect, it } from 'vitest';
import type { AddressPolicy } from '../../src/core/address-share.ts';
import type { Db } from '../../src/hosted/db.ts';
import { AddressLedger } from '../../src/hosted/address-ledger.ts';
import { openForSuite, storeEngines } from '../fixtures/hosted-store.ts';
import { until } from '../fixtures/sim.ts';

const WINDOW_MS = 8000;
const POLICY: AddressPolicy = { limit: 240, reserve: 0.1, claimShare: 0.5, windowMs: WINDOW_MS };
/** Instance A's clock runs 2 s behind the database's, B's 4 s ahead. */
const SKEW = { a: -2000, b: 4000 };

describe.each(storeEngines())(
	'the address budget of instances with different clocks, on %s',
	(_name, open) => {
		let db: Db;
		openForSuite(open, (opened) => ({ db } = opened));
		const ledgers: AddressLedger[] = [];
		afterEach(async () => {
			await Promise.all(ledgers.splice(0).map((l) => l.close()));
		});

		it('each counts the other’s calls while they are in the window, and only then', async () => {
			const clock = { a: () => Date.now() + SKEW.a, b: () => Date.now() + SKEW.b };
			const a = new AddressLedger(db, POLICY, { egress: 'skewed', now: clock.a });
			const b = new AddressLedger(db, POLICY, { egress: 'skewed', now: clock.b });
			ledgers.push(a, b);
			await a.start();
			await b.start();
			/** Both have written what they sent and read what the other did. */
			const synced = async () => {
				await a.start();
				await b.start();
				await a.start();
			};
			const seen = () => ({ a: a.snapshot(clock.a()), b: b.snapshot(clock.b()) });

			const sentAt = Date.now();
			for (let i = 0; i < 5; i++) a.spent('s_a', 'read', clock.a());
			for (let i = 0; i < 3; i++) a.spent('', 'claim', clock.a());
			for (let i = 0; i < 4; i++) b.spent('s_b', 'read', clock.b());
			for (let i = 0; i < 2; i++) b.spent('', 'claim', clock.b());
			await synced();
			const both = { reads: 9, claims: 5, instances: 2 };
			expect(seen()).toEqual({
				a: expect.objectContaining(both),
				b: expect.objectContaining(both)
			});

			// 3.5 s later, well inside the 8 s window by any clock: B, 4 s ahead, still counts A's calls
			// (by its own clock they would be 9.5 s old and gone), and A still counts B's.
			await until(() => Date.now() >= sentAt + 3500, 10_000);
			await synced();
			expect(seen()).toEqual({
				a: expect.objectContaining(both),
				b: expect.objectContaining(both)
			});

			// Past the window by the database's clock: neither counts anything any more (by A's own clock,
			// 2 s behind, B's calls would be 2 s old and still counted).
			await until(() => Date.now() >= sentAt + WINDOW_MS + 1500, 15_000);
			await synced();
			const none = { reads: 0, claims: 0 };
			expect(seen()).toEqual({
				a: expect.objectContaining(none),
				b: expect.objectContaining(none)
			});
		}, 30_000);
	}
);
