// The API client (src/client/api.ts) through the real token endpoint in front of a real
// simulator: proxied calls, 409 and 429 answers (docs/upstream.md, rate-limit headers), refused
// keys, malformed bodies, refused params and a silent endpoint.
import { describe, expect, it } from 'vitest';
import { ApiClient, type FetchLike } from '../../src/client/api.ts';
import { readyTip } from '../fixtures/sim.ts';
import { OVERLAY_KEY } from '../fixtures/token-endpoint.ts';
import * as routes from '../../src/contract/routes.ts';
import { rig } from './realtime-client.setup.ts';
import { freePort } from '../fixtures/ports.ts';

describe('ApiClient through the token endpoint', () => {
	it('starts and finishes a TTS item through the proxy', async () => {
		const r = await rig();
		const tip = await readyTip(r.sim);
		const started = await r.api.request(routes.ttsStart, { orderId: tip.order_id });
		expect(started).toMatchObject({ ok: true, status: 200 });
		if (!started.ok) throw new Error('start failed');
		expect(started.body.tip.order_id).toBe(tip.order_id);
		const finished = await r.api.request(routes.ttsFinish, { orderId: tip.order_id });
		if (!finished.ok) throw new Error(`finish failed: ${JSON.stringify(finished)}`);
		expect(finished.body.tip.order_id).toBe(tip.order_id);
		expect(r.endpoint.calls).toEqual([
			`POST /tts/${tip.order_id}/start`,
			`POST /tts/${tip.order_id}/finish`
		]);
		const queue = await r.api.request(routes.ttsQueue);
		expect(queue.ok && queue.body.items.some((i) => i.order_id === tip.order_id)).toBe(false);
		expect(r.api.stats).toEqual({
			total: 3,
			byRoute: { ttsStart: 1, ttsFinish: 1, ttsQueue: 1 }
		});
	});

	it('a 409 comes back with its code and body', async () => {
		const r = await rig();
		const tip = await readyTip(r.sim);
		const notPlaying = await r.api.request(routes.ttsFinish, { orderId: tip.order_id });
		expect(notPlaying).toMatchObject({ ok: false, kind: 'http', status: 409, code: 'not_playing' });
		await r.api.request(routes.ttsStart, { orderId: tip.order_id });
		const again = await r.api.request(routes.ttsStart, { orderId: tip.order_id });
		expect(again).toMatchObject({
			ok: false,
			kind: 'http',
			status: 409,
			code: 'already_playing',
			body: { current_order_id: tip.order_id }
		});
		expect(again.ok === false && again.kind === 'http' && again.retryAfterMs).toBe(undefined);
	});

	it('a 429 carries retryAfterMs from RateLimit-Reset', async () => {
		const r = await rig();
		let reset: string | null = null;
		const watching: FetchLike = async (input, init) => {
			const res = await fetch(input, init);
			reset = res.headers.get('ratelimit-reset');
			return res;
		};
		const client = new ApiClient({
			overlayKey: OVERLAY_KEY,
			baseUrl: r.endpoint.origin,
			fetch: watching
		});
		r.sim.control.failHttp({ status: 429 });
		const res = await client.request(routes.ttsQueue);
		if (res.ok || res.kind !== 'http')
			throw new Error(`expected an http failure: ${JSON.stringify(res)}`);
		expect(res.status).toBe(429);
		expect(reset).toMatch(/^\d+$/);
		const resetMs = Number(reset) * 1000;
		expect(res.retryAfterMs).toBeGreaterThanOrEqual(resetMs);
		expect(res.retryAfterMs).toBeLessThanOrEqual(resetMs + 1000);
		// The fault was one request: the next call goes through.
		expect((await client.request(routes.ttsQueue)).ok).toBe(true);
	});

	it('mintToken tells a refused overlay key apart from other failures', async () => {
		const r = await rig();
		const wrong = new ApiClient({ overlayKey: 'wrong', baseUrl: r.endpoint.origin });
		expect(await wrong.mintToken()).toEqual({
			ok: false,
			kind: 'unauthorized',
			status: 401,
			error: 'the overlay key was refused'
		});
		const right = await r.api.mintToken();
		if (!right.ok) throw new Error('mint failed');
		expect(right.body.token).toMatch(/^rth_/);
		expect(right.body.ws_url).toBe(r.sim.wsUrl);
		r.sim.control.failHttp({ status: 502 });
		expect(await r.api.mintToken()).toMatchObject({ ok: false, kind: 'http', status: 502 });
	});

	it('a body that breaks the contract is malformed, logged once per route, never thrown', async () => {
		const r = await rig();
		const tampering: FetchLike = async (input, init) => {
			const res = await fetch(input, init);
			const body = (await res.json()) as Record<string, unknown>;
			return new Response(JSON.stringify({ ...body, items: 'not a list' }), {
				status: res.status,
				headers: res.headers
			});
		};
		const client = new ApiClient({
			overlayKey: OVERLAY_KEY,
			baseUrl: r.endpoint.origin,
			fetch: tampering,
			warn: (m) => r.warnings.push(m)
		});
		const first = await client.request(routes.ttsQueue);
		expect(first).toMatchObject({ ok: false, kind: 'malformed', status: 200 });
		expect(first.ok === false && first.kind === 'malformed' && first.error).toMatch(/^items: /);
		await client.request(routes.ttsQueue);
		expect(r.warnings).toHaveLength(1);
		expect(r.warnings[0]).toMatch(/^\[api\] ttsQueue: ignoring a malformed 200 body/);
	});

	it('a param the contract refuses is never sent', async () => {
		const r = await rig();
		const res = await r.api.request(routes.ttsStart, { orderId: '../../tipping/close' });
		expect(res).toMatchObject({ ok: false, kind: 'invalid' });
		expect(r.endpoint.calls).toEqual([]);
		expect(r.sim.control.log.requests()).toEqual([]);
	});

	it('a token endpoint that does not answer is a network failure', async () => {
		const port = await freePort();
		const client = new ApiClient({ overlayKey: OVERLAY_KEY, baseUrl: `http://127.0.0.1:${port}` });
		expect(await client.request(routes.ttsQueue)).toMatchObject({ ok: false, kind: 'network' });
		expect(await client.mintToken()).toMatchObject({ ok: false, kind: 'network' });
	});

	it('only forwarded routes type-check, each with its own params', () => {
		const client = new ApiClient({ overlayKey: OVERLAY_KEY });
		// Compile-time checks only; the calls are never awaited against a server.
		const typeOnly = () => {
			// @ts-expect-error createTip is not forwarded by the token endpoint
			void client.request(routes.createTip);
			// @ts-expect-error ttsStart needs its orderId
			void client.request(routes.ttsStart);
			void client.request(routes.ttsQueue);
			void client.request(routes.mediaStart, { orderId: 'x' });
		};
		expect(typeof typeOnly).toBe('function');
	});
});
