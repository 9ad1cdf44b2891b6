// Credentials, scopes and rate limits over real HTTP (docs/upstream.md: common responses,
// authentication, errors, limits and rate-limit headers), and the identity reads.
import { describe, expect, it } from 'vitest';
import {
	EVENT_TYPES,
	EventsCatalogBody,
	HandoffToken,
	LeaderboardBody,
	Me,
	MissingScopeBody,
	RateLimitedBody,
	SCOPES,
	TippingBody,
	TtsQueueBody,
	UnauthorizedBody,
	type Scope
} from '../../src/contract/index.ts';
import { expectBody, expectError } from '../fixtures/contract-checks.ts';
import { connectPublic, registerApp, tokenCall } from '../fixtures/oauth.ts';
import { api, simsPerTest, type ApiResponse, type Sim } from '../fixtures/sim.ts';
import { keepAliveFetch } from '../../src/server/upstream.ts';

const start = simsPerTest();

function rateHeaders(res: ApiResponse) {
	const read = (name: string) => {
		const value = res.headers.get(name);
		expect(value, `${name} header`).toMatch(/^\d+$/);
		return Number(value);
	};
	return {
		limit: read('RateLimit-Limit'),
		remaining: read('RateLimit-Remaining'),
		reset: read('RateLimit-Reset')
	};
}

/** Sequential calls, so the counts are exact. */
async function burst(sim: Sim, n: number, key?: string): Promise<ApiResponse[]> {
	const out: ApiResponse[] = [];
	for (let i = 0; i < n; i++) out.push(await api(sim, 'GET', '/me', { key }));
	return out;
}

describe('credentials', () => {
	it('a request without a credential gets 401 missing_api_key', async () => {
		const sim = await start();
		const res = await api(sim, 'GET', '/tts/queue', { key: null });
		const body = expectError(res, 401, 'missing_api_key', UnauthorizedBody);
		expect(body.error).toEqual(expect.any(String));
	});

	it('an unknown or revoked key gets 401 invalid_api_key', async () => {
		const sim = await start();
		expectError(
			await api(sim, 'GET', '/me', { key: 'tpk_not_a_real_key' }),
			401,
			'invalid_api_key',
			UnauthorizedBody
		);
		const key = sim.control.addKey({ name: 'Rotated soon' });
		expectBody(await api(sim, 'GET', '/me', { key: key.value }), 200, Me);
		sim.control.revokeKey(key.value);
		expectError(
			await api(sim, 'GET', '/me', { key: key.value }),
			401,
			'invalid_api_key',
			UnauthorizedBody
		);
	});

	it('a key lacking the scope gets 403 missing_scope naming the scope it needs', async () => {
		const sim = await start();
		const key = sim.control.addKey({ name: 'Read only', scopes: ['tts:read'] });
		expectBody(await api(sim, 'GET', '/tts/queue', { key: key.value }), 200, TtsQueueBody);

		const calls: [string, string, Scope, unknown?][] = [
			['POST', '/tts/pause', 'tts:control'],
			['POST', '/tts/tip_1_abc/start', 'tts:control'],
			['GET', '/media/queue', 'media:read'],
			['POST', '/media/queue', 'media:control', { url: 'https://example.com/a.mp4' }],
			['POST', '/tips', 'tips:create', { name: 'A', amount: 1 }],
			['POST', '/tipping/close', 'tipping:control'],
			['GET', '/counters', 'counters:manage'],
			['GET', '/overlays', 'overlays:manage']
		];
		for (const [method, path, scope, body] of calls) {
			const res = await api(sim, method, path, { key: key.value, body });
			const refused = expectError(res, 403, 'missing_scope', MissingScopeBody);
			expect(refused.required_scope, `${method} ${path}`).toBe(scope);
		}
		// Nothing happened on the refused calls.
		expect((await api(sim, 'GET', '/tipping')).body.accepting).toBe(true);
		expect(sim.control.model.tts.paused).toBe(false);
	});

	it('identity, tipping status, the leaderboard and handoff tokens need no scope at all', async () => {
		const sim = await start();
		const key = sim.control.addKey({ name: 'No scopes', scopes: [] });
		const opts = { key: key.value };
		expect(expectBody(await api(sim, 'GET', '/me', opts), 200, Me).key.scopes).toEqual([]);
		expectBody(await api(sim, 'GET', '/events', opts), 200, EventsCatalogBody);
		expectBody(await api(sim, 'GET', '/tipping', opts), 200, TippingBody);
		expectBody(await api(sim, 'GET', '/leaderboard', opts), 200, LeaderboardBody);
		expectBody(await api(sim, 'POST', '/realtime/token', opts), 200, HandoffToken);
	});
});

describe('rate-limit headers', () => {
	it('every response carries RateLimit-Limit, -Remaining and -Reset, errors included', async () => {
		const sim = await start();
		const limited = sim.control.addKey({ scopes: [] });
		const responses = [
			await api(sim, 'GET', '/me'),
			await api(sim, 'GET', '/me', { key: null }),
			await api(sim, 'GET', '/me', { key: 'tpk_wrong' }),
			await api(sim, 'GET', '/tts/queue', { key: limited.value }),
			await api(sim, 'GET', '/no/such/path'),
			await api(sim, 'POST', '/tts/tip_1_abc/start'),
			await api(sim, 'POST', '/tips', { body: { name: '' } })
		];
		expect(responses.map((r) => r.status)).toEqual([200, 401, 401, 403, 404, 404, 400]);
		for (const res of responses) {
			const h = rateHeaders(res);
			expect(h.remaining).toBeLessThanOrEqual(h.limit);
			expect(h.reset).toBeGreaterThanOrEqual(1);
			expect(h.reset).toBeLessThanOrEqual(60);
		}
	});

	it('RateLimit-Remaining counts down with each request of the key', async () => {
		const sim = await start();
		const [a, b, c] = await burst(sim, 3);
		expect(rateHeaders(a)).toMatchObject({ limit: 120, remaining: 119 });
		expect(rateHeaders(b).remaining).toBe(118);
		expect(rateHeaders(c).remaining).toBe(117);
	});
});

describe('rate limits', () => {
	it('past its per-key budget a key gets 429 whose body carries only error; other keys go on', async () => {
		const sim = await start({ perKeyPerMinute: 5, perIpPerMinute: 100 });
		const ok = await burst(sim, 5);
		expect(ok.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
		expect(rateHeaders(ok[4])).toMatchObject({ limit: 5, remaining: 0 });

		const refused = await api(sim, 'GET', '/me');
		expect(refused.status).toBe(429);
		expectBody(refused, 429, RateLimitedBody);
		expect(Object.keys(refused.body)).toEqual(['error']);
		const h = rateHeaders(refused);
		expect(h).toMatchObject({ limit: 5, remaining: 0 });
		expect(h.reset).toBeGreaterThanOrEqual(1);

		const other = sim.control.addKey({ name: 'Other app' });
		expectBody(await api(sim, 'GET', '/me', { key: other.value }), 200, Me);
	});

	it('past the per-address budget every key from that address gets 429', async () => {
		const sim = await start({ perKeyPerMinute: 100, perIpPerMinute: 6 });
		const keys = [sim.control.addKey(), sim.control.addKey(), sim.control.addKey()];
		for (const key of keys) {
			const pair = await burst(sim, 2, key.value);
			expect(pair.map((r) => r.status)).toEqual([200, 200]);
		}
		for (const key of [...keys, sim.control.addKey()]) {
			const res = await api(sim, 'GET', '/me', { key: key.value });
			expectBody(res, 429, RateLimitedBody);
			expect(Object.keys(res.body)).toEqual(['error']);
			expect(rateHeaders(res)).toMatchObject({ limit: 6, remaining: 0 });
		}
		// Even a request without a credential is counted against the address.
		expectBody(await api(sim, 'GET', '/me', { key: null }), 429, RateLimitedBody);
	});

	it('after the window resets the key may call again', async () => {
		// A one-second window keeps this quick; the three calls take a few milliseconds.
		const sim = await start({ perKeyPerMinute: 2, rateWindowMs: 1000 });
		const calls = await burst(sim, 3);
		expect(calls.map((r) => r.status)).toEqual([200, 200, 429]);
		expect(rateHeaders(calls[2]).reset).toBe(1);
		await new Promise((r) => setTimeout(r, 1050));
		expectBody(await api(sim, 'GET', '/me'), 200, Me);
	});

	it('with the real defaults the 121st request of a key in a minute is refused', async () => {
		const sim = await start();
		const first = await burst(sim, 120);
		expect(first.every((r) => r.status === 200)).toBe(true);
		expect(rateHeaders(first[119])).toMatchObject({ limit: 120, remaining: 0 });
		const refused = await api(sim, 'GET', '/me');
		expectBody(refused, 429, RateLimitedBody);
		expect(Object.keys(refused.body)).toEqual(['error']);
	});

	it('with the real defaults the 241st request from one address is refused whatever the key', async () => {
		const sim = await start();
		const a = sim.control.addKey({ name: 'App A' });
		const b = sim.control.addKey({ name: 'App B' });
		expect((await burst(sim, 120, a.value)).every((r) => r.status === 200)).toBe(true);
		expect((await burst(sim, 120, b.value)).every((r) => r.status === 200)).toBe(true);
		const c = sim.control.addKey({ name: 'App C' });
		const refused = await api(sim, 'GET', '/me', { key: c.value });
		expectBody(refused, 429, RateLimitedBody);
		expect(rateHeaders(refused)).toMatchObject({ limit: 240, remaining: 0 });
	});
});

describe('rate limits per OAuth authorization and per calling address', () => {
	it('an authorization has one budget across its refreshed access tokens; another has its own', async () => {
		const sim = await start({ perKeyPerMinute: 3, perIpPerMinute: 100 });
		const a = registerApp(sim, { secret: null });
		const first = await connectPublic(sim, a.clientId);
		expect((await burst(sim, 2, first.access_token)).map((r) => r.status)).toEqual([200, 200]);
		const refreshed = await tokenCall(sim, {
			grant_type: 'refresh_token',
			refresh_token: first.refresh_token,
			client_id: a.clientId
		});
		expect(refreshed.status).toBe(200);
		const [third, refused] = await burst(sim, 2, refreshed.body.access_token);
		expect(third.status).toBe(200);
		expect(rateHeaders(third)).toMatchObject({ limit: 3, remaining: 0 });
		expectBody(refused, 429, RateLimitedBody);
		// Another app's authorization (and the API key) count on their own.
		const b = registerApp(sim, { secret: null });
		const other = await connectPublic(sim, b.clientId);
		expect(rateHeaders(await api(sim, 'GET', '/me', { key: other.access_token }))).toMatchObject({
			limit: 3,
			remaining: 2
		});
		expectBody(await api(sim, 'GET', '/me'), 200, Me);
	});

	it('the per-IP budget is the calling socket’s address: another loopback address has its own', async () => {
		const sim = await start({ perKeyPerMinute: 100, perIpPerMinute: 2 });
		expect((await burst(sim, 3)).map((r) => r.status)).toEqual([200, 200, 429]);
		// An instance bound to 127.0.0.2 (UPSTREAM_LOCAL_ADDRESS) calls from there.
		const from2 = keepAliveFetch({ localAddress: '127.0.0.2' });
		try {
			const res = await from2(`${sim.baseUrl}/tts/queue`, {
				headers: { authorization: `Bearer ${sim.apiKey}` }
			});
			expect(res.status).toBe(200);
			expect(res.headers.get('RateLimit-Limit')).toBe('2');
			expect(res.headers.get('RateLimit-Remaining')).toBe('1');
		} finally {
			from2.close();
		}
	});
});

describe('identity reads', () => {
	it('GET /me describes the tenant and the calling key, without OAuth fields for a key', async () => {
		const sim = await start();
		const key = sim.control.addKey({ name: 'Overlay kit', scopes: ['tts:read', 'media:read'] });
		const me = expectBody(await api(sim, 'GET', '/me', { key: key.value }), 200, Me);
		expect(me.tenant.currency).toMatch(/^[A-Z]{3}$/);
		expect(me.tenant.currency_symbol.length).toBeGreaterThan(0);
		expect(me.key).toEqual({ id: key.id, name: 'Overlay kit', scopes: ['tts:read', 'media:read'] });
		expect(me).not.toHaveProperty('credential');
		expect(me).not.toHaveProperty('oauth');

		const demo = expectBody(await api(sim, 'GET', '/me'), 200, Me);
		expect([...demo.key.scopes].sort()).toEqual([...SCOPES].sort());
		expect(demo.tenant).toEqual(me.tenant);
	});

	it('GET /events describes every event type and every scope', async () => {
		const sim = await start();
		const catalog = expectBody(await api(sim, 'GET', '/events'), 200, EventsCatalogBody);
		// The types docs/upstream.md names, and everything the contract knows.
		for (const type of [
			'tip.created',
			'tip.tts_ready',
			'queue.tts.started',
			'queue.media.released',
			'counter.updated',
			'chat.command',
			'twitch.channel_point_redemption',
			...EVENT_TYPES
		])
			expect(catalog.events[type], type).toEqual(expect.stringMatching(/\S/));
		for (const scope of SCOPES)
			expect(catalog.scopes[scope], scope).toEqual(expect.stringMatching(/\S/));
	});
});
