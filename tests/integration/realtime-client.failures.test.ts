// The realtime client (src/client/realtime.ts) when things go wrong: refused keys and tokens,
// refused or unreachable services, malformed frames, throwing consumers, sockets that never
// open, and close() at any time.
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiClient, type TokenResult } from '../../src/client/api.ts';
import { RealtimeConnection } from '../../src/client/realtime.ts';
import { serveTokenEndpoint } from '../fixtures/served-endpoint.ts';
import { until, withSim } from '../fixtures/sim.ts';
import { OVERLAY_KEY } from '../fixtures/token-endpoint.ts';
import { EVENT_CATALOG } from '../../src/contract/events.ts';
import {
	WAIT,
	FAST,
	cleanups,
	type Rig,
	rig,
	connect,
	tokenCalls,
	postTip,
	sleep
} from './realtime-client.setup.ts';
import { freePort } from '../fixtures/ports.ts';

describe('RealtimeConnection', () => {
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
		const port = await freePort();
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
		// The real tip came through (its tip.tts_ready may follow at once, or later: espeak-ng
		// speaks, the simulator's tone is ready at once); none of the raw frames did.
		const created = c.events.flatMap((e) =>
			e.type === 'tip.created' ? [e.data.tip.order_id] : []
		);
		expect(created).toEqual([orderId]);
		expect(c.events.filter((e) => e.id.startsWith('evt_raw'))).toEqual([]);
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
