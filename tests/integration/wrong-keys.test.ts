// Wrong keys never lock the streamer out: the token endpoint on a real port (src/server/serve.ts,
// every request from 127.0.0.1 as OBS sends them) keeps answering wrong overlay and control keys,
// missing ones included, 401 and then 429 to their address, while the right keys from that very
// address are served at once on every route a source or the dock uses: /token, /api, /settings,
// /live (its WebSocket) and /control. Requests that other sites' pages send count nothing, and the
// limiter's memory is bounded without forgetting everyone at once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FailureLimiter } from '../../src/server/security.ts';
import { serveApp, type ServedApp } from '../../src/server/serve.ts';
import { checkSettings } from '../fixtures/settings.ts';
import { readyTip, simsPerTest, until, withSim, type Sim } from '../fixtures/sim.ts';
import {
	OVERLAY_KEY as KEY,
	send,
	simUpstream,
	tokenEndpoint
} from '../fixtures/token-endpoint.ts';

const OVERLAY_KEY = 'wrong-keys-overlay-key-0123456789';
const CONTROL_KEY = 'wrong-keys-control-key-0123456789';
const OLD_KEY = 'an-old-overlay-key-from-last-week-0123';

const start = simsPerTest();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const close of closers.splice(0)) await close();
});

async function served(): Promise<{ sim: Sim; app: ServedApp }> {
	const sim = await start({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
	const app = await serveApp({
		mode: 'demo',
		upstream: { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: sim.apiKey },
		overlayKey: OVERLAY_KEY,
		controlKey: CONTROL_KEY,
		dist: '/nonexistent',
		checkSettings
	});
	closers.push(() => app.close());
	return { sim, app };
}

type Headers = Record<string, string>;
const overlay = (key: string | null): Headers => (key === null ? {} : { 'x-overlay-key': key });
const control = (key: string | null): Headers => (key === null ? {} : { 'x-control-key': key });

/** What a source or the dock sends: each route they use, with `headers` as their credential. */
const SOURCE_CALLS: [string, string][] = [
	['POST', '/token'],
	['GET', '/api/tts/queue'],
	['GET', '/api/me'],
	['GET', '/settings']
];
const DOCK_CALLS: [string, string][] = [
	['POST', '/control/token'],
	['GET', '/control/api/tts/queue'],
	['GET', '/control/settings'],
	['POST', '/control/actions/tts-pause'],
	['POST', '/control/actions/tts-resume']
];

async function call(app: ServedApp, method: string, path: string, headers: Headers) {
	const res = await fetch(app.origin + path, { method, headers });
	const body = (await res.json().catch(() => null)) as { code?: string } | null;
	return { status: res.status, code: body?.code, retryAfter: res.headers.get('retry-after') };
}

/** The push channel's WebSocket (/live or /control/live): what it heard first, and how it closed. */
function channel(app: ServedApp, path: string, headers: Headers) {
	const ws = new WebSocket(app.origin.replace('http', 'ws') + path);
	const heard: string[] = [];
	const state = { code: 0 };
	ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', headers })));
	ws.on('message', (m) => heard.push(String(m)));
	ws.on('close', (code) => (state.code = code));
	closers.push(async () => ws.close());
	return { heard, state, text: () => heard.join('\n') };
}

/** Forgotten sources and strangers: wrong and missing keys of both kinds, `n` rounds. */
async function knock(app: ServedApp, n: number) {
	const answers: { status: number; code?: string; retryAfter: string | null }[] = [];
	for (let i = 0; i < n; i++)
		for (const [method, path] of SOURCE_CALLS)
			for (const headers of [overlay(OLD_KEY), overlay(null), overlay(CONTROL_KEY)])
				answers.push(await call(app, method, path, headers));
	for (let i = 0; i < n; i++)
		for (const [method, path] of DOCK_CALLS)
			for (const headers of [control(OLD_KEY), control(null), control(OVERLAY_KEY)])
				answers.push(await call(app, method, path, headers));
	return answers;
}

// The limiter itself, through createApp with the client named by a test header.
let shared: Sim;
beforeAll(async () => {
	shared = await withSim({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
});
afterAll(() => shared.close());
const endpoint = (options: Parameters<typeof tokenEndpoint>[1] = {}) =>
	tokenEndpoint(simUpstream(shared), options);
/** Routes that need the overlay key, one of each kind. */
const KEYED: [string, string][] = [
	['POST', '/token'],
	['GET', '/api/me'],
	['GET', '/api/tts/queue'],
	['POST', '/api/tts/tip_1_abc/start']
];

describe('the wrong-key limiter', () => {
	it('answers 429 with Retry-After to wrong keys after 10 from one client, and serves the right key at once', async () => {
		const { app, calls } = endpoint();
		for (let i = 0; i < 10; i++)
			expect((await send(app, 'POST', '/token', { key: 'guess-' + i, client: 'a' })).status).toBe(
				401
			);
		for (const [method, target] of KEYED) {
			const res = await send(app, method, target, { key: 'guess-more', client: 'a' });
			expect(res.status, `${method} ${target}`).toBe(429);
			expect(await res.json()).toMatchObject({ code: 'too_many_attempts' });
			const wait = Number(res.headers.get('retry-after'));
			expect(wait).toBeGreaterThan(0);
			expect(wait).toBeLessThanOrEqual(60);
		}
		expect(calls).toEqual([]);
		// The same client, the right key: served (forwarded upstream), between wrong ones still refused.
		for (const [method, target] of KEYED) {
			const before = calls.length;
			const res = await send(app, method, target, { client: 'a' });
			expect([401, 403, 429], `${method} ${target}`).not.toContain(res.status);
			expect(calls.length, `${method} ${target}`).toBe(before + 1);
			expect((await send(app, 'GET', '/api/me', { key: 'guess', client: 'a' })).status).toBe(429);
		}
	});

	it('never counts the right key, and keeps other clients at 401', async () => {
		const { app } = endpoint();
		for (let i = 0; i < 9; i++) await send(app, 'GET', '/api/me', { key: 'guess', client: 'a' });
		for (let i = 0; i < 5; i++)
			expect((await send(app, 'GET', '/api/me', { client: 'a' })).status).toBe(200);
		expect((await send(app, 'GET', '/api/me', { key: 'guess', client: 'a' })).status).toBe(401);
		expect((await send(app, 'GET', '/api/me', { key: 'guess', client: 'a' })).status).toBe(429);
		expect((await send(app, 'GET', '/api/me', { key: 'guess', client: 'b' })).status).toBe(401);
	});

	it('refuses requests of other sites first, counting none of them', async () => {
		const { app, calls } = endpoint();
		const foreign: Record<string, string>[] = [
			{ 'sec-fetch-site': 'cross-site' },
			{ 'sec-fetch-site': 'same-site' },
			{ origin: 'https://evil.example' },
			{ origin: 'http://127.0.0.1:9999' },
			{ origin: 'null' },
			{ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }
		];
		for (let i = 0; i < 5; i++)
			for (const headers of foreign)
				for (const key of [null, 'guess-0123456789', KEY]) {
					const res = await send(app, 'POST', '/token', { key, headers, client: 'a' });
					expect(res.status).toBe(403);
					expect(await res.json()).toMatchObject({ code: 'cross_site' });
				}
		expect(calls).toEqual([]);
		// None of the 90 counted: a wrong key from the same client is still only 401.
		expect((await send(app, 'GET', '/api/me', { key: 'guess', client: 'a' })).status).toBe(401);
		// Our own pages: same-origin fetches, and POSTs whose Origin is this server's.
		const own: Record<string, string>[] = [
			{ 'sec-fetch-site': 'same-origin' },
			{ 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:8787' },
			{}
		];
		for (const headers of own)
			expect((await send(app, 'GET', '/api/me', { headers, client: 'a' })).status).toBe(200);
	});

	it('remembers a bounded number of clients, forgetting the one that failed least recently', async () => {
		let now = 0;
		const failures = new FailureLimiter(2, 60_000, () => now, 3);
		const { app } = endpoint({ failures });
		const wrong = (client: string) =>
			send(app, 'GET', '/api/me', { key: 'guess', client }).then((r) => r.status);
		expect([await wrong('a'), await wrong('a'), await wrong('a')]).toEqual([401, 401, 429]);
		for (const client of ['b', 'c']) await wrong(client);
		expect(failures.clients).toBe(3);
		// 'a' failed again, so 'b' is now the one that failed least recently, and goes first.
		expect(await wrong('a')).toBe(429);
		now += 1;
		await wrong('d');
		expect(failures.clients).toBe(3);
		expect(await wrong('a')).toBe(429);
		// A flood from many addresses forgets the old ones one at a time, never everyone at once.
		for (let i = 0; i < 1000; i++) await wrong(`flood-${i}`);
		expect(failures.clients).toBe(3);
		expect(await wrong('flood-999')).toBe(401);
		expect(await wrong('flood-999')).toBe(429);
		expect((await send(app, 'GET', '/api/me', { client: 'flood-999' })).status).toBe(200);
	});
});

describe('wrong keys from the address of every source', () => {
	it('are answered 401, then 429 with Retry-After; the right keys are served at once on every route', async () => {
		const { sim, app } = await served();
		const wrong = await knock(app, 3);
		expect(wrong.slice(0, 10).every((a) => a.status === 401)).toBe(true);
		expect(wrong.slice(10).every((a) => a.status === 429 && a.code === 'too_many_attempts')).toBe(
			true
		);
		expect(wrong.slice(10).every((a) => Number(a.retryAfter) > 0)).toBe(true);
		const upstreamBefore = sim.control.log.requests().length;

		// While the wrong ones keep knocking, every right call is served as it would be on any day.
		const tip = await readyTip(sim);
		const [right, more] = await Promise.all([
			(async () => {
				const answers: [string, number][] = [];
				for (const [method, path] of SOURCE_CALLS)
					answers.push([path, (await call(app, method, path, overlay(OVERLAY_KEY))).status]);
				for (const [method, path] of DOCK_CALLS)
					answers.push([path, (await call(app, method, path, control(CONTROL_KEY))).status]);
				const started = await call(
					app,
					'POST',
					`/api/tts/${tip.order_id}/start`,
					overlay(OVERLAY_KEY)
				);
				answers.push(['start', started.status]);
				return answers;
			})(),
			knock(app, 1)
		]);
		expect(right).toEqual([
			['/token', 200],
			['/api/tts/queue', 200],
			['/api/me', 200],
			['/settings', 200],
			['/control/token', 200],
			['/control/api/tts/queue', 200],
			['/control/settings', 200],
			['/control/actions/tts-pause', 200],
			['/control/actions/tts-resume', 200],
			['start', 200]
		]);
		expect(more.every((a) => a.status === 429)).toBe(true);
		// Only the right calls reached the upstream (a wrong key never costs it anything).
		const reached = sim.control.log.requests().slice(upstreamBefore);
		expect(reached.some((r) => r.path === `/tts/${tip.order_id}/start`)).toBe(true);
		expect(reached.length).toBeLessThanOrEqual(right.length + 4);

		// The push channel: a wrong key is refused 429, the right ones open.
		const refused = channel(app, '/live', overlay(OLD_KEY));
		const page = channel(app, '/live', overlay(OVERLAY_KEY));
		const dock = channel(app, '/control/live', control(CONTROL_KEY));
		await until(() => refused.state.code !== 0);
		expect(JSON.parse(refused.heard[0])).toMatchObject({ type: 'refused', status: 429 });
		await until(() => page.text().includes('"hello"') && dock.text().includes('"hello"'));
	});

	it('never count when another site sent them, and a wrong key after them is a first one', async () => {
		const { app } = await served();
		const foreign: Headers[] = [
			{ 'sec-fetch-site': 'cross-site' },
			{ origin: 'https://evil.example' },
			{ origin: 'null' }
		];
		for (let i = 0; i < 20; i++)
			for (const headers of foreign) {
				const answer = await call(app, 'POST', '/token', { ...headers, ...overlay(OLD_KEY) });
				expect([answer.status, answer.code]).toEqual([403, 'cross_site']);
				const dock = await call(app, 'POST', '/control/actions/tts-pause', {
					...headers,
					...control(OLD_KEY)
				});
				expect([dock.status, dock.code]).toEqual([403, 'cross_site']);
			}
		// A WebSocket opened by another site's page is refused the same way.
		const socket = new WebSocket(app.origin.replace('http', 'ws') + '/live', {
			headers: { origin: 'https://evil.example' }
		});
		const heard: string[] = [];
		socket.on('open', () =>
			socket.send(JSON.stringify({ type: 'auth', headers: overlay(OVERLAY_KEY) }))
		);
		socket.on('message', (m) => heard.push(String(m)));
		closers.push(async () => socket.close());
		await until(() => heard.length > 0);
		expect(JSON.parse(heard[0])).toMatchObject({ type: 'refused', status: 403 });
		expect((await call(app, 'POST', '/token', overlay(OLD_KEY))).status).toBe(401);
	});
});
