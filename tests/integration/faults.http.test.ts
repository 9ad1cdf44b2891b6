// Fault injection of the simulator (docs/simulator.md, Faults on demand): injected HTTP failures
// through both ways to steer it, and the request log.
import { describe, expect, it } from 'vitest';
import { RateLimitedBody, TtsQueueBody } from '../../src/contract/index.ts';
import { api } from '../fixtures/sim.ts';
import { start, control, VIA, type Via } from './faults.setup.ts';

describe.each(VIA)('faults through %s', (via: Via) => {
	const handle = via === 'the control handle';

	it('failHttp 429 answers N requests with 429, RateLimit headers and an error-only body', async () => {
		const sim = await start();
		if (handle) sim.control.failHttp({ status: 429, count: 2 });
		else await control(sim, 'faults/http', { status: 429, count: 2 });

		for (let i = 0; i < 2; i++) {
			const res = await api(sim, 'GET', '/tts/queue');
			expect(res.status).toBe(429);
			expect(Object.keys(res.body)).toEqual(['error']);
			expect(RateLimitedBody.safeParse(res.body).success).toBe(true);
			for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
				expect(res.headers.get(h), h).toMatch(/^\d+$/);
		}
		const ok = await api(sim, 'GET', '/tts/queue');
		expect(ok.status).toBe(200);
		expect(TtsQueueBody.safeParse(ok.body).success).toBe(true);
	});

	it('failHttp 502 answers N requests with 502, then normal service', async () => {
		const sim = await start();
		if (handle) sim.control.failHttp({ status: 502, count: 3 });
		else await control(sim, 'faults/http', { status: 502, count: 3 });
		const statuses: number[] = [];
		for (let i = 0; i < 4; i++) statuses.push((await api(sim, 'GET', '/me')).status);
		expect(statuses).toEqual([502, 502, 502, 200]);
	});

	it('failHttp with a duration fails every request until the time has passed', async () => {
		const sim = await start();
		const forMs = 600;
		const setAt = Date.now();
		if (handle) sim.control.failHttp({ status: 502, forMs });
		else await control(sim, 'faults/http', { status: 502, for_ms: forMs });

		const statuses: number[] = [];
		const deadline = Date.now() + 15_000;
		while (Date.now() < deadline) {
			const status = (await api(sim, 'GET', '/tts/queue')).status;
			statuses.push(status);
			if (status === 200) break;
			await new Promise((r) => setTimeout(r, 50));
		}
		expect(statuses[0]).toBe(502);
		expect(statuses.at(-1)).toBe(200);
		expect(statuses.slice(0, -1).every((s) => s === 502)).toBe(true);
		expect(Date.now() - setAt).toBeGreaterThanOrEqual(forMs);
		// And it stays normal.
		expect((await api(sim, 'GET', '/tts/queue')).status).toBe(200);
	});

	it('failHttp limited to a path prefix fails only matching calls', async () => {
		const sim = await start();
		if (handle) sim.control.failHttp({ status: 502, count: 2, match: '/tts/' });
		else await control(sim, 'faults/http', { status: 502, count: 2, match: '/tts/' });

		expect((await api(sim, 'GET', '/media/queue')).status).toBe(200);
		expect((await api(sim, 'GET', '/me')).status).toBe(200);
		expect((await api(sim, 'GET', '/tts/queue')).status).toBe(502);
		expect((await api(sim, 'GET', '/counters')).status).toBe(200);
		expect((await api(sim, 'GET', '/tts/history')).status).toBe(502);
		// The count is spent on matching calls only; then the prefix works again.
		expect((await api(sim, 'GET', '/tts/queue')).status).toBe(200);
	});

	it('an injected HTTP failure still demands a valid credential first', async () => {
		const sim = await start();
		if (handle) sim.control.failHttp({ status: 502, count: 1 });
		else await control(sim, 'faults/http', { status: 502, count: 1 });
		expect((await api(sim, 'GET', '/me', { key: null })).status).toBe(401);
		expect((await api(sim, 'GET', '/me')).status).toBe(502);
	});
});

describe('the request log', () => {
	it('sim.control.log records method, path and status of every API call', async () => {
		const sim = await start();
		const key = sim.control.addKey({ scopes: ['tts:read'] });
		await api(sim, 'GET', '/tts/queue');
		await api(sim, 'GET', '/tts/queue', { key: null });
		await api(sim, 'POST', '/counters/deaths/increment', { key: key.value });
		await api(sim, 'POST', '/tts/tip_1_nope/start');
		sim.control.failHttp({ status: 429, count: 1 });
		await api(sim, 'GET', '/me');

		const rows = sim.control.log
			.requests()
			.map(({ method, path, status }) => ({ method, path, status }));
		expect(rows).toEqual([
			{ method: 'GET', path: '/tts/queue', status: 200 },
			{ method: 'GET', path: '/tts/queue', status: 401 },
			{ method: 'POST', path: '/counters/deaths/increment', status: 403 },
			{ method: 'POST', path: '/tts/tip_1_nope/start', status: 404 },
			{ method: 'GET', path: '/me', status: 429 }
		]);
		const [, unauthorized, forbidden] = sim.control.log.requests();
		expect(unauthorized.code).toBe('missing_api_key');
		expect(forbidden).toMatchObject({ code: 'missing_scope', key: key.id });
	});

	it('GET /_sim/log returns API calls and events, and since=N returns only newer entries', async () => {
		const sim = await start();
		const tip = await api(sim, 'POST', '/tips', { body: { name: 'Ada', amount: 2 } });
		const all = await (await fetch(`${sim.origin}/_sim/log`)).json();
		const requests = all.entries.filter((e: any) => e.kind === 'request');
		expect(requests).toEqual([
			expect.objectContaining({
				method: 'POST',
				path: '/tips',
				status: 201,
				seq: expect.any(Number)
			})
		]);
		const created = all.entries.find((e: any) => e.kind === 'event' && e.type === 'tip.created');
		expect(created).toMatchObject({
			id: expect.stringMatching(/^evt_/),
			order_id: tip.body.tip.order_id
		});

		const last = Math.max(...all.entries.map((e: any) => e.seq));
		await api(sim, 'GET', '/counters');
		const newer = await (await fetch(`${sim.origin}/_sim/log?since=${last}`)).json();
		const newerRequests = newer.entries.filter((e: any) => e.kind === 'request');
		expect(newerRequests.map((e: any) => [e.method, e.path, e.status])).toEqual([
			['GET', '/counters', 200]
		]);
		expect(newer.entries.every((e: any) => e.seq > last)).toBe(true);
	});
});
