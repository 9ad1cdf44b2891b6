// The token endpoint (src/server/app.ts) in front of a real simulator: the allowlist, POST
// /token and its WebSocket, /healthz and the pages. The claim calls through the proxy and
// upstream failures are in server.proxy.test.ts; refusals (key, host, path tricks, methods) in
// server-security.test.ts.
import { describe, expect, it } from 'vitest';
import { RateLimitedBody, ROUTES } from '../../src/contract/index.ts';
import { WIDGET_PAGES } from '../../src/server/app.ts';
import { api } from '../fixtures/sim.ts';
import {
	concrete,
	headersOf,
	send,
	simUpstream,
	tokenEndpoint
} from '../fixtures/token-endpoint.ts';
import { sim, overlayId, fresh, openRealtime, RATE_LIMIT } from './server.setup.ts';
import { freePort } from '../fixtures/ports.ts';

describe('the allowlist', () => {
	it('forwards exactly the calls the widgets need', () => {
		const proxied = Object.entries(ROUTES)
			.filter(([, r]) => r.proxied)
			.map(([name]) => name)
			.sort();
		expect(proxied).toEqual(
			[
				'me',
				'events',
				'ttsQueue',
				'ttsStart',
				'ttsFinish',
				'ttsRelease',
				'mediaQueue',
				'mediaStatus',
				'mediaStart',
				'mediaFinish',
				'mediaRelease',
				'countersList',
				'counterRead',
				'overlaysList',
				'overlayRead',
				'tipGoalRead',
				'ttsHistory',
				'mediaHistory',
				'leaderboard'
			].sort()
		);
	});

	it.each(
		Object.entries(ROUTES)
			.filter(([, r]) => r.proxied && r.method === 'GET')
			.map(([name, r]) => [name, r.path] as const)
	)(
		'forwards the read %s (%s) and passes the upstream status and body through',
		async (_, path) => {
			const { app, calls } = fresh();
			const target = concrete(path, { overlayId, name: 'deaths' });
			const res = await send(app, 'GET', `/api${target}`);
			const direct = await api(sim, 'GET', target);
			expect(res.status).toBe(200);
			expect(await res.json()).toEqual(direct.body);
			expect(res.headers.get('content-type')).toMatch(/^application\/json/);
			expect(res.headers.get('cache-control')).toBe('no-store');
			for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
				expect(res.headers.get(h), h).toMatch(RATE_LIMIT);
			expect(calls).toEqual([`GET ${target}`]);
		}
	);

	it('passes an upstream 404 for an order id that is well formed but unknown', async () => {
		const { app, calls } = fresh();
		const res = await send(app, 'POST', '/api/tts/tip_999_nothere/start');
		expect(res.status).toBe(404);
		expect(await res.json()).toMatchObject({ code: 'not_found' });
		expect(calls).toEqual(['POST /tts/tip_999_nothere/start']);
	});

	it('drops the query string instead of forwarding it', async () => {
		const { app, calls } = fresh();
		const res = await send(app, 'GET', '/api/tts/queue?limit=1&api_key=x');
		expect(res.status).toBe(200);
		expect(calls).toEqual(['GET /tts/queue']);
	});
});

describe('POST /token', () => {
	it('answers only { token, ws_url, expires_at } with the upstream WebSocket address', async () => {
		const { app, calls } = fresh();
		const res = await send(app, 'POST', '/token');
		expect(res.status).toBe(200);
		expect(res.headers.get('cache-control')).toBe('no-store');
		const body = await res.json();
		expect(Object.keys(body).sort()).toEqual(['expires_at', 'token', 'ws_url']);
		expect(body.token).toMatch(/^rth_/);
		expect(body.ws_url).toBe(sim.wsUrl);
		expect(Date.parse(body.expires_at)).toBeGreaterThan(Date.now());
		expect(calls).toEqual(['POST /realtime/token']);
	});

	it('mints a fresh token on every call', async () => {
		const { app } = fresh();
		const a = await (await send(app, 'POST', '/token')).json();
		const b = await (await send(app, 'POST', '/token')).json();
		expect(a.token).not.toBe(b.token);
	});

	it('hands out a token that opens the realtime WebSocket', async () => {
		const { app } = fresh();
		const { token, ws_url } = await (await send(app, 'POST', '/token')).json();
		const rt = await openRealtime(ws_url, token);
		try {
			const ready = await rt.next((m) => m.type === 'ready' || m.type === 'error');
			expect(ready.type).toBe('ready');
			expect(ready.data.events).toContain('queue.tts.started');
		} finally {
			rt.ws.close();
		}
	});

	it.each([429, 502] as const)(
		'passes an upstream %i through with its RateLimit headers',
		async (status) => {
			const { app, calls } = fresh();
			sim.control.failHttp({ status, count: 1 });
			const res = await send(app, 'POST', '/token');
			expect(res.status).toBe(status);
			expect(RateLimitedBody.safeParse(await res.json()).success).toBe(true);
			expect(res.headers.get('ratelimit-reset')).toMatch(RATE_LIMIT);
			expect(calls).toEqual(['POST /realtime/token']);
		}
	);

	it('passes an upstream 401 through when the API key was revoked', async () => {
		const key = sim.control.addKey({ name: 'soon revoked' });
		sim.control.revokeKey(key.value);
		const { app } = tokenEndpoint(simUpstream(sim, key.value));
		const res = await send(app, 'POST', '/token');
		expect(res.status).toBe(401);
		expect(await res.json()).toHaveProperty('error');
	});

	it('is not served for GET', async () => {
		const { app, calls } = fresh();
		expect((await send(app, 'GET', '/token')).status).toBe(404);
		expect(calls).toEqual([]);
	});
});

describe('GET /healthz', () => {
	it('answers ok, the mode and that the upstream answered, without a key', async () => {
		const { app, calls } = fresh({ mode: 'demo' });
		const res = await send(app, 'GET', '/healthz', { key: null });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ ok: true, mode: 'demo', upstream: { reachable: true } });
		expect(calls).toEqual(['GET /me']);
	});

	it('reuses a recent upstream check instead of calling the upstream on every probe', async () => {
		const { app, calls } = fresh();
		await send(app, 'GET', '/healthz');
		const res = await send(app, 'GET', '/healthz');
		expect(await res.json()).toEqual({ ok: true, mode: 'live', upstream: { reachable: true } });
		expect(calls).toEqual(['GET /me']);
	});

	it('says the upstream is unreachable when it is down or refuses the key', async () => {
		const port = await freePort();
		const down = tokenEndpoint({
			baseUrl: `http://127.0.0.1:${port}/v1`,
			wsUrl: 'ws://unused',
			apiKey: sim.apiKey
		});
		const refused = tokenEndpoint(simUpstream(sim, 'tk_not_a_real_key_000'));
		for (const { app } of [down, refused]) {
			const res = await send(app, 'GET', '/healthz');
			expect(res.status).toBe(200);
			expect(await res.json()).toEqual({
				ok: true,
				mode: 'live',
				upstream: { reachable: false }
			});
		}
	});
});

describe('pages', () => {
	const HTML = '<!doctype html><title>built page</title>';

	it.each(WIDGET_PAGES)(
		'serves /widget/%s from the build with the security headers',
		async (type) => {
			const asked: string[] = [];
			const { app, calls } = fresh({
				readPage: async (name) => (asked.push(name), HTML)
			});
			const res = await send(app, 'GET', `/widget/${type}?key=whatever`, { key: null });
			expect(res.status).toBe(200);
			expect(await res.text()).toBe(HTML);
			expect(asked).toEqual([`widget-${type}`]);
			const h = headersOf(res);
			expect(h['content-type']).toBe('text/html; charset=utf-8');
			expect(h['cache-control']).toBe('no-store');
			expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
			expect(h['x-content-type-options']).toBe('nosniff');
			expect(h['content-security-policy']).toMatch(/default-src 'self'/);
			expect(h['content-security-policy']).toMatch(/object-src 'none'/);
			expect(calls).toEqual([]);
		}
	);

	it.each([
		['/overlay/o_0123abcd', 'overlay'],
		['/preview', 'preview'],
		['/dock', 'dock'],
		['/editor', 'editor'],
		['/', 'index']
	])('serves %s from the built page %s', async (target, name) => {
		const asked: string[] = [];
		const { app } = fresh({ readPage: async (n) => (asked.push(n), HTML) });
		const res = await send(app, 'GET', `${target}?key=k`, { key: null });
		expect(res.status).toBe(200);
		expect(asked).toEqual([name]);
		expect(res.headers.get('content-security-policy')).toBeTruthy();
	});

	it.each(['/dock', '/editor'])(
		'sends %s, whose URL carries the control key, with no Referer at all',
		async (path) => {
			const { app } = fresh({ readPage: async () => HTML });
			const res = await send(app, 'GET', `${path}?key=k`, { key: null });
			expect(res.headers.get('referrer-policy')).toBe('no-referrer');
			expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
		}
	);

	it.each(['/widget/tts', '/overlay/o_0123abcd', '/preview', '/dock', '/editor'])(
		'answers 404 for %s while the build does not contain it',
		async (target) => {
			const { app } = fresh({ readPage: async () => null });
			const res = await send(app, 'GET', target);
			expect(res.status).toBe(404);
			expect(res.headers.get('content-type')).toMatch(/^text\/html/);
			expect(await res.text()).toMatch(/not part of this build/);
		}
	);

	it.each([
		'/widget/unknown',
		'/widget/TTS',
		'/widget/tts/extra',
		'/overlay/not-an-overlay',
		'/overlay/o_0123ABCD',
		'/overlay/o_0123abcd0'
	])('answers 404 for %s even when a build exists', async (target) => {
		const asked: string[] = [];
		const { app } = fresh({ readPage: async (n) => (asked.push(n), HTML) });
		const res = await send(app, 'GET', target);
		expect(res.status).toBe(404);
		expect(asked).toEqual([]);
	});
});
