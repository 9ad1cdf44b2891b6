// `npm start` as a real process: the entry point (src/main.ts) starts, prints its URLs,
// answers over real HTTP with the guards wired to the real socket, and refuses a bad environment.
// SKIP_BUILD=1 serves dist/ as it is: building the bundle is not what these tests are about.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until, withSim, type Sim } from '../fixtures/sim.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'start-test-overlay-key-0123456789';
const CONTROL_KEY = 'start-test-control-key-0123456789';

const BASE_ENV: NodeJS.ProcessEnv = {
	...process.env,
	// Empty counts as unset: whatever the developer's shell holds, these tests choose the mode.
	TIP_API_KEY: '',
	TIP_API_BASE_URL: '',
	TIP_WS_URL: '',
	ALLOWED_HOSTS: '',
	HOST: '127.0.0.1',
	PORT: '0',
	OVERLAY_KEY: KEY,
	CONTROL_KEY,
	DEMO_TRAFFIC: '0',
	SKIP_BUILD: '1'
};

interface Running {
	child: ChildProcess;
	out: () => string;
	err: () => string;
	origin: string;
	/** Resolves with the exit code. */
	exited: Promise<number | null>;
}

function launch(env: NodeJS.ProcessEnv) {
	const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
		cwd: root,
		env: { ...BASE_ENV, ...env },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let out = '';
	let err = '';
	child.stdout!.on('data', (d) => (out += d));
	child.stderr!.on('data', (d) => (err += d));
	const exited = new Promise<number | null>((resolve) =>
		child.once('exit', (code) => resolve(code))
	);
	return { child, out: () => out, err: () => err, exited };
}

/** Starts the server and waits for the Listening line, which carries the real port. */
async function start(env: NodeJS.ProcessEnv = {}): Promise<Running> {
	const p = launch(env);
	const origin = await new Promise<string>((resolve, reject) => {
		const timer = setInterval(() => {
			const m = /Listening on (http:\/\/[^\s/]+)\n/.exec(p.out());
			if (m) {
				clearInterval(timer);
				resolve(m[1]);
			}
		}, 20);
		void p.exited.then((code) => {
			clearInterval(timer);
			reject(new Error(`exited with ${code}\n${p.out()}\n${p.err()}`));
		});
	});
	return { ...p, origin };
}

/** Runs the server expecting it to stop by itself. */
async function runToExit(env: NodeJS.ProcessEnv) {
	const p = launch(env);
	const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
	const code = await p.exited;
	clearTimeout(timer);
	return { code, out: p.out(), err: p.err() };
}

async function stop(r: Running | undefined): Promise<number | null> {
	if (!r) return null;
	if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
	return r.exited;
}

/** A raw HTTP/1.1 request: the request target and the Host header go out exactly as given. */
function rawRequest(
	origin: string,
	method: string,
	target: string,
	headers: Record<string, string>
): Promise<{ status: number; body: string }> {
	const { hostname, port } = new URL(origin);
	return new Promise((resolve, reject) => {
		const req = request({ hostname, port, method, path: target, headers }, (res) => {
			let body = '';
			res.on('data', (d) => (body += d));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
		});
		req.on('error', reject);
		req.end();
	});
}

/** The server's own realtime connection, as /healthz shows it (src/server/intake/intake.ts). */
const INTAKE = {
	connected: expect.any(Boolean),
	connects: expect.any(Number),
	reads: expect.any(Number),
	lacking: expect.any(Array)
};

describe('npm start in demo mode', () => {
	let server: Running;
	beforeAll(async () => {
		server = await start();
	}, 30_000);
	afterAll(() => stop(server));

	it('answers /healthz with demo mode and a reachable embedded simulator', async () => {
		const res = await fetch(`${server.origin}/healthz`);
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({
			ok: true,
			mode: 'demo',
			upstream: { reachable: true },
			intake: INTAKE,
			simulator: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/)
		});
	});

	it('prints one line per widget and per overlay, and every URL it prints opens a page', async () => {
		const out = server.out();
		expect(out).toContain('running in demo mode');
		expect(out).toMatch(/Preview \(open in your browser\):/);
		for (const w of [
			'tts',
			'media',
			'tip-goal',
			'counters',
			'celebration',
			'recent',
			'leaderboard'
		])
			expect(out).toMatch(new RegExp(`^\\s+${w}\\s+(http|not in this build yet)`, 'm'));
		const res = await fetch(`${server.origin}/api/overlays`, { headers: { 'x-overlay-key': KEY } });
		const { overlays } = (await res.json()) as { overlays: { name: string }[] };
		expect(overlays.length).toBeGreaterThan(0);
		for (const o of overlays) expect(out).toContain(o.name);
		const printed = [...out.matchAll(/(http:\/\/\S+\?key=\S+)/g)].map((m) => m[1]);
		for (const url of printed) {
			// The dock and the settings editor alone carry the control key; every other page the
			// overlay key.
			const control = ['/dock', '/editor'].includes(new URL(url).pathname);
			expect(url).toContain(control ? `key=${CONTROL_KEY}` : `key=${KEY}`);
			expect((await fetch(url)).status, url).toBe(200);
		}
	});

	it('prints the dock URL with the control key and says it must stay out of browser sources', () => {
		const out = server.out();
		expect(out).toMatch(
			new RegExp(
				`Dock \\(OBS: Docks > Custom Browser Docks\\): (http://\\S+/dock\\?key=${CONTROL_KEY}|not in this build yet)\n`
			)
		);
		expect(out).toContain('never in a browser source');
		expect(out).toMatch(
			new RegExp(
				`Settings editor .*: (http://\\S+/editor\\?key=${CONTROL_KEY}|not in this build yet)\n`
			)
		);
	});

	it('lets the control key, not the overlay key, act on the queues; CONTROL_KEY keeps its key', async () => {
		const act = (key: string, path: string) =>
			fetch(`${server.origin}/control/${path}`, {
				method: 'POST',
				// A client of its own: the wrong key below counts in the limiter tested further down.
				headers: { 'x-control-key': key, 'x-forwarded-for': '203.0.113.7' }
			});
		expect((await act(KEY, 'actions/tts-pause')).status).toBe(401);
		const paused = await act(CONTROL_KEY, 'actions/tts-pause');
		expect(await paused.json()).toMatchObject({ outcome: 'done' });
		await act(CONTROL_KEY, 'actions/tts-resume');
		// A new key would be lost at the next start, where CONTROL_KEY sets the old one again.
		const renewed = await act(CONTROL_KEY, 'new-key');
		expect(renewed.status).toBe(409);
		expect(await renewed.json()).toMatchObject({ code: 'control_key_in_environment' });
	});

	it('mints a realtime token and forwards an allowlisted call over real HTTP', async () => {
		const headers = { 'x-overlay-key': KEY };
		const token = await fetch(`${server.origin}/token`, { method: 'POST', headers });
		expect(token.status).toBe(200);
		expect(Object.keys(await token.json()).sort()).toEqual(['expires_at', 'token', 'ws_url']);
		// With a ticket of the mint, as a claim runner reads it: forwarded, not from the live view.
		const ticket = token.headers.get('x-read-ticket')!.split(',')[0];
		const queue = await fetch(`${server.origin}/api/tts/queue`, {
			headers: { ...headers, 'x-read-ticket': ticket }
		});
		expect(queue.status).toBe(200);
		expect(queue.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
	});

	it('sees the raw request target: dot segments and encoded slashes are refused with 400', async () => {
		for (const target of ['/api/tts/../me', '/api/tts/%2e%2e/me', '/api//me', '/api/tts\\..\\me']) {
			const res = await rawRequest(server.origin, 'GET', target, { 'x-overlay-key': KEY });
			expect(res.status, target).toBe(400);
		}
	});

	it('refuses a Host header of another domain with 421', async () => {
		const res = await rawRequest(server.origin, 'POST', '/token', {
			host: 'evil.example',
			'x-overlay-key': KEY
		});
		expect(res.status).toBe(421);
	});

	it('slows wrong keys by the real client address, serves the right key, and says so once', async () => {
		const token = (key: string) =>
			fetch(`${server.origin}/token`, { method: 'POST', headers: { 'x-overlay-key': key } });
		for (let i = 0; i < 10; i++) expect((await token('wrong-key-0123456789')).status).toBe(401);
		for (let i = 0; i < 5; i++) expect((await token('wrong-key-0123456789')).status).toBe(429);
		expect((await token(KEY)).status).toBe(200);
		await until(() => /\[keys\] wrong keys from 127\.0\.0\.1 are answered 429/.test(server.err()));
		expect(server.err().match(/\[keys\]/g)).toHaveLength(1);
		expect(server.err()).not.toContain('wrong-key-0123456789');
	});

	it('stops cleanly on SIGTERM', async () => {
		expect(await stop(server)).toBe(0);
	});
});

describe('npm start in live mode', () => {
	let sim: Sim;
	let server: Running | undefined;
	beforeAll(async () => {
		sim = await withSim();
	});
	afterAll(async () => {
		await stop(server);
		await sim.close();
	});

	it('prints the tenant, currency and scopes and warns about unneeded and missing scopes', async () => {
		const key = sim.control.addKey({ name: 'Overlay key', scopes: ['tts:read', 'viewers:read'] });
		server = await start({
			TIP_API_KEY: key.value,
			TIP_API_BASE_URL: sim.baseUrl,
			TIP_WS_URL: sim.wsUrl
		});
		const out = server.out();
		expect(out).toContain('running in live mode');
		expect(out).toMatch(
			/Upstream: Demo Streamer \(USD\), key "Overlay key" with scopes: tts:read, viewers:read/
		);
		const err = server.err();
		expect(err).toMatch(/scopes the overlay does not need \(viewers:read\)/);
		for (const missing of [
			'tts:control',
			'media:read',
			'media:control',
			'counters:manage',
			'overlays:manage',
			'chat:write'
		])
			expect(err).toContain(`lacks ${missing}`);
		expect(err).not.toContain('lacks tts:read');
		expect(out + err).not.toContain(key.value);
		const health = await fetch(`${server.origin}/healthz`);
		expect(await health.json()).toEqual({
			ok: true,
			mode: 'live',
			upstream: { reachable: true },
			intake: INTAKE
		});
	});

	it('with OAuth: a second server on the same token file stops naming the first; after a kill -9 the restart right away runs', async () => {
		const tokenFile = join(mkdtempSync(join(tmpdir(), 'start-oauth-')), 'token.json');
		const env = {
			OAUTH_CLIENT_ID: 'oc_lock_test',
			TIP_OAUTH_URL: sim.oauthUrl,
			TIP_API_BASE_URL: sim.baseUrl,
			TIP_WS_URL: sim.wsUrl,
			OAUTH_TOKEN_FILE: tokenFile
		};
		const first = await start(env);
		const second = await runToExit(env);
		expect(second.code).toBe(2);
		expect(second.err).toContain(
			`another token endpoint uses ${tokenFile}: pid ${first.child.pid}`
		);
		expect(second.err).toContain(`serving http://localhost:${new URL(first.origin).port}/`);
		expect(second.err).toContain('stop that server, or set OAUTH_TOKEN_FILE to another file');
		await new Promise<void>((resolve) => {
			first.child.once('exit', () => resolve());
			first.child.kill('SIGKILL');
		});
		const restarted = await start(env);
		expect(await (await fetch(`${restarted.origin}/healthz`)).json()).toMatchObject({ ok: true });
		await stop(restarted);
	});
});

describe('npm start with the control key in CONTROL_KEY_FILE', () => {
	it('keeps a new control key in the file, and the old key stops at once', async () => {
		const file = join(mkdtempSync(join(tmpdir(), 'start-control-')), '.control-key');
		const server = await start({ CONTROL_KEY: '', CONTROL_KEY_FILE: file });
		try {
			const old = readFileSync(file, 'utf8').trim();
			const call = (key: string, path: string) =>
				fetch(`${server.origin}/control/${path}`, {
					method: 'POST',
					headers: { 'x-control-key': key }
				});
			const res = await call(old, 'new-key');
			expect(res.status).toBe(200);
			const { key } = (await res.json()) as { key: string };
			expect(readFileSync(file, 'utf8').trim()).toBe(key);
			expect(statSync(file).mode & 0o777).toBe(0o600);
			expect((await call(old, 'actions/tts-resume')).status).toBe(401);
			expect((await call(key, 'actions/tts-resume')).status).toBe(200);
			expect(server.out() + server.err()).not.toContain(key);
		} finally {
			await stop(server);
		}
	});
});

describe('npm start with a bad environment', () => {
	it('exits non-zero with a message naming PORT when PORT is not a number', async () => {
		const { code, out, err } = await runToExit({ PORT: 'abc' });
		expect(code).not.toBe(0);
		expect(code).not.toBeNull();
		expect(err).toMatch(/PORT: expected a port number/);
		expect(out).not.toContain('Listening on');
	});

	it('exits non-zero naming both addresses when TIP_API_KEY is set without them', async () => {
		const { code, err } = await runToExit({ TIP_API_KEY: 'tk_live_0123456789abcdef' });
		expect(code).not.toBe(0);
		expect(err).toMatch(/TIP_API_BASE_URL: required/);
		expect(err).toMatch(/TIP_WS_URL: required/);
		expect(err).not.toContain('tk_live_0123456789abcdef');
	});

	it('exits non-zero naming PORT when the port is already in use', async () => {
		const blocker = createServer();
		await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
		const { port } = blocker.address() as AddressInfo;
		try {
			const { code, err } = await runToExit({ PORT: String(port) });
			expect(code).not.toBe(0);
			expect(err).toContain(`PORT: ${port} is already in use`);
		} finally {
			await new Promise<void>((resolve) => blocker.close(() => resolve()));
		}
	});
});
