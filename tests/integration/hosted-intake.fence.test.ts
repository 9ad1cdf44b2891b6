// A hosted instance whose renews come too late (src/hosted/intakes.ts, the fence), on both
// databases hosted mode supports: one instance alone, its database answering a renew late or not
// at all for longer than a lease. The fence stops its intakes before their leases can run out;
// once the database answers again, the instance runs its intakes again (under the lease it kept,
// or under a new epoch once it ran out), never renewing a lease it does not run.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { jsonColumn, type Db } from '../../src/hosted/db.ts';
import { HostedIntakes } from '../../src/hosted/intakes.ts';
import type { HostedStore } from '../../src/hosted/store.ts';
import { noPush as push, unreachable as upstream } from '../fixtures/hosted-intakes.ts';
import { grant, me, openForSuite, storeEngines } from '../fixtures/hosted-store.ts';
import { eventually as until } from '../fixtures/sim.ts';

const TICK_MS = 500;
const TTL_MS = 3000;

/** The database as the intakes see it: transactions refused while `away`, or one answered late. */
function gated(db: Db) {
	const gate = { away: false, lateMs: 0 };
	const transaction = () => ({
		execute: async (run: never) => {
			if (gate.away) throw new Error('database away');
			const result: unknown = await db.transaction().execute(run);
			const late = gate.lateMs;
			gate.lateMs = 0;
			await new Promise((r) => setTimeout(r, late));
			return result;
		}
	});
	const proxy = new Proxy(db, {
		get(target, prop) {
			if (prop === 'transaction') return transaction;
			const value: unknown = Reflect.get(target, prop, target);
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
	return { db: proxy, gate };
}

describe.each(storeEngines())('hosted intakes fenced, on %s', (_name, open) => {
	let db: Db;
	let store: HostedStore;
	openForSuite(open, (opened) => ({ db, store } = opened));

	const epochOf = async (streamer: string) =>
		Number(
			(
				await sql<{
					epoch: string;
				}>`select epoch from intake_leases where streamer_id = ${streamer}`.execute(db)
			).rows[0]?.epoch ?? 0
		);

	/** The `counters` part shared for `streamer`: its body, null (not sure), or 'missing'. */
	async function counters(streamer: string): Promise<unknown> {
		const { rows } = await sql<{ body: unknown }>`
			select body from view_parts where streamer_id = ${streamer} and part = 'counters'`.execute(db);
		return rows[0] ? jsonColumn(rows[0].body) : 'missing';
	}

	/** One instance on the gated database, once it holds `streamer`'s intake. */
	async function instance(streamer: string) {
		const { db: gatedDb, gate } = gated(db);
		const lines: string[] = [];
		const intakes = new HostedIntakes(gatedDb, push, {
			upstreamOf: () => upstream,
			tickMs: TICK_MS,
			ttlMs: TTL_MS,
			log: (line) => lines.push(line)
		});
		intakes.start();
		await until(() => intakes.holds(streamer));
		const fenced = () => lines.some((l) => l.includes('no lease renewed in time'));
		return { intakes, gate, fenced };
	}

	it('runs again an intake its fence stopped when the late renew kept the lease, trusting nothing shared before', async () => {
		const { streamer } = await store.signedIn(me(1), grant(1));
		const { intakes, gate, fenced } = await instance(streamer.id);
		try {
			const epoch = await epochOf(streamer.id);
			// A part shared under the lease before the fence (the intake itself never reads here).
			await sql`insert into view_parts (streamer_id, part, epoch, body)
				values (${streamer.id}, 'counters', ${epoch}, '{"counters":{}}'::jsonb)`.execute(db);
			// Renewed in time at the database, answered after the fence (TTL - TICK after the renew
			// before, a tick earlier) stopped the intake, and before the lease runs out.
			gate.lateMs = TTL_MS - TICK_MS;
			await until(fenced);
			await until(() => intakes.holds(streamer.id));
			expect(await epochOf(streamer.id)).toBe(epoch);
			// The new view is sure of nothing yet: the other instances' pages read the upstream.
			await until(async () => (await counters(streamer.id)) === null);
			expect(intakes.status()).toMatchObject({ held: 1, takeovers: 0 });
		} finally {
			await intakes.close();
		}
	});

	it('takes back, alone, the leases it let run out while the database was away', async () => {
		const { streamer } = await store.signedIn(me(2), grant(2));
		const { intakes, gate, fenced } = await instance(streamer.id);
		try {
			const epoch = await epochOf(streamer.id);
			gate.away = true;
			await until(fenced);
			await new Promise((r) => setTimeout(r, TTL_MS + 300));
			gate.away = false;
			await until(() => intakes.holds(streamer.id));
			expect(await epochOf(streamer.id)).toBe(epoch + 1);
		} finally {
			await intakes.close();
		}
	});
});
