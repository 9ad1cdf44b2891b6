// The token endpoint (src/server/app.ts) in front of a real simulator: the claim calls through
// the proxy, and upstream failures passed through.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
	AlreadyPlayingBody,
	MissingScopeBody,
	RateLimitedBody,
	TtsFinishBody,
	TtsStartBody
} from '../../src/contract/index.ts';
import { api, readyTip, withSim } from '../fixtures/sim.ts';
import { headersOf, send, simUpstream, tokenEndpoint } from '../fixtures/token-endpoint.ts';
import { sim, fresh, openRealtime, RATE_LIMIT } from './server.setup.ts';
import { freePort } from '../fixtures/ports.ts';

describe('the claim calls through the proxy', () => {
	it('starts and finishes a TTS tip, and the realtime stream opened with /token sees both', async () => {
		const { app, calls } = fresh();
		const { token, ws_url } = await (await send(app, 'POST', '/token')).json();
		const rt = await openRealtime(ws_url, token);
		try {
			await rt.next((m) => m.type === 'ready');
			const tip = await readyTip(sim);

			const started = await send(app, 'POST', `/api/tts/${tip.order_id}/start`);
			expect(started.status).toBe(200);
			const startBody = TtsStartBody.parse(await started.json());
			expect(startBody.tip.order_id).toBe(tip.order_id);
			expect(sim.control.model.tts.current).toBe(tip.order_id);

			const finished = await send(app, 'POST', `/api/tts/${tip.order_id}/finish`);
			expect(finished.status).toBe(200);
			expect(TtsFinishBody.parse(await finished.json()).tip.order_id).toBe(tip.order_id);

			await rt.next((m) => m.type === 'queue.tts.started' && m.data.order_id === tip.order_id);
			await rt.next((m) => m.type === 'queue.tts.finished' && m.data.order_id === tip.order_id);
			expect(calls).toEqual([
				'POST /realtime/token',
				`POST /tts/${tip.order_id}/start`,
				`POST /tts/${tip.order_id}/finish`
			]);
		} finally {
			rt.ws.close();
		}
	});

	it('passes a 409 not_in_queue body through when a tip is finished twice', async () => {
		const { app } = fresh();
		const tip = await readyTip(sim);
		await send(app, 'POST', `/api/tts/${tip.order_id}/start`);
		await send(app, 'POST', `/api/tts/${tip.order_id}/finish`);
		const again = await send(app, 'POST', `/api/tts/${tip.order_id}/finish`);
		expect(again.status).toBe(409);
		const direct = await api(sim, 'POST', `/tts/${tip.order_id}/finish`);
		expect(await again.json()).toEqual(direct.body);
		expect(direct.body.code).toBe('not_in_queue');
	});

	it('passes a 409 already_playing body with current_order_id through', async () => {
		const { app } = fresh();
		const rival = await readyTip(sim);
		const mine = await readyTip(sim);
		sim.control.holdRivalClaim('tts', { orderId: rival.order_id });
		const res = await send(app, 'POST', `/api/tts/${mine.order_id}/start`);
		expect(res.status).toBe(409);
		const body = AlreadyPlayingBody.parse(await res.json());
		expect(body).toMatchObject({ code: 'already_playing', current_order_id: rival.order_id });
	});

	it('releases a TTS claim so that it can be started again', async () => {
		const { app } = fresh();
		const tip = await readyTip(sim);
		await send(app, 'POST', `/api/tts/${tip.order_id}/start`);
		const released = await send(app, 'POST', `/api/tts/${tip.order_id}/release`);
		expect(released.status).toBe(200);
		expect(await released.json()).toMatchObject({ success: true, released: true });
		expect((await send(app, 'POST', `/api/tts/${tip.order_id}/start`)).status).toBe(200);
		await send(app, 'POST', `/api/tts/${tip.order_id}/finish`);
	});

	it('starts, releases, restarts and finishes a media item and reads the media status', async () => {
		const { app, calls } = fresh();
		const item = sim.control.model.enqueueMedia(
			{ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', duration: 30 },
			'Viewer'
		);
		const id = item.order_id;
		expect((await send(app, 'POST', `/api/media/${id}/start`)).status).toBe(200);
		const status = await (await send(app, 'GET', '/api/media/status')).json();
		expect(status).toMatchObject({ currently_playing: true, current_order_id: id });
		const released = await send(app, 'POST', `/api/media/${id}/release`);
		expect(await released.json()).toMatchObject({ success: true, released: true });
		expect((await send(app, 'POST', `/api/media/${id}/start`)).status).toBe(200);
		const finished = await send(app, 'POST', `/api/media/${id}/finish`);
		expect(finished.status).toBe(200);
		expect((await finished.json()).media.order_id).toBe(id);
		expect(calls).toEqual([
			`POST /media/${id}/start`,
			'GET /media/status',
			`POST /media/${id}/release`,
			`POST /media/${id}/start`,
			`POST /media/${id}/finish`
		]);
	});

	it('passes a 403 missing_scope through for a key without tts:control', async () => {
		const key = sim.control.addKey({ name: 'read only', scopes: ['tts:read'] });
		const { app } = tokenEndpoint(simUpstream(sim, key.value));
		const tip = await readyTip(sim);
		const res = await send(app, 'POST', `/api/tts/${tip.order_id}/start`);
		expect(res.status).toBe(403);
		expect(MissingScopeBody.parse(await res.json())).toMatchObject({
			required_scope: 'tts:control'
		});
	});
});

describe('upstream failures', () => {
	it.each([429, 502] as const)(
		'passes an injected upstream %i through with status, body and RateLimit headers',
		async (status) => {
			const { app, calls } = fresh();
			sim.control.failHttp({ status, count: 1 });
			const res = await send(app, 'GET', '/api/tts/queue');
			expect(res.status).toBe(status);
			const body = await res.json();
			expect(RateLimitedBody.parse(body).error).toMatch(/injected/);
			const h = headersOf(res);
			expect(h['ratelimit-limit']).toMatch(RATE_LIMIT);
			expect(h['ratelimit-remaining']).toMatch(RATE_LIMIT);
			expect(h['ratelimit-reset']).toMatch(RATE_LIMIT);
			// The next call goes through again: nothing is cached or latched.
			expect((await send(app, 'GET', '/api/tts/queue')).status).toBe(200);
			expect(calls).toEqual(['GET /tts/queue', 'GET /tts/queue']);
		}
	);

	it('passes the upstream rate limit through once the key has spent its budget', async () => {
		const limited = await withSim({ perKeyPerMinute: 2 });
		try {
			const { app } = tokenEndpoint(simUpstream(limited));
			const seen = [];
			for (let i = 0; i < 3; i++) seen.push(await send(app, 'GET', '/api/me'));
			expect(seen.map((r) => r.status)).toEqual([200, 200, 429]);
			const last = seen[2];
			expect(last.headers.get('ratelimit-limit')).toBe('2');
			expect(last.headers.get('ratelimit-remaining')).toBe('0');
			expect(Number(last.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
			expect(RateLimitedBody.safeParse(await last.json()).success).toBe(true);
		} finally {
			await limited.close();
		}
	});

	it('answers 502 with a clear body when the upstream cannot be reached', async () => {
		const port = await freePort();
		const { app, calls } = tokenEndpoint({
			baseUrl: `http://127.0.0.1:${port}/v1`,
			wsUrl: `ws://127.0.0.1:${port}/realtime`,
			apiKey: sim.apiKey
		});
		for (const [method, target] of [
			['GET', '/api/me'],
			['POST', '/api/tts/tip_1_abc/start'],
			['POST', '/token']
		]) {
			const res = await send(app, method, target);
			expect(res.status, `${method} ${target}`).toBe(502);
			expect(await res.json()).toEqual({
				error: 'the upstream service could not be reached',
				code: 'upstream_unreachable'
			});
		}
		expect(calls).toHaveLength(3);
	});

	it('answers 502 when the upstream accepts the connection but never answers', async () => {
		const hanging: Server = createServer(() => {});
		await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
		const { port } = hanging.address() as AddressInfo;
		try {
			const { app } = tokenEndpoint(
				{ baseUrl: `http://127.0.0.1:${port}/v1`, wsUrl: 'ws://unused', apiKey: sim.apiKey },
				{ timeoutMs: 200 }
			);
			const res = await send(app, 'GET', '/api/me');
			expect(res.status).toBe(502);
			expect(await res.json()).toMatchObject({ code: 'upstream_unreachable' });
		} finally {
			hanging.closeAllConnections();
			await new Promise<void>((resolve) => hanging.close(() => resolve()));
		}
	});

	it('answers 502 when the upstream drops the connection in the middle of its body', async () => {
		const dropping: Server = createServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
			res.write('{"tenant_id":');
			setTimeout(() => res.destroy(), 20);
		});
		await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
		const { port } = dropping.address() as AddressInfo;
		try {
			const { app } = tokenEndpoint({
				baseUrl: `http://127.0.0.1:${port}/v1`,
				wsUrl: 'ws://unused',
				apiKey: sim.apiKey
			});
			for (const target of ['/api/me', '/api/tts/queue']) {
				const res = await send(app, 'GET', target);
				expect(res.status, target).toBe(502);
				expect(await res.json()).toMatchObject({ code: 'upstream_unreachable' });
			}
		} finally {
			dropping.closeAllConnections();
			await new Promise<void>((resolve) => dropping.close(() => resolve()));
		}
	});
});
