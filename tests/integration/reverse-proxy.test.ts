// Single mode behind a reverse proxy (README, "Behind a reverse proxy"): the browser sends the
// public address as its Origin while the proxy reaches the server under another Host (nginx's
// default: the upstream's own address) or the public one (Caddy's default). With PUBLIC_URL, or the
// name in ALLOWED_HOSTS, a POST and the push channel's WebSocket with the right key are served;
// another site's page is still refused 403 cross_site, before its key is read.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../src/server/config.ts';
import { serveApp, type ServedApp } from '../../src/server/serve.ts';
import { checkSettings } from '../fixtures/settings.ts';
import { simsPerTest, until } from '../fixtures/sim.ts';

const OVERLAY_KEY = 'proxy-overlay-key-0123456789';
const CONTROL_KEY = 'proxy-control-key-0123456789';
const PUBLIC = 'https://overlays.example.com';

const start = simsPerTest();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const close of closers.splice(0)) await close();
});

/** The server as `npm start` runs it with this environment (its proxy settings from loadConfig). */
async function served(env: Record<string, string>): Promise<ServedApp> {
	const sim = await start({ perKeyPerMinute: 100_000, perIpPerMinute: 100_000 });
	const config = loadConfig({ OVERLAY_KEY, CONTROL_KEY, ...env });
	const app = await serveApp({
		mode: 'demo',
		upstream: { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: sim.apiKey },
		overlayKey: OVERLAY_KEY,
		controlKey: CONTROL_KEY,
		dist: '/nonexistent',
		checkSettings,
		allowedHosts: config.allowedHosts,
		publicOrigin: config.publicOrigin ?? undefined
	});
	closers.push(() => app.close());
	return app;
}

/** A POST as a page sends it through the proxy: its Origin, and the Host the proxy sets. */
function post(
	app: ServedApp,
	path: string,
	headers: Record<string, string>
): Promise<{ status: number; code?: string }> {
	return new Promise((resolve, reject) => {
		const req = request(app.origin + path, { method: 'POST', headers }, (res) => {
			let text = '';
			res.on('data', (chunk) => (text += String(chunk)));
			res.on('end', () => {
				const body = JSON.parse(text || 'null') as { code?: string } | null;
				resolve({ status: res.statusCode ?? 0, code: body?.code });
			});
		});
		req.on('error', reject);
		req.end();
	});
}

/** The push channel as a page opens it through the proxy: the first frame it hears. */
async function firstFrame(app: ServedApp, headers: Record<string, string>): Promise<unknown> {
	const ws = new WebSocket(app.origin.replace('http', 'ws') + '/live', { headers });
	closers.push(async () => ws.close());
	const heard: string[] = [];
	ws.on('open', () =>
		ws.send(JSON.stringify({ type: 'auth', headers: { 'x-overlay-key': OVERLAY_KEY } }))
	);
	ws.on('message', (m) => heard.push(String(m)));
	await until(() => heard.length > 0);
	return JSON.parse(heard[0]);
}

describe.each([
	['PUBLIC_URL', { PUBLIC_URL: `${PUBLIC}/` }, PUBLIC],
	['a name in ALLOWED_HOSTS', { ALLOWED_HOSTS: 'overlays.example.com' }, PUBLIC],
	['a name in ALLOWED_HOSTS, over http', { ALLOWED_HOSTS: 'studio.lan' }, 'http://studio.lan']
])('single mode behind a reverse proxy, with %s', (_name, env, origin) => {
	const publicHost = new URL(origin).host;

	it('serves a POST and the WebSocket whose Origin is the public address, under either Host', async () => {
		const app = await served(env);
		const own = new URL(app.origin).host;
		for (const host of [own, publicHost]) {
			const page = { host, origin, 'sec-fetch-site': 'same-origin' };
			expect(await post(app, '/token', { ...page, 'x-overlay-key': OVERLAY_KEY })).toMatchObject({
				status: 200
			});
			const dock = await post(app, '/control/actions/tts-pause', {
				...page,
				'x-control-key': CONTROL_KEY
			});
			expect(dock.status, host).toBe(200);
			expect(await firstFrame(app, { host, origin })).toEqual({ type: 'open' });
		}
	});

	it("still refuses another site's page, and an origin on another port of the public name", async () => {
		const app = await served(env);
		for (const foreign of ['https://evil.example', `${origin}:8443`, 'null']) {
			const answer = await post(app, '/token', {
				origin: foreign,
				'x-overlay-key': OVERLAY_KEY
			});
			expect([answer.status, answer.code], foreign).toEqual([403, 'cross_site']);
			expect(await firstFrame(app, { origin: foreign })).toMatchObject({
				type: 'refused',
				status: 403
			});
		}
	});
});

it('without PUBLIC_URL or ALLOWED_HOSTS, a page under a public name is refused', async () => {
	const app = await served({});
	const answer = await post(app, '/token', { origin: PUBLIC, 'x-overlay-key': OVERLAY_KEY });
	expect([answer.status, answer.code]).toEqual([403, 'cross_site']);
});
