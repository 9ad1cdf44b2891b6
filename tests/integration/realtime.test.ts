// The realtime WebSocket of the simulator against docs/upstream.md (the realtime socket:
// handoff token, socket, authentication): authentication and the heartbeat.
// Real loopback.
import { describe, expect, it } from 'vitest';
import {
	CLOSE_AUTH_TIMEOUT,
	CLOSE_UNAUTHORIZED,
	HandoffToken,
	parseServerFrame
} from '../../src/contract/index.ts';
import { api, RealtimeClient, until } from '../fixtures/sim.ts';
import { start, authWith, handoff, expectValidFrames } from './realtime.setup.ts';

describe('realtime authentication', () => {
	it('a handoff token from POST /realtime/token authenticates and the server answers ready', async () => {
		const sim = await start();
		const res = await api(sim, 'POST', '/realtime/token');
		expect(res.status).toBe(200);
		expect(HandoffToken.safeParse(res.body).success).toBe(true);
		expect(res.body.token).toMatch(/^rth_/);
		expect(res.body.expires_in).toBe(60);
		const lifetime = Date.parse(res.body.expires_at) - Date.now();
		expect(lifetime).toBeGreaterThan(50_000);
		expect(lifetime).toBeLessThanOrEqual(60_000);

		const client = await authWith(sim, { type: 'auth', data: { token: res.body.token } });
		const ready = client.messages[0];
		expect(ready.type).toBe('ready');
		expect(Array.isArray(ready.data.events)).toBe(true);
		expect(ready.data.events.length).toBeGreaterThan(0);
		expect(ready.data.heartbeat_s).toBe(30);
		expect(client.closeCode).toBeNull();
		expectValidFrames(client);
	});

	it('an API key in data.apiKey authenticates', async () => {
		const sim = await start();
		const client = await authWith(sim, { type: 'auth', data: { apiKey: sim.apiKey } });
		expect(client.messages[0]).toMatchObject({ type: 'ready', data: { heartbeat_s: 30 } });
		expect(client.closeCode).toBeNull();
	});

	it('the server accepts any first message that carries data.apiKey, whatever its type', async () => {
		const sim = await start();
		const client = await authWith(sim, { type: 'hello', data: { apiKey: sim.apiKey } });
		expect(client.messages[0].type).toBe('ready');
	});

	it('the server accepts any first message that carries data.token, even without a type', async () => {
		const sim = await start();
		const client = await authWith(sim, { data: { token: await handoff(sim) } });
		expect(client.messages[0].type).toBe('ready');
	});

	it('a handoff token works once: the second socket gets invalid_token and close 4401', async () => {
		const sim = await start();
		const token = await handoff(sim);
		const first = await authWith(sim, { type: 'auth', data: { token } });
		expect(first.messages[0].type).toBe('ready');

		const second = await authWith(sim, { type: 'auth', data: { token } });
		expect(second.messages[0]).toMatchObject({ type: 'error', data: { code: 'invalid_token' } });
		expect(await second.closed()).toBe(CLOSE_UNAUTHORIZED);
		expectValidFrames(second);
		// The first connection is unaffected.
		expect(first.closeCode).toBeNull();
	});

	it('an expired handoff token gets invalid_token and close 4401', async () => {
		const sim = await start({ handoffTtlS: 0.2 });
		const res = await api(sim, 'POST', '/realtime/token');
		expect(res.body.expires_in).toBeGreaterThan(0);
		const expiresAt = Date.parse(res.body.expires_at);
		await until(() => Date.now() > expiresAt + 50);

		const client = await authWith(sim, { type: 'auth', data: { token: res.body.token } });
		expect(client.messages[0]).toMatchObject({ type: 'error', data: { code: 'invalid_token' } });
		expect(await client.closed()).toBe(CLOSE_UNAUTHORIZED);
	});

	it('an unknown handoff token gets invalid_token and close 4401', async () => {
		const sim = await start();
		const client = await authWith(sim, { type: 'auth', data: { token: 'rth_not_a_real_token' } });
		expect(client.messages[0]).toMatchObject({ type: 'error', data: { code: 'invalid_token' } });
		expect(await client.closed()).toBe(CLOSE_UNAUTHORIZED);
	});

	it('a wrong API key gets invalid_api_key and close 4401', async () => {
		const sim = await start();
		const client = await authWith(sim, { type: 'auth', data: { apiKey: 'tpk_wrong_key_123456' } });
		expect(client.messages[0]).toMatchObject({ type: 'error', data: { code: 'invalid_api_key' } });
		expect(typeof client.messages[0].data.error).toBe('string');
		expect(await client.closed()).toBe(CLOSE_UNAUTHORIZED);
		expectValidFrames(client);
	});

	it.each([
		['an empty token', { type: 'auth', data: { token: '' } }, 'invalid_token'],
		['a token that is not a string', { type: 'auth', data: { token: 42 } }, 'invalid_token'],
		['an API key that is not a string', { type: 'auth', data: { apiKey: true } }, 'invalid_api_key']
	])('%s is an invalid credential, answered %s and close 4401', async (_label, message, code) => {
		const sim = await start();
		const client = await authWith(sim, message);
		expect(client.messages[0]).toMatchObject({ type: 'error', data: { code } });
		expect(await client.closed()).toBe(CLOSE_UNAUTHORIZED);
	});

	it.each([
		['an auth message with empty data', { type: 'auth', data: {} }],
		['an auth message without data', { type: 'auth' }],
		['a pong', { type: 'pong' }],
		['a JSON array', [1, 2, 3]],
		['text that is not JSON', 'hello there']
	])(
		'a first message without a credential (%s) gets an error and close 4401',
		async (_label, message) => {
			const sim = await start();
			const client = await authWith(sim, message);
			expect(client.messages[0].type).toBe('error');
			expect(client.messages[0].data.code).toBe('missing_api_key');
			expect(await client.closed()).toBe(CLOSE_UNAUTHORIZED);
		}
	);

	it('a socket that sends no auth message in time gets auth_timeout and close 4408', async () => {
		const sim = await start({ authTimeoutMs: 150 });
		const client = await RealtimeClient.open(sim);
		expect(await client.closed(10_000)).toBe(CLOSE_AUTH_TIMEOUT);
		expect(client.messages).toEqual([
			{ type: 'error', data: { code: 'auth_timeout', error: expect.any(String) } }
		]);
	});

	it('a socket that authenticates in time is not closed by the auth timer', async () => {
		const sim = await start({ authTimeoutMs: 300, heartbeatS: 0.1 });
		const client = await RealtimeClient.connect(sim);
		expect(client.messages[0].type).toBe('ready');
		const authenticatedAt = Date.now();
		// Wait well past the auth timeout, measured by pings rather than a fixed sleep.
		await until(() => Date.now() - authenticatedAt > 600, 10_000);
		await client.next((m) => m.type === 'ping');
		expect(client.closeCode).toBeNull();
	});
});

describe('realtime heartbeat', () => {
	it('the server sends a ping every heartbeat_s seconds', async () => {
		const sim = await start({ heartbeatS: 0.2 });
		const client = await RealtimeClient.connect(sim);
		expect(client.messages[0]).toMatchObject({ type: 'ready', data: { heartbeat_s: 0.2 } });
		const pings = () => client.messages.filter((m) => m.type === 'ping');
		await until(() => pings().length >= 3, 10_000);
		const [first, , third] = pings();
		for (const ping of pings()) {
			expect(typeof ping.data.t).toBe('number');
			const parsed = parseServerFrame(JSON.stringify(ping));
			expect(parsed.ok && parsed.value.kind).toBe('ping');
		}
		// Two intervals of 200 ms lie between the first and the third ping (loose lower bound).
		expect(third.data.t - first.data.t).toBeGreaterThanOrEqual(300);
	});

	it('the server ignores a pong from the client', async () => {
		const sim = await start({ heartbeatS: 0.1 });
		const client = await RealtimeClient.connect(sim);
		await client.next((m) => m.type === 'ping');
		client.send({ type: 'pong' });
		const seen = client.messages.length;
		await until(() => client.messages.slice(seen).some((m) => m.type === 'ping'), 10_000);
		expect(client.closeCode).toBeNull();
		expect(client.messages.some((m) => m.type === 'error')).toBe(false);
	});
});
