// The token endpoint's refusals, against a real simulator: the overlay key (wrong-keys.test.ts: its limiter),
// the Host check (DNS rebinding), raw path tricks, odd ids and methods off the allowlist, closed CORS,
// no cookies, and the secrets in no response of any route.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type Route } from '../../src/contract/index.ts';
import { readyTip, withSim, type Sim } from '../fixtures/sim.ts';
import {
	concrete,
	headersOf,
	OVERLAY_KEY,
	send,
	simUpstream,
	tokenEndpoint,
	type Endpoint,
	type SendOptions
} from '../fixtures/token-endpoint.ts';

let sim: Sim;
let overlayId: string;

beforeAll(async () => {
	sim = await withSim({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
	overlayId = [...sim.control.model.overlays.keys()][0];
});
afterAll(() => sim.close());
afterEach(() => sim.control.clearFaults());

const fresh = (options: Parameters<typeof tokenEndpoint>[1] = {}): Endpoint =>
	tokenEndpoint(simUpstream(sim), options);

/** Routes that need the key, one of each kind. */
const KEYED: [string, string][] = [
	['POST', '/token'],
	['GET', '/api/me'],
	['GET', '/api/tts/queue'],
	['POST', '/api/tts/tip_1_abc/start']
];

describe('the overlay key', () => {
	const wrong: [string, SendOptions][] = [
		['no key', { key: null }],
		['an empty key', { key: '' }],
		['a wrong key', { key: 'wrong-overlay-key-0123456789' }],
		['the key with one more character', { key: OVERLAY_KEY + 'x' }],
		['the key without its last character', { key: OVERLAY_KEY.slice(0, -1) }],
		['the key in upper case', { key: OVERLAY_KEY.toUpperCase() }],
		['the key followed by more text', { key: `${OVERLAY_KEY} x` }],
		['the key only in ?key=', { key: null }],
		[
			'the key only as a bearer token',
			{ key: null, headers: { authorization: `Bearer ${OVERLAY_KEY}` } }
		],
		['the key only as a cookie', { key: null, headers: { cookie: `key=${OVERLAY_KEY}` } }]
	];

	it.each(wrong)('answers 401 with no upstream call for %s', async (_, opts) => {
		const { app, calls } = fresh();
		for (const [method, target] of KEYED) {
			const res = await send(app, method, `${target}?key=${OVERLAY_KEY}`, opts);
			expect(res.status, `${method} ${target}`).toBe(401);
			expect(await res.json()).toEqual({
				error: 'missing or wrong overlay key (the ?key= of the URL)',
				code: 'bad_overlay_key'
			});
		}
		expect(calls).toEqual([]);
	});

	it('is not needed for /healthz and the pages, which hold no secret', async () => {
		const { app } = fresh({ readPage: async () => '<!doctype html>' });
		expect((await send(app, 'GET', '/healthz', { key: null })).status).toBe(200);
		expect((await send(app, 'GET', '/widget/tts', { key: null })).status).toBe(200);
	});
});

describe('the Host header', () => {
	it.each([
		'evil.example',
		'evil.example:8787',
		'localhost.evil.example',
		'127.0.0.1.nip.io',
		'studio.lan'
	])('refuses Host %s with no upstream call (DNS rebinding)', async (host) => {
		const { app, calls } = fresh({ readPage: async () => '<!doctype html>' });
		for (const [method, target] of [
			['GET', '/healthz'],
			['POST', '/token'],
			['GET', '/api/me'],
			['GET', '/widget/tts']
		]) {
			const res = await send(app, method, target, { host });
			expect(res.status, `${method} ${target}`).toBe(421);
			expect(await res.json()).toMatchObject({ code: 'bad_host' });
		}
		expect(calls).toEqual([]);
	});

	it('refuses a request without a Host header', async () => {
		const { app, calls } = fresh();
		expect((await send(app, 'POST', '/token', { host: null })).status).toBe(421);
		expect(calls).toEqual([]);
	});

	it.each(['127.0.0.1:8787', 'localhost:8787', 'LOCALHOST', '[::1]:8787', 'obs.localhost:8787'])(
		'accepts Host %s, which cannot be rebound',
		async (host) => {
			const { app } = fresh();
			expect((await send(app, 'GET', '/api/me', { host })).status).toBe(200);
		}
	);

	it('accepts a name listed in allowedHosts', async () => {
		const { app } = fresh({ allowedHosts: ['studio.lan'] });
		expect((await send(app, 'GET', '/api/me', { host: 'studio.lan:8787' })).status).toBe(200);
	});
});

describe('path tricks', () => {
	it.each([
		'/api/tts/../me',
		'/api/tts/tip_1_abc/../../me',
		'/api/./me',
		'/api/tts/%2e%2e/me',
		'/api/tts/%2E%2E/me',
		'/api/tts/.%2e/me',
		'/api/tts/tip_1_abc%2Fstart',
		'/api/tts/tip_1_abc%2fstart',
		'/api/tts/tip_1_abc%5Cstart',
		'/api//me',
		'/api/tts//queue',
		'/api/tts\\..\\me',
		'/api/me%00',
		'/widget/../token',
		'/api/me/..'
	])('refuses the raw target %s with 400 and no upstream call', async (target) => {
		const { app, calls } = fresh();
		for (const method of ['GET', 'POST']) {
			const res = await send(app, method, target);
			expect(res.status, `${method} ${target}`).toBe(400);
			expect(await res.json()).toMatchObject({ code: 'bad_path' });
		}
		expect(calls).toEqual([]);
	});

	it('refuses an encoded slash in an id even where the runtime gives no raw target', async () => {
		const { app, calls } = fresh({ rawTarget: undefined });
		const res = await send(app, 'POST', '/api/tts/tip_1_abc%2Fstart%2F..%2F..%2Fclear/start');
		expect(res.status).toBe(404);
		expect(calls).toEqual([]);
	});

	const odd = [
		['an overlong order id', `/api/tts/${'a'.repeat(129)}/start`, 'POST'],
		['an order id with a space', '/api/tts/tip%201/start', 'POST'],
		['an order id with a leading dash', '/api/tts/-tip_1/start', 'POST'],
		['an order id with a dot', '/api/media/tip.1/finish', 'POST'],
		['an order id with non-ASCII', `/api/tts/${encodeURIComponent('tïp_1')}/start`, 'POST'],
		['an order id with a colon', '/api/tts/tip:1/release', 'POST'],
		['an overlay id without 8 hex', '/api/overlays/o_123', 'GET'],
		['an overlay id in upper case', '/api/overlays/O_0123ABCD/tip-goal', 'GET'],
		['a counter name in upper case', '/api/counters/Deaths', 'GET'],
		['an overlong counter name', `/api/counters/${'a'.repeat(65)}`, 'GET'],
		['a trailing slash', '/api/tts/queue/', 'GET'],
		['an upper-case path', '/api/ME', 'GET'],
		['the version prefix', '/api/v1/me', 'GET'],
		['a path with no route', '/api/tts', 'GET'],
		['the bare prefix', '/api', 'GET'],
		['a sub-path of a route', '/api/me/secrets', 'GET']
	] as const;

	it.each(odd)('answers 404 for %s with no upstream call', async (_, target, method) => {
		const { app, calls } = fresh();
		const res = await send(app, method, target);
		expect(res.status).toBe(404);
		expect(await res.json()).toMatchObject({ code: 'not_forwarded' });
		expect(calls).toEqual([]);
	});

	it('forwards an order id of the longest allowed length', async () => {
		const { app, calls } = fresh();
		const id = 'a'.repeat(128);
		expect((await send(app, 'POST', `/api/tts/${id}/start`)).status).toBe(404);
		expect(calls).toEqual([`POST /tts/${id}/start`]);
	});
});

describe('methods and calls off the allowlist', () => {
	const example = {
		orderId: 'tip_1_abc',
		name: 'deaths',
		overlayId: 'o_0123abcd',
		endpointId: 'we_81f0',
		commandName: 'skip'
	};
	const offList = (Object.entries(ROUTES) as [string, Route][]).filter(([, r]) => !r.proxied);

	it.each(offList.map(([name, r]) => [name, r.method, concrete(r.path, example)] as const))(
		'refuses %s (%s %s) with 404 or 405 and no upstream call',
		async (_, method, target) => {
			const { app, calls } = fresh();
			const res = await send(app, method, `/api${target}`, {
				body: method === 'GET' ? undefined : '{}',
				headers: { 'content-type': 'application/json' }
			});
			expect([404, 405]).toContain(res.status);
			expect(calls).toEqual([]);
		}
	);

	it.each([
		['POST', '/api/tts/clear', 404, null],
		['POST', '/api/tips', 404, null],
		['DELETE', '/api/tts/tip_1_abc', 404, null],
		['POST', '/api/realtime/token', 404, null],
		['DELETE', '/api/counters/x', 405, 'GET'],
		['PUT', '/api/counters/deaths', 405, 'GET'],
		['PATCH', '/api/overlays/o_0123abcd/tip-goal', 405, 'GET'],
		['DELETE', '/api/overlays/o_0123abcd', 405, 'GET'],
		['POST', '/api/media/queue', 405, 'GET'],
		['POST', '/api/me', 405, 'GET'],
		['GET', '/api/tts/tip_1_abc/start', 405, 'POST'],
		['PUT', '/api/media/tip_1_abc/finish', 405, 'POST'],
		['HEAD', '/api/me', 405, 'GET']
	] as const)(
		'answers %s %s with %i and no upstream call',
		async (method, target, status, allow) => {
			const { app, calls } = fresh();
			const res = await send(app, method, target);
			expect(res.status).toBe(status);
			expect(res.headers.get('allow')).toBe(allow);
			expect(calls).toEqual([]);
		}
	);
});

describe('CORS and cookies', () => {
	const preflight = {
		origin: 'https://evil.example',
		'access-control-request-method': 'POST',
		'access-control-request-headers': 'x-overlay-key'
	};

	it.each(['/token', '/api/me', '/api/tts/tip_1_abc/start', '/healthz', '/widget/tts'])(
		'answers an OPTIONS preflight to %s with no Access-Control-Allow-* header',
		async (target) => {
			const { app, calls } = fresh();
			for (const key of [null, OVERLAY_KEY]) {
				const res = await send(app, 'OPTIONS', target, { key, headers: preflight });
				expect(res.status).toBeGreaterThanOrEqual(400);
				expect(Object.keys(headersOf(res)).filter((h) => h.startsWith('access-control-'))).toEqual(
					[]
				);
			}
			expect(calls).toEqual([]);
		}
	);

	it('refuses a cross-origin request before the upstream, with no CORS header', async () => {
		const { app, calls } = fresh();
		const res = await send(app, 'GET', '/api/me', { headers: { origin: 'https://evil.example' } });
		expect(res.status).toBe(403);
		expect(res.headers.get('access-control-allow-origin')).toBeNull();
		expect(calls).toEqual([]);
	});
});

/**
 * Every route and every refusal, upstream failures included. Each entry makes one response; the
 * gallery test checks all of them for secrets, cookies and CORS headers.
 */
async function gallery(): Promise<[string, Response][]> {
	const page = async () => '<!doctype html><title>page</title>';
	const live = fresh({ readPage: page });
	const port = await (async () => {
		const s = createServer();
		await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
		const p = (s.address() as AddressInfo).port;
		await new Promise<void>((r) => s.close(() => r()));
		return p;
	})();
	const down = tokenEndpoint({
		baseUrl: `http://127.0.0.1:${port}/v1`,
		wsUrl: `ws://127.0.0.1:${port}/realtime`,
		apiKey: sim.apiKey
	});
	const revoked = sim.control.addKey({ name: 'revoked' });
	sim.control.revokeKey(revoked.value);
	const refused = tokenEndpoint(simUpstream(sim, revoked.value));
	const tip = await readyTip(sim);
	const media = sim.control.model.enqueueMedia({ url: 'https://example.com/v.mp4' }, 'Viewer');

	const out: [string, Response][] = [];
	const take = async (
		label: string,
		app: Endpoint,
		method: string,
		target: string,
		opts: SendOptions = {}
	) => out.push([label, await send(app.app, method, target, opts)]);

	for (const [name, r] of Object.entries(ROUTES) as [string, Route][]) {
		const target = `/api${concrete(r.path, {
			orderId: tip.order_id,
			name: 'deaths',
			overlayId,
			endpointId: 'we_81f0',
			commandName: 'skip'
		})}`;
		await take(`${name} with the key`, live, r.method, target);
		// Another client, so that the failed-key limiter does not block the rest of the gallery.
		await take(`${name} without the key`, live, r.method, target, { key: null, client: name });
	}
	const mediaId = media.order_id;
	for (const step of ['start', 'release', 'start', 'finish', 'finish'])
		await take(`media ${step}`, live, 'POST', `/api/media/${mediaId}/${step}`);
	for (const step of ['start', 'finish', 'finish'])
		await take(`tts ${step}`, live, 'POST', `/api/tts/${tip.order_id}/${step}`);
	await take('token', live, 'POST', '/token');
	await take('healthz', live, 'GET', '/healthz');
	for (const p of [
		'/widget/tts',
		'/widget/nope',
		`/overlay/${overlayId}`,
		'/preview',
		'/',
		'/nope'
	])
		await take(`page ${p}`, live, 'GET', p);
	await take('path trick', live, 'GET', '/api/tts/../me');
	await take('odd id', live, 'POST', `/api/tts/${'x'.repeat(200)}/start`);
	await take('wrong host', live, 'POST', '/token', { host: 'evil.example' });
	await take('preflight', live, 'OPTIONS', '/token', {
		headers: { origin: 'https://evil.example' }
	});
	await take('large body', live, 'POST', `/api/tts/${tip.order_id}/release`, {
		body: 'x'.repeat(100_000)
	});
	for (const status of [429, 502] as const) {
		sim.control.failHttp({ status, count: 2 });
		await take(`injected ${status} on /token`, live, 'POST', '/token');
		await take(`injected ${status} on /api`, live, 'GET', '/api/tts/queue');
	}
	await take('unreachable /token', down, 'POST', '/token');
	await take('unreachable /api', down, 'GET', '/api/me');
	await take('unreachable /healthz', down, 'GET', '/healthz');
	await take('revoked key /token', refused, 'POST', '/token');
	await take('revoked key /api', refused, 'GET', '/api/me');
	for (let i = 0; i < 11; i++)
		await take(`wrong key ${i}`, live, 'POST', '/token', { key: 'guess', client: 'guesser' });
	await take('blocked client', live, 'POST', '/token', { client: 'guesser' });
	return out;
}

describe('secrets', () => {
	it('puts neither the API key nor the overlay key in any response body or header', async () => {
		const responses = await gallery();
		expect(responses.length).toBeGreaterThan(100);
		const statuses = new Set(responses.map(([, r]) => r.status));
		// The gallery really covers successes, refusals and upstream failures.
		for (const s of [200, 400, 401, 404, 405, 409, 421, 429, 502]) expect(statuses).toContain(s);
		for (const [label, res] of responses) {
			const body = await res.text();
			for (const secret of [sim.apiKey, OVERLAY_KEY]) {
				expect(body, label).not.toContain(secret);
				for (const [name, value] of res.headers)
					expect(value, `${label}: ${name}`).not.toContain(secret);
			}
			expect(res.headers.get('set-cookie'), label).toBeNull();
			expect(res.headers.get('access-control-allow-origin'), label).toBeNull();
		}
	});
});
