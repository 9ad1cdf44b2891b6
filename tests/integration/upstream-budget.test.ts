// The upstream's limits kept as budgets by a hosted instance, against the real
// simulator with low limits: claims go before reads when a budget is nearly spent, so they never
// meet a 429, and a 429 (or a spent budget) is waited out instead of being sent into again.
import { describe, expect, it } from 'vitest';
import { serveHosted } from '../../src/hosted/serve.ts';
import { BudgetedUpstreamClient, UpstreamBudget } from '../../src/server/upstream-budget.ts';
import { Browser, keyIn, startHosted } from '../fixtures/hosted.ts';
import { readyTip, simsPerTest, type Sim } from '../fixtures/sim.ts';

const start = simsPerTest();

/** The part of /healthz these tests read (UpstreamBudgetSnapshot). */
interface HealthBudget {
	queued: { claims: number; reads: number };
	held: number;
	refusedHere: number;
	upstream429: number;
}

function client(sim: Sim, budget: UpstreamBudget, apiKey: string) {
	return new BudgetedUpstreamClient(budget, apiKey, () => ({
		baseUrl: sim.baseUrl,
		wsUrl: sim.wsUrl,
		apiKey
	}));
}

describe('an instance’s upstream budgets', { timeout: 60_000 }, () => {
	it('with the budget nearly spent, reads wait and every claim gets through without a 429', async () => {
		// 10 calls per key per 3-second window; the instance keeps 3 of them for claims.
		const sim = await start({ perKeyPerMinute: 10, perIpPerMinute: 1000, rateWindowMs: 3000 });
		const tips = [];
		for (let i = 0; i < 4; i++) tips.push(await readyTip(sim, { message: `tip ${i}` }));
		const key = sim.control.addKey({ name: 'Instance' });
		const budget = new UpstreamBudget({
			policy: { perIp: 1000, perAuthorization: 10, reserve: 0.3, claimShare: 0, windowMs: 60_000 },
			maxWaitMs: 5000
		});
		const upstream = client(sim, budget, key.value);
		expect((await upstream.call('GET', '/tts/queue')).status).toBe(200);

		// Ten different reads (identical ones would share one call).
		const reads = Array.from({ length: 10 }, (_, i) =>
			upstream.call('GET', `/tts/history?limit=${i + 1}`)
		);
		// One tip plays at a time: start, finish, the next.
		const claims: number[] = [];
		for (const tip of tips)
			for (const step of ['start', 'finish'])
				claims.push((await upstream.call('POST', `/tts/${tip.order_id}/${step}`)).status);
		expect(claims).toEqual(claims.map(() => 200));
		expect((await Promise.all(reads)).map((r) => r.status)).toEqual(reads.map(() => 200));

		const sent = sim.control.log.requests().filter((r) => r.key === key.id);
		expect(sent).toHaveLength(1 + 10 + 8);
		expect(sent.filter((r) => r.status === 429)).toEqual([]);
		expect(budget.budgetSnapshot().held).toBeGreaterThan(0);
		// Every tip was played once.
		for (const tip of tips) expect(sim.control.model.tts.find(tip.order_id)).toBeUndefined();
	});

	it('after a 429 nothing more is sent on that budget until its reset; others go on', async () => {
		const sim = await start({ perKeyPerMinute: 100, perIpPerMinute: 1000 });
		const tip = await readyTip(sim);
		const budget = new UpstreamBudget({
			policy: { perIp: 1000, perAuthorization: 100, reserve: 0.1, claimShare: 0, windowMs: 60_000 },
			maxWaitMs: 5000
		});
		const a = sim.control.addKey({ name: 'Streamer A' });
		const b = sim.control.addKey({ name: 'Streamer B' });
		sim.control.failHttp({ status: 429, count: 1 });
		const refused = await client(sim, budget, a.value).call('GET', '/tts/queue');
		expect(refused.status).toBe(429);
		const reset = Number(refused.headers.get('RateLimit-Reset'));
		expect(reset).toBeGreaterThan(5);

		const before = sim.control.log.requests().length;
		// Even a claim is answered here, with the reset still to wait: the page waits it out.
		const held = await client(sim, budget, a.value).call('POST', `/tts/${tip.order_id}/start`);
		expect(held.status).toBe(429);
		expect(Number(held.headers.get('RateLimit-Reset'))).toBeLessThanOrEqual(reset);
		expect(Number(held.headers.get('RateLimit-Reset'))).toBeGreaterThan(5);
		expect(sim.control.log.requests().length).toBe(before);
		// Another authorization's budget is its own.
		expect((await client(sim, budget, b.value).call('GET', '/tts/queue')).status).toBe(200);
		expect(budget.budgetSnapshot()).toMatchObject({
			upstream429: 1,
			refusedHere: 1,
			authorizations: { spent: 1 }
		});
	});

	it('/healthz reports the budgets the instance keeps: a streamer’s nearly spent authorization saturates it', async () => {
		// 10 calls per authorization per minute; the instance keeps 1 of them for claims.
		const sim = await start({ perKeyPerMinute: 10, perIpPerMinute: 1000 });
		const hosted = await startHosted(sim, {
			budget: {
				policy: {
					perIp: 1000,
					perAuthorization: 10,
					reserve: 0.1,
					claimShare: 0,
					windowMs: 60_000
				},
				maxWaitMs: 1000
			}
		});
		try {
			const browser = new Browser(hosted.publicUrl);
			await browser.signIn(sim);
			const key = keyIn(await browser.dashboard())!;
			const health = async () =>
				(await (await fetch(`${hosted.origin}/healthz`)).json()) as {
					ok: boolean;
					upstream: Record<string, unknown>;
				};
			const me = () => fetch(`${hosted.origin}/api/me`, { headers: { 'x-overlay-key': key } });
			expect((await me()).status).toBe(200);
			expect((await health()).upstream).toMatchObject({
				authorizations: { known: 1, nearlySpent: 0, spent: 0 },
				saturated: false
			});
			// Down to the reserve: reads of this streamer wait, and the instance says it is saturated.
			let remaining = Infinity;
			while (remaining > 1) {
				const res = await me();
				expect(res.status).toBe(200);
				remaining = Number(res.headers.get('RateLimit-Remaining'));
			}
			const body = await health();
			expect(body.ok).toBe(true);
			expect(body.upstream).toMatchObject({
				authorizations: { known: 1, nearlySpent: 1 },
				saturated: true,
				queued: { claims: 0, reads: 0 },
				upstream429: 0
			});
			// What a call of this streamer would wait for, the instance answers itself.
			expect((await me()).status).toBe(429);
			expect((await health()).upstream).toMatchObject({ refusedHere: 1 });
			const metrics = await (await fetch(`${hosted.origin}/metrics`)).text();
			expect(metrics).toMatch(/^tip_upstream_refused_here_total 1$/m);
			expect(metrics).toMatch(/^tip_upstream_held_calls_total 0$/m);
			expect(sim.control.log.requests().filter((r) => r.status === 429)).toEqual([]);
		} finally {
			await hosted.close();
		}
	});

	it('/healthz and /metrics show the calls held back now, held in all, and refused here', async () => {
		// 10 calls per authorization per 4-second window; the instance keeps 1 of them for claims
		// and holds a call up to 10 s: a read of a nearly spent budget waits for the reset.
		const sim = await start({ perKeyPerMinute: 10, perIpPerMinute: 1000, rateWindowMs: 4000 });
		const hosted = await startHosted(sim, {
			budget: {
				policy: {
					perIp: 1000,
					perAuthorization: 10,
					reserve: 0.1,
					claimShare: 0,
					windowMs: 60_000
				},
				maxWaitMs: 10_000
			},
			// The reads below spend the authorization's budget alone: no intake reads it too, nor
			// keeps /me for them.
			intakes: false
		});
		try {
			const browser = new Browser(hosted.publicUrl);
			await browser.signIn(sim);
			const key = keyIn(await browser.dashboard())!;
			const health = async () =>
				((await (await fetch(`${hosted.origin}/healthz`)).json()) as { upstream: HealthBudget })
					.upstream;
			const metric = async (name: string) => {
				const text = await (await fetch(`${hosted.origin}/metrics`)).text();
				const m = new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(text);
				return m ? Number(m[1]) : null;
			};
			const me = () => fetch(`${hosted.origin}/api/me`, { headers: { 'x-overlay-key': key } });
			expect(await metric('tip_upstream_held_calls_total')).toBe(0);
			expect(await metric('tip_upstream_refused_here_total')).toBe(0);
			let remaining = Infinity;
			while (remaining > 1) {
				const res = await me();
				expect(res.status).toBe(200);
				remaining = Number(res.headers.get('RateLimit-Remaining'));
			}
			// The next read waits for the window's reset: held now, seen on both endpoints.
			const held = me();
			while ((await health()).queued.reads === 0) await new Promise((r) => setTimeout(r, 20));
			expect(await health()).toMatchObject({ queued: { claims: 0, reads: 1 }, held: 1 });
			expect(await metric('tip_upstream_held_calls{priority="read"}')).toBe(1);
			expect(await metric('tip_upstream_held_calls{priority="claim"}')).toBe(0);
			expect(await metric('tip_upstream_held_calls_total')).toBe(1);
			expect(await metric('tip_upstream_budget_saturated')).toBe(1);
			// Then sent: nothing held any more, one held in all, nothing refused, no 429 upstream.
			expect((await held).status).toBe(200);
			expect(await health()).toMatchObject({
				queued: { claims: 0, reads: 0 },
				held: 1,
				refusedHere: 0,
				upstream429: 0
			});
			expect(await metric('tip_upstream_held_calls{priority="read"}')).toBe(0);
			expect(await metric('tip_upstream_held_calls_total')).toBe(1);
			expect(await metric('tip_upstream_refused_here_total')).toBe(0);
			expect(sim.control.log.requests().filter((r) => r.status === 429)).toEqual([]);
		} finally {
			await hosted.close();
		}
	});

	it('an instance whose UPSTREAM_LOCAL_ADDRESS is not this machine’s does not start', async () => {
		const started = serveHosted({
			config: {
				mode: 'demo',
				host: '127.0.0.1',
				port: 0,
				databaseUrl: null,
				dataDir: '',
				publicUrl: 'http://127.0.0.1:1',
				secretKey: 'upstream-budget-test-secret-0123456789abcdef',
				// TEST-NET-1 (RFC 5737): never an address of this machine; nothing is sent to it.
				localAddress: '192.0.2.1',
				oauth: null
			},
			upstream: { issuer: 'http://127.0.0.1:1', clientId: 'oc_x', baseUrl: '', wsUrl: '' },
			dist: '/nonexistent'
		});
		await expect(started).rejects.toThrow(/UPSTREAM_LOCAL_ADDRESS: 192\.0\.2\.1 is not an address/);
	});
});
