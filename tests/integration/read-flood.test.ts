// Alerts first, through the token endpoint against the real simulator: a flood of reads
// with tips flowing holds back no claim (the claims' share of each rate window is kept from
// reads), identical reads cost the upstream one call and never answer with data older than the
// read, and a reader over its allowance is answered 429 here, never sent on.
import { describe, expect, it } from 'vitest';
import {
	DEFAULT_READ_LIMITS,
	UNLIMITED_READS,
	type ReadLimits
} from '../../src/core/read-allowance.ts';
import { BudgetedUpstreamClient, UpstreamBudget } from '../../src/server/upstream-budget.ts';
import type { Fetch } from '../../src/server/upstream.ts';
import { readsShared } from '../../src/server/read-flights.ts';
import { simsPerTest, until, type Sim } from '../fixtures/sim.ts';
import { send, simUpstream, tokenEndpoint } from '../fixtures/token-endpoint.ts';

const start = simsPerTest();
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The single-mode endpoint (serve.ts) on its own key of `sim`, with the budget of the documented
 * rules on a window `windowMs` long of `perKey` calls (the simulator's, compressed).
 */
async function endpoint(
	sim: Sim,
	o: { perKey: number; windowMs: number; readLimits?: ReadLimits; fetch?: Fetch }
) {
	const key = sim.control.addKey({ name: 'Token endpoint' });
	const upstream = simUpstream(sim, key.value);
	const budget = new UpstreamBudget({
		policy: {
			perIp: 100_000,
			perAuthorization: o.perKey,
			reserve: 0.1,
			claimShare: 0.5,
			windowMs: o.windowMs
		}
	});
	const client = new BudgetedUpstreamClient(budget, 'streamer', () => upstream, o.fetch);
	const { app } = tokenEndpoint(upstream, { upstream: client, readLimits: o.readLimits });
	const sent = () => sim.control.log.requests().filter((r) => r.key === key.id);
	return { app, budget, sent };
}

describe('a flood of reads', { timeout: 60_000 }, () => {
	it('with tips flowing: every claim goes at once, none held or refused, while reads wait', async () => {
		// 40 calls per 10-second window (a minute's 240, scaled): 20 of them kept for claims.
		const sim = await start({ perKeyPerMinute: 40, perIpPerMinute: 100_000, rateWindowMs: 10_000 });
		const { app, budget, sent } = await endpoint(sim, {
			perKey: 40,
			windowMs: 10_000,
			readLimits: UNLIMITED_READS
		});
		let flooding = true;
		const reads: Promise<Response>[] = [];
		// The flood of docs/upstream.md, scaled like the window: three reads of the queue every 150 ms,
		// and other reads besides that no call can share.
		const flood = (async () => {
			for (let i = 0; flooding; i++) {
				for (const path of ['/api/tts/queue', '/api/tts/queue', '/api/tts/queue'])
					reads.push(send(app, 'GET', path));
				reads.push(send(app, 'GET', `/api/tts/history?limit=${(i % 50) + 1}`));
				await pause(150);
			}
		})();
		// A tip every 1.25 s for two windows and more: its start, then its finish.
		const claims: number[] = [];
		for (let i = 0; i < 16; i++) {
			const tip = sim.control.createTip({ name: 'Viewer', amount: 5, message: `tip ${i}` });
			const id = tip.order_id;
			await until(() => sim.control.model.tts.find(id)?.tts_url != null);
			claims.push((await send(app, 'POST', `/api/tts/${id}/start`)).status);
			await pause(200);
			claims.push((await send(app, 'POST', `/api/tts/${id}/finish`)).status);
			await pause(1050);
		}
		flooding = false;
		await flood;
		const answered = await Promise.all(reads);

		expect(claims).toEqual(claims.map(() => 200));
		const b = budget.budgetSnapshot();
		// No claim ever waited for the budget, and the upstream refused nothing.
		expect(b.heldClaims).toBe(0);
		expect(b.upstream429).toBe(0);
		expect(sent().filter((r) => r.status === 429)).toEqual([]);
		// The flood was cut: reads were held for the claims, and those that would have waited longer
		// than a page does were answered 429 here with the wait (the page waits it out).
		expect(b.held).toBeGreaterThan(0);
		expect(b.refusedHere).toBeGreaterThan(0);
		for (const r of answered.filter((r) => r.status !== 200)) {
			expect(r.status).toBe(429);
			expect(Number(r.headers.get('RateLimit-Reset'))).toBeGreaterThan(0);
		}
		expect(answered.length).toBeGreaterThan(sent().filter((r) => r.method === 'GET').length);
	});

	it('N identical reads while the budget holds reads cost one upstream call, answered to all', async () => {
		// 10 calls per 3-second window; the budget's own window is a minute long, so that of its
		// claims' share only the reserve (1 call) and a fraction of another are left this late.
		const sim = await start({ perKeyPerMinute: 10, perIpPerMinute: 100_000, rateWindowMs: 3000 });
		const { app, budget, sent } = await endpoint(sim, {
			perKey: 10,
			windowMs: 60_000,
			readLimits: UNLIMITED_READS
		});
		// Down to what the claims keep: the next reads wait for the reset.
		let remaining = Infinity;
		while (remaining > 2) {
			const res = await send(app, 'GET', '/api/me');
			remaining = Number(res.headers.get('RateLimit-Remaining'));
		}
		const before = sent().length;
		const reads = await Promise.all(
			Array.from({ length: 12 }, () => send(app, 'GET', '/api/tts/queue'))
		);
		expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
		const bodies = await Promise.all(reads.map((r) => r.text()));
		expect(new Set(bodies).size).toBe(1);
		expect(
			sent()
				.slice(before)
				.map((r) => `${r.method} ${r.path}`)
		).toEqual(['GET /tts/queue']);
		expect(budget.budgetSnapshot().held).toBe(1);
	});

	it('a read that arrives once an identical call is on its way gets the next call’s, fresher answer', async () => {
		const sim = await start({ perKeyPerMinute: 1000, perIpPerMinute: 100_000 });
		// The first read's answer is held on its way back until the test lets it go.
		let release!: () => void;
		const held = new Promise<void>((r) => (release = r));
		let gets = 0;
		const gated: Fetch = async (input, init) => {
			const res = await fetch(input, init);
			if (init?.method === 'GET' && ++gets === 1) await held;
			return res;
		};
		const { app, sent } = await endpoint(sim, { perKey: 1000, windowMs: 60_000, fetch: gated });
		const first = send(app, 'GET', '/api/tts/queue');
		await until(() => gets === 1);
		// A tip comes after the first call was answered upstream: the reads arriving now must see it.
		const tip = sim.control.createTip({ name: 'Late', amount: 5, message: 'after the first read' });
		const shared = readsShared();
		const later = Array.from({ length: 8 }, () => send(app, 'GET', '/api/tts/queue'));
		// All eight wait behind the first call: one starts the next call, seven join it.
		await until(() => readsShared() - shared === 7);
		release();
		const ids = async (res: Promise<Response>) =>
			((await (await res).json()) as { items: { order_id: string }[] }).items.map(
				(t) => t.order_id
			);
		expect(await ids(first)).not.toContain(tip.order_id);
		for (const seen of await Promise.all(later.map(ids))) expect(seen).toContain(tip.order_id);
		// The eight shared one call, sent after the first ended.
		expect(sent().filter((r) => r.path === '/tts/queue')).toHaveLength(2);
	});

	it('a reader over its allowance is answered 429 with Retry-After; the upstream never sees it; claims go on', async () => {
		const sim = await start({ perKeyPerMinute: 1000, perIpPerMinute: 100_000 });
		const { app, sent } = await endpoint(sim, { perKey: 1000, windowMs: 60_000 });
		const { burst } = DEFAULT_READ_LIMITS.address;
		const reads = await Promise.all(
			Array.from({ length: burst + 20 }, (_, i) =>
				send(app, 'GET', `/api/tts/history?limit=${(i % 100) + 1}`, { client: 'flood' })
			)
		);
		const refused = reads.filter((r) => r.status === 429);
		expect(refused).toHaveLength(20);
		expect(refused[0].headers.get('Retry-After')).toBe('2');
		expect(await refused[0].json()).toMatchObject({ code: 'too_many_reads' });
		expect(sent().filter((r) => r.method === 'GET')).toHaveLength(burst);
		// The streamer's own sources, at another address, still read; a claim is never limited.
		expect((await send(app, 'GET', '/api/tts/queue', { client: 'obs' })).status).toBe(200);
		const tip = sim.control.createTip({ name: 'Viewer', amount: 5, message: 'hi' });
		await until(() => sim.control.model.tts.find(tip.order_id)?.tts_url != null);
		const claim = await send(app, 'POST', `/api/tts/${tip.order_id}/start`, { client: 'flood' });
		expect(claim.status).toBe(200);
	});
});
