// The browser-side clients (src/client/api.ts, src/client/realtime.ts) against a real simulator and
// the real token endpoint on loopback ports, with `ws` as the WebSocket. CONTRACT.md: Realtime
// handoff token, Realtime WebSocket, Rate-limit headers.
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiClient, type FetchLike, type TokenResult } from '../../src/client/api.ts';
import {
	RealtimeConnection,
	type RealtimeOptions,
	type RealtimeState,
	type WebSocketConstructor
} from '../../src/client/realtime.ts';
import type { KnownEvent } from '../../src/contract/index.ts';
import { serveTokenEndpoint, type ServedEndpoint } from '../fixtures/served-endpoint.ts';
import { api, readyTip, until, withSim, type Sim } from '../fixtures/sim.ts';
import { OVERLAY_KEY, simUpstream } from '../fixtures/token-endpoint.ts';
import type { StartOptions } from '../../src/sim/index.ts';
import * as routes from '../../src/contract/routes.ts';
import { EVENT_CATALOG } from '../../src/contract/events.ts';

// Generous: a loaded 2-core machine runs these next to other suites.
const WAIT = 10_000;
/** Fast retries so that failure paths finish within a test; the shape is what is tested. */
const FAST = { backoff: { baseMs: 50, maxMs: 400 }, failingAfter: 3 };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

interface Rig {
	sim: Sim;
	endpoint: ServedEndpoint;
	api: ApiClient;
	warnings: string[];
}

async function rig(simOptions: StartOptions = {}, overlayKey = OVERLAY_KEY): Promise<Rig> {
	const sim = await withSim({ perKeyPerMinute: 10_000, perIpPerMinute: 10_000, ...simOptions });
	cleanups.push(() => sim.close());
	const endpoint = await serveTokenEndpoint(simUpstream(sim));
	cleanups.push(() => endpoint.close());
	const warnings: string[] = [];
	const client = new ApiClient({
		overlayKey,
		baseUrl: endpoint.origin,
		warn: (m) => warnings.push(m)
	});
	return { sim, endpoint, api: client, warnings };
}

/** A connection that records what it reports; closed after the test. */
function connect(r: Rig, options: Partial<RealtimeOptions> = {}) {
	const events: KnownEvent[] = [];
	const states: { state: RealtimeState; detail: string }[] = [];
	let resyncs = 0;
	const conn = new RealtimeConnection({
		api: r.api,
		events: EVENT_CATALOG,
		WebSocket,
		onEvent: (e) => events.push(e),
		onResync: () => (resyncs += 1),
		onState: (state, detail) => states.push({ state, detail }),
		warn: (m) => r.warnings.push(m),
		...options
	});
	cleanups.push(() => conn.close());
	conn.start();
	return { conn, events, states, resyncs: () => resyncs };
}

/** `ws` that also records every text frame it receives, to see what the server really sent. */
function recordingWebSocket(frames: string[]): WebSocketConstructor {
	return class extends WebSocket {
		constructor(url: string, protocols?: string | string[]) {
			super(url, protocols);
			this.on('message', (data) => frames.push(data.toString()));
		}
	};
}

const tokenCalls = (sim: Sim) =>
	sim.control.log.requests({ method: 'POST', path: '/realtime/token' }).length;

async function postTip(sim: Sim, name = 'Viewer'): Promise<string> {
	const res = await api(sim, 'POST', '/tips', { body: { name, amount: 5, message: 'hi' } });
	expect(res.status).toBe(201);
	return res.body.tip.order_id;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

describe('RealtimeConnection', () => {
	it('connects with a handoff token from POST /token, gets ready and asks for a resync', async () => {
		const r = await rig();
		const c = connect(r);
		await until(() => c.conn.state === 'open', WAIT);
		expect(c.resyncs()).toBe(1);
		expect(c.conn.connects).toBe(1);
		expect(c.conn.attempts).toBe(1);
		expect(c.conn.heartbeatS).toBe(30);
		expect(c.conn.allowedEvents).toContain('tip.created');
		expect(c.states.map((s) => s.state)).toEqual(['connecting', 'open']);
		expect(tokenCalls(r.sim)).toBe(1);
		expect(r.endpoint.calls).toEqual(['POST /realtime/token']);
		expect(r.api.stats.byRoute.token).toBe(1);
	});

	it('delivers tip.created for a POST /tips as a validated, typed event', async () => {
		const r = await rig();
		const c = connect(r);
		await until(() => c.conn.state === 'open', WAIT);
		const orderId = await postTip(r.sim, 'Ada');
		await until(() => c.events.some((e) => e.type === 'tip.created'), WAIT);
		const event = c.events.find((e) => e.type === 'tip.created');
		if (event?.type !== 'tip.created') throw new Error('no tip.created');
		expect(event.data.tip.order_id).toBe(orderId);
		expect(event.data.tip.name).toBe('Ada');
		expect(event.id).toMatch(/^evt_/);
		expect(c.conn.lastEventId).toBe(c.events[c.events.length - 1].id);
		expect(c.conn.lastEventAt).toBeGreaterThan(0);
	});

	it('an event sent twice is delivered once', async () => {
		const r = await rig();
		const frames: string[] = [];
		const c = connect(r, { WebSocket: recordingWebSocket(frames) });
		await until(() => c.conn.state === 'open', WAIT);
		r.sim.control.duplicateEvents(3);
		const ids = [await postTip(r.sim), await postTip(r.sim), await postTip(r.sim)];
		const sentCreated = () => frames.filter((f) => f.includes('"tip.created"')).length;
		// Wait until the server has really sent every copy before counting deliveries.
		await until(() => sentCreated() >= 6, WAIT);
		await until(() => c.events.filter((e) => e.type === 'tip.created').length >= 3, WAIT);
		const created = c.events.filter((e) => e.type === 'tip.created');
		expect(created.map((e) => e.type === 'tip.created' && e.data.tip.order_id)).toEqual(ids);
		expect(new Set(c.events.map((e) => e.id)).size).toBe(c.events.length);
	});

	it('after the sockets drop it reconnects with a new token and asks for a resync again', async () => {
		const r = await rig();
		const c = connect(r, FAST);
		await until(() => c.conn.state === 'open', WAIT);
		expect(r.sim.control.dropSockets()).toBe(1);
		await until(() => c.conn.connects === 2 && c.conn.state === 'open', WAIT);
		expect(c.resyncs()).toBe(2);
		// Single-use tokens: one POST /realtime/token per connection.
		expect(tokenCalls(r.sim)).toBe(2);
		expect(c.states.map((s) => s.state)).toEqual(['connecting', 'open', 'retrying', 'open']);
		expect(c.states[2].detail).toMatch(/connection lost/);
		// Events flow on the new connection.
		await postTip(r.sim);
		await until(() => c.events.some((e) => e.type === 'tip.created'), WAIT);
	});

	it('a server that goes silent is detected by the heartbeat watchdog and replaced', async () => {
		const r = await rig({ heartbeatS: 0.3 });
		const c = connect(r, FAST);
		await until(() => c.conn.state === 'open', WAIT);
		expect(c.conn.heartbeatS).toBe(0.3);
		const before = c.conn.connects;
		// Half-open: no pings, no events, no close; only the watchdog can notice.
		expect(r.sim.control.silenceSockets(60_000)).toBe(1);
		await until(() => c.conn.connects > before && c.conn.state === 'open', WAIT);
		expect(c.resyncs()).toBe(c.conn.connects);
		expect(tokenCalls(r.sim)).toBe(c.conn.connects);
		expect(r.warnings.some((w) => /no message for 0\.6 s/.test(w))).toBe(true);
		expect(c.states.some((s) => s.state === 'retrying' && /no message/.test(s.detail))).toBe(true);
		// The new socket is not silenced.
		await postTip(r.sim);
		await until(() => c.events.some((e) => e.type === 'tip.created'), WAIT);
	});

	it('a live connection with regular pings is never replaced by the watchdog', async () => {
		// 1 s (watchdog 2 s): only an event-loop stall of seconds could fake a silence here.
		const r = await rig({ heartbeatS: 1 });
		const frames: string[] = [];
		const c = connect(r, { WebSocket: recordingWebSocket(frames) });
		await until(() => c.conn.state === 'open', WAIT);
		await until(() => frames.filter((f) => f.includes('"ping"')).length >= 3, WAIT);
		expect(c.conn.connects).toBe(1);
		expect(c.conn.state).toBe('open');
	});

	it('a wrong overlay key is a permanent unauthorized state with no retry loop', async () => {
		const r = await rig({}, 'not-the-overlay-key');
		const c = connect(r, FAST);
		await until(() => c.conn.state === 'unauthorized', WAIT);
		expect(c.conn.detail).toBe('cannot connect: the overlay key was refused');
		await sleep(1000);
		expect(r.api.stats.byRoute.token).toBe(1);
		expect(c.conn.state).toBe('unauthorized');
		expect(c.conn.connects).toBe(0);
		expect(tokenCalls(r.sim)).toBe(0);
		expect(r.warnings.filter((w) => w.includes('overlay key was refused'))).toHaveLength(1);
	});

	it('while the realtime service refuses sockets it retries with backoff, then recovers', async () => {
		const r = await rig();
		const c = connect(r, FAST);
		await until(() => c.conn.state === 'open', WAIT);
		const refuseMs = 1500;
		const droppedAt = Date.now();
		r.sim.control.dropSockets(refuseMs);
		await until(() => c.conn.state === 'failing', WAIT);
		expect(c.conn.detail).toMatch(/^cannot connect: upstream unreachable/);
		await until(() => c.conn.state === 'open' && c.conn.connects === 2, WAIT);
		expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(refuseMs - 50);
		expect(c.resyncs()).toBe(2);
		expect(c.conn.failures).toBe(0);
		// Every attempt minted its own token, and the backoff kept the attempts few.
		expect(tokenCalls(r.sim)).toBe(c.conn.attempts);
		expect(c.conn.attempts).toBeLessThan(20);
		const seen = c.states.map((s) => s.state);
		expect(seen.slice(0, 3)).toEqual(['connecting', 'open', 'retrying']);
		expect(seen).toContain('failing');
		expect(seen[seen.length - 1]).toBe('open');
	});

	it('a refused handoff token (error, close 4401) is followed by an attempt with a new token', async () => {
		const r = await rig();
		let first = true;
		const tampering = {
			mintToken: async (): Promise<TokenResult> => {
				const minted = await r.api.mintToken();
				if (minted.ok && first) {
					first = false;
					return { ...minted, body: { ...minted.body, token: 'rth_not_a_real_token' } };
				}
				return minted;
			}
		};
		const c = connect(r, { ...FAST, api: tampering });
		await until(() => c.conn.state === 'open', WAIT);
		expect(c.conn.attempts).toBe(2);
		expect(tokenCalls(r.sim)).toBe(2);
		const retry = c.states.find((s) => s.state === 'retrying');
		expect(retry?.detail).toMatch(/refused the token \(invalid_token: /);
	});

	it('an unreachable upstream ends in failing with a readable reason and slow retries', async () => {
		const sim = await withSim();
		cleanups.push(() => sim.close());
		const port = await closedPort();
		const endpoint = await serveTokenEndpoint({
			baseUrl: `http://127.0.0.1:${port}/v1`,
			wsUrl: `ws://127.0.0.1:${port}/realtime`,
			apiKey: sim.apiKey
		});
		cleanups.push(() => endpoint.close());
		const r: Rig = {
			sim,
			endpoint,
			api: new ApiClient({ overlayKey: OVERLAY_KEY, baseUrl: endpoint.origin }),
			warnings: []
		};
		const c = connect(r, FAST);
		await until(() => c.conn.state === 'failing', WAIT);
		expect(c.conn.detail).toBe(
			'cannot connect: upstream unreachable: the token endpoint cannot reach the service'
		);
		expect(c.conn.failures).toBeGreaterThanOrEqual(3);
		// Logged, but not once per attempt.
		expect(r.warnings.filter((w) => w.startsWith('[realtime] cannot connect'))).toHaveLength(1);

		c.conn.close();
		expect(c.conn.state).toBe('closed');
		const calls = r.api.stats.byRoute.token;
		await sleep(600);
		expect(r.api.stats.byRoute.token).toBe(calls);
	});

	it('a token endpoint that fails or throws for a while is retried until the page connects', async () => {
		const r = await rig();
		let calls = 0;
		const flaky = {
			mintToken: async (): Promise<TokenResult> => {
				calls += 1;
				if (calls === 1) throw new Error('fetch blew up');
				if (calls <= 4) return { ok: false, kind: 'network', error: 'connection refused' };
				return r.api.mintToken();
			}
		};
		const c = connect(r, { ...FAST, api: flaky });
		await until(() => c.conn.state === 'open', WAIT);
		expect(c.conn.attempts).toBe(5);
		expect(c.conn.failures).toBe(0);
		const seen = c.states.map((s) => s.state);
		expect(seen).toContain('failing');
		expect(c.states.some((s) => /did not answer \(Error: fetch blew up\)/.test(s.detail))).toBe(
			true
		);
		// It stays a live connection: a drop is followed by a reconnect as usual.
		r.sim.control.dropSockets();
		await until(() => c.conn.connects === 2 && c.conn.state === 'open', WAIT);
		expect(calls).toBe(6);
	});

	it('an overlay key refused on a reconnect ends in unauthorized, with no more attempts', async () => {
		const r = await rig();
		let refuse = false;
		const revocable = {
			mintToken: async (): Promise<TokenResult> =>
				refuse
					? { ok: false, kind: 'unauthorized', status: 401, error: 'the overlay key was refused' }
					: r.api.mintToken()
		};
		const c = connect(r, { ...FAST, api: revocable });
		await until(() => c.conn.state === 'open', WAIT);
		refuse = true;
		r.sim.control.dropSockets();
		await until(() => c.conn.state === 'unauthorized', WAIT);
		const attempts = c.conn.attempts;
		await sleep(1000);
		expect(c.conn.attempts).toBe(attempts);
		expect(c.conn.state).toBe('unauthorized');
		expect(c.conn.detail).toBe('cannot connect: the overlay key was refused');
	});

	it('a realtime URL that is not ws(s):// is a failed attempt, retried, never dialled', async () => {
		const r = await rig();
		let calls = 0;
		const wrongUrl = {
			mintToken: async (): Promise<TokenResult> => {
				calls += 1;
				const minted = await r.api.mintToken();
				if (!minted.ok || calls > 2) return minted;
				return { ...minted, body: { ...minted.body, ws_url: 'http://127.0.0.1:1/realtime' } };
			}
		};
		const c = connect(r, { ...FAST, api: wrongUrl });
		await until(() => c.conn.state === 'open', WAIT);
		expect(c.conn.attempts).toBe(3);
		expect(c.states.some((s) => /not ws\(s\):\/\//.test(s.detail))).toBe(true);
	});

	it('a revoked upstream key keeps retrying as failing, since the overlay key itself is fine', async () => {
		const r = await rig();
		const c = connect(r, FAST);
		await until(() => c.conn.state === 'open', WAIT);
		r.sim.control.revokeKey(r.sim.apiKey);
		await until(() => c.conn.state === 'failing', WAIT);
		expect(c.conn.detail).toMatch(/token endpoint answered 401 invalid_api_key/);
		expect(c.conn.state).not.toBe('unauthorized');
	});

	it('malformed frames and events are dropped, logged once per kind, and the stream goes on', async () => {
		const r = await rig();
		const c = connect(r);
		await until(() => c.conn.state === 'open', WAIT);
		const envelope = {
			id: 'evt_raw1',
			type: 'tip.created',
			created_at: new Date().toISOString(),
			data: { tip: { order_id: 42 } }
		};
		const raw = [
			'this is not json',
			'this is not json either',
			'[1,2,3]',
			JSON.stringify({ id: 'evt_raw0', type: 'tip.created', created_at: 'yesterday', data: {} }),
			JSON.stringify(envelope),
			JSON.stringify({ ...envelope, id: 'evt_raw2' }),
			// Known to nobody here: ignored silently.
			JSON.stringify({ ...envelope, id: 'evt_raw3', type: 'chat.unheard_of' }),
			JSON.stringify({ type: 'server.news', data: {} })
		];
		for (const text of raw) expect(r.sim.control.sendRaw(text)).toBe(1);
		const orderId = await postTip(r.sim);
		await until(() => c.events.some((e) => e.type === 'tip.created'), WAIT);
		expect(c.events.map((e) => e.type === 'tip.created' && e.data.tip.order_id)).toEqual([orderId]);
		expect(c.conn.state).toBe('open');
		expect(c.conn.connects).toBe(1);
		const frameWarnings = r.warnings.filter((w) => w.includes('malformed frame'));
		const eventWarnings = r.warnings.filter((w) => w.includes('malformed event'));
		expect(frameWarnings).toHaveLength(1);
		expect(frameWarnings[0]).toMatch(/not JSON/);
		expect(eventWarnings).toHaveLength(1);
		expect(eventWarnings[0]).toMatch(/tip\.created: data\.tip/);
	});

	it('a consumer callback that throws is logged and the connection carries on', async () => {
		const r = await rig();
		const c = connect(r, {
			onEvent: () => {
				throw new Error('widget bug');
			}
		});
		await until(() => c.conn.state === 'open', WAIT);
		await postTip(r.sim);
		await postTip(r.sim);
		await until(() => c.conn.lastEventId !== null, WAIT);
		await until(() => r.sim.control.log.events('tip.tts_ready').length >= 2, WAIT);
		expect(c.conn.state).toBe('open');
		expect(c.conn.connects).toBe(1);
		expect(r.warnings.filter((w) => w.includes('onEvent threw: widget bug'))).toHaveLength(1);
	});

	it('close() before the first token arrives leaves no socket and no timer behind', async () => {
		const r = await rig();
		const c = connect(r, FAST);
		c.conn.close();
		await sleep(500);
		expect(c.conn.state).toBe('closed');
		expect(r.sim.control.hub?.authenticatedCount).toBe(0);
		expect(r.api.stats.total).toBe(0);
		expect(c.resyncs()).toBe(0);
	});

	it('a socket that never opens is given up after the connect timeout and dialled again', async () => {
		// A port that accepts TCP and never answers the WebSocket handshake.
		const held = new Set<Socket>();
		const silent = createNetServer((socket) => {
			held.add(socket.on('error', () => {}));
		});
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		cleanups.push(() => {
			for (const socket of held) socket.destroy();
			return new Promise((resolve) => silent.close(resolve));
		});
		const { port } = silent.address() as AddressInfo;
		let mints = 0;
		const states: string[] = [];
		const conn = new RealtimeConnection({
			events: EVENT_CATALOG,
			api: {
				mintToken: async () => {
					mints += 1;
					return {
						ok: true,
						status: 200,
						body: { token: `t${mints}`, ws_url: `ws://127.0.0.1:${port}/`, expires_at: '' }
					};
				}
			},
			WebSocket,
			connectTimeoutMs: 200,
			...FAST,
			onState: (_state, detail) => states.push(detail),
			warn: () => {}
		});
		cleanups.push(() => conn.close());
		conn.start();
		await until(() => conn.state === 'failing', WAIT);
		expect(mints).toBe(FAST.failingAfter);
		expect(held.size).toBe(FAST.failingAfter);
		expect(states).toContain(
			'cannot connect: upstream unreachable: the realtime service did not answer'
		);
		expect(conn.connects).toBe(0);
	});

	it('close() on an open connection closes the socket and stops reconnecting', async () => {
		const r = await rig();
		const c = connect(r, FAST);
		await until(() => c.conn.state === 'open', WAIT);
		c.conn.close();
		await until(() => r.sim.control.hub?.authenticatedCount === 0, WAIT);
		await sleep(300);
		expect(c.conn.state).toBe('closed');
		expect(tokenCalls(r.sim)).toBe(1);
		expect(c.states[c.states.length - 1]).toEqual({ state: 'closed', detail: 'closed' });
	});
});

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
		const port = await closedPort();
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
