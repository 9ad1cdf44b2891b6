// The token endpoint (src/server/app.ts) in front of a real simulator: every route, the handoff token
// and its WebSocket, the claim calls through the proxy, upstream failures passed through, pages.
// Refusals (key, host, path tricks, methods) are in server-security.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
	AlreadyPlayingBody,
	MissingScopeBody,
	RateLimitedBody,
	ROUTES,
	TtsFinishBody,
	TtsStartBody
} from '../../src/contract/index.ts';
import { WIDGET_PAGES } from '../../src/server/app.ts';
import { api, readyTip, until, withSim, type Sim } from '../fixtures/sim.ts';
import {
	concrete,
	headersOf,
	send,
	simUpstream,
	tokenEndpoint,
	type Endpoint
} from '../fixtures/token-endpoint.ts';

let sim: Sim;
let endpoint: Endpoint;
let overlayId: string;

beforeAll(async () => {
	// Generous limits: this file makes many calls; the limits themselves are tested below.
	sim = await withSim({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
	overlayId = [...sim.control.model.overlays.keys()][0];
});
afterAll(() => sim.close());
afterEach(() => sim.control.clearFaults());

function fresh(options: Parameters<typeof tokenEndpoint>[1] = {}): Endpoint {
	endpoint = tokenEndpoint(simUpstream(sim), options);
	return endpoint;
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** A realtime connection opened the way a widget does it: ws_url and token from POST /token. */
async function openRealtime(wsUrl: string, token: string) {
	const ws = new WebSocket(wsUrl);
	const messages: any[] = [];
	ws.on('message', (raw) => messages.push(JSON.parse(raw.toString())));
	await new Promise<void>((resolve, reject) => {
		ws.once('open', () => resolve());
		ws.once('error', reject);
	});
	ws.send(JSON.stringify({ type: 'auth', data: { token } }));
	const next = async (match: (m: any) => boolean) => {
		let found: any;
		await until(() => (found = messages.find(match)) !== undefined);
		return found;
	};
	return { ws, messages, next };
}

const RATE_LIMIT = /^\d+$/;

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
		const port = await closedPort();
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
		const port = await closedPort();
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
		['/', 'index']
	])('serves %s from the built page %s', async (target, name) => {
		const asked: string[] = [];
		const { app } = fresh({ readPage: async (n) => (asked.push(n), HTML) });
		const res = await send(app, 'GET', `${target}?key=k`, { key: null });
		expect(res.status).toBe(200);
		expect(asked).toEqual([name]);
		expect(res.headers.get('content-security-policy')).toBeTruthy();
	});

	it.each(['/widget/tts', '/overlay/o_0123abcd', '/preview'])(
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
