// The token endpoint as an OAuth client of the simulator (issue "Connect with OAuth"): connect,
// durable rotation, one refresh under concurrency, 401 invalid_token, crash in the store window,
// revocation, deny and refused redirects, and the /oauth routes.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { UpstreamClient, type Fetch } from '../../src/server/upstream.ts';
import {
	authorizeInBrowser,
	connected,
	newConnection,
	tokenFile
} from '../fixtures/oauth-client.ts';
import { decide, REDIRECT } from '../fixtures/oauth.ts';
import { OVERLAY_KEY, send } from '../fixtures/token-endpoint.ts';
import { simsPerTest, until } from '../fixtures/sim.ts';

const start = simsPerTest();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stored = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('connecting', () => {
	it('stores the refresh token owner-only and calls the upstream with the access token', async () => {
		const sim = await start();
		const file = tokenFile();
		const { connection, upstream } = await connected(sim, { file });
		const status = await connection.status();
		expect(status.state).toBe('connected');
		expect(status.tenant).toBe(sim.control.model.tenant.name);
		expect(status.scopes).toContain('tts:control');
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(stored(file).status).toBe('connected');
		expect(stored(file).refresh_token).toMatch(/^tprt_/);
		const me = await upstream.call('GET', '/me');
		expect(me.status).toBe(200);
		expect((await me.json()).credential).toBe('oauth');
		expect(sim.control.log.requests({ path: '/me' }).at(-1)?.key).toMatch(/^oa_/);
	});

	it('a confidential client works the same with its secret', async () => {
		const sim = await start();
		const { upstream } = await connected(sim, { secret: 'ocs_confidential_test_secret' });
		expect((await upstream.call('GET', '/me')).status).toBe(200);
	});

	it('an upstream without RFC 8414 metadata still connects at the documented endpoints', async () => {
		const sim = await start();
		const noMetadata: Fetch = (url, init) =>
			url.includes('/.well-known/')
				? Promise.resolve(new Response('not found', { status: 404 }))
				: fetch(url, init);
		const { upstream } = await connected(sim, { fetch: noMetadata });
		expect((await upstream.call('GET', '/me')).status).toBe(200);
	});

	it('a denied consent is reported clearly and nothing is stored', async () => {
		const sim = await start();
		const { app } = sim.control.oauth.registerApp({ secret: null, redirectUris: [REDIRECT] });
		const file = tokenFile();
		const connection = newConnection(sim, app.id, { file });
		await authorizeInBrowser(sim, connection, false);
		const status = await connection.status();
		expect(status.state).toBe('disconnected');
		expect(status.last_error?.code).toBe('access_denied');
		expect(status.last_error?.message).toMatch(/denied/);
		expect(() => readFileSync(file)).toThrow();
	});

	it('a callback with a state this server did not start is refused', async () => {
		const sim = await start();
		const { app } = sim.control.oauth.registerApp({ secret: null, redirectUris: [REDIRECT] });
		const connection = newConnection(sim, app.id);
		await expect(
			connection.callback(new URLSearchParams({ code: 'ocd_x', state: 'forged' }))
		).rejects.toMatchObject({ code: 'bad_state' });
	});

	it('an unregistered redirect URI is caught before the streamer leaves, naming the URI', async () => {
		const sim = await start();
		const { app } = sim.control.oauth.registerApp({
			secret: null,
			redirectUris: ['http://localhost:1/elsewhere']
		});
		const connection = newConnection(sim, app.id);
		const problem = await connection.preflight(await connection.start());
		expect(problem?.code).toBe('redirect_refused');
		expect(problem?.message).toContain(REDIRECT);
		expect((await connection.status()).last_error?.code).toBe('redirect_refused');
	});
});

describe('refreshing', () => {
	it('concurrent requests at expiry cause exactly one refresh, and all succeed', async () => {
		const sim = await start();
		sim.control.oauth.accessTtlS = 1;
		const { upstream } = await connected(sim);
		await sleep(1100);
		const results = await Promise.all(
			Array.from({ length: 25 }, (_, i) =>
				upstream.call('GET', i % 2 ? '/tts/queue' : '/media/queue')
			)
		);
		expect(results.map((r) => r.status)).toEqual(Array(25).fill(200));
		expect(sim.control.log.oauthEntries('refresh_token')).toHaveLength(1);
		expect(sim.control.log.oauthEntries('reuse_detected')).toHaveLength(0);
	});

	it('a 401 invalid_token refreshes once and retries the call', async () => {
		const sim = await start();
		sim.control.oauth.accessTtlS = 1;
		// The client's clock stands still, so it believes its token is fresh: only the 401 tells it.
		const frozen = Date.now();
		const { upstream } = await connected(sim, { now: () => frozen });
		await sleep(1100);
		const res = await upstream.call('GET', '/me');
		expect(res.status).toBe(200);
		const me = sim.control.log.requests({ path: '/me' }).slice(-2);
		expect(me.map((r) => [r.status, r.code ?? null])).toEqual([
			[401, 'invalid_token'],
			[200, null]
		]);
		expect(sim.control.log.oauthEntries('refresh_token')).toHaveLength(1);
	});

	it('the new refresh token is on disk before the new access token is used', async () => {
		const sim = await start();
		sim.control.oauth.accessTtlS = 1;
		const file = tokenFile();
		const seen: { refresh: string | null }[] = [];
		let lastIssued: string | null = null;
		const oauthFetch: Fetch = async (url, init) => {
			const res = await fetch(url, init);
			if (url.endsWith('/oauth/token'))
				lastIssued = (await res.clone().json()).refresh_token ?? null;
			return res;
		};
		const apiFetch: Fetch = (url, init) => {
			// Whenever a call goes out, the file holds the newest refresh token, marked connected.
			const onDisk = stored(file);
			expect(onDisk.status).toBe('connected');
			seen.push({ refresh: onDisk.refresh_token });
			expect(onDisk.refresh_token).toBe(lastIssued);
			return fetch(url, init);
		};
		const { upstream } = await connected(sim, { file, fetch: oauthFetch, apiFetch });
		for (let i = 0; i < 3; i++) {
			await sleep(1050);
			expect((await upstream.call('GET', '/tts/queue')).status).toBe(200);
		}
		expect(new Set(seen.map((s) => s.refresh)).size).toBeGreaterThanOrEqual(3);
	});

	it('a crash between receiving and storing a new refresh token ends in "reconnect", never in reuse', async () => {
		const sim = await start();
		sim.control.oauth.accessTtlS = 1;
		const file = tokenFile();
		// The process "dies" as the refresh answer arrives: the answer is never handed on.
		let answered = false;
		const crashing: Fetch = async (url, init) => {
			const res = await fetch(url, init);
			if (url.endsWith('/oauth/token') && String(init?.body).includes('grant_type=refresh_token')) {
				answered = true;
				return new Promise<Response>(() => {});
			}
			return res;
		};
		const first = await connected(sim, { file, fetch: crashing });
		await sleep(1100); // the 1 s access token expires
		// The dying process's call: it never answers; whatever becomes of it is handled here.
		let lost = 'no answer';
		first.upstream.call('GET', '/me').then(
			(res) => (lost = `answered ${res.status}`),
			(err: unknown) => (lost = `failed: ${String(err)}`)
		);
		await until(() => answered, 10_000);
		expect(stored(file).status).toBe('refreshing');
		expect(lost).toBe('no answer');
		expect(sim.control.log.oauthEntries('refresh_token')).toHaveLength(1);

		// The restarted token endpoint reads the same file.
		const restarted = newConnection(sim, first.clientId, { file });
		const status = await restarted.status();
		expect(status.state).toBe('revoked');
		expect(status.reason).toMatch(/reconnect/);
		const upstream = new UpstreamClient(
			() => ({ baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: '' }),
			fetch,
			10_000,
			restarted
		);
		const res = await upstream.call('GET', '/me');
		expect(res.status).toBe(401);
		expect((await res.json()).code).toBe('oauth_revoked');
		// The old refresh token was never presented again.
		expect(sim.control.log.oauthEntries('reuse_detected')).toHaveLength(0);
		expect(sim.control.log.oauthEntries('refresh_rejected')).toHaveLength(0);
		expect(stored(file).refresh_token).toBeNull();
	});

	it('a refresh that cannot reach the server keeps the token and tries again later', async () => {
		const sim = await start();
		sim.control.oauth.accessTtlS = 1;
		let refuse = true;
		const flaky: Fetch = async (url, init) => {
			if (url.endsWith('/oauth/token') && refuse && String(init?.body).includes('refresh_token=')) {
				// What Node's fetch throws when nothing listens: the token was never sent.
				throw Object.assign(new TypeError('fetch failed'), {
					cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
				});
			}
			return fetch(url, init);
		};
		const { upstream, connection } = await connected(sim, { fetch: flaky });
		await sleep(1100);
		await expect(upstream.call('GET', '/me')).rejects.toThrow(/could not be reached/);
		expect((await connection.status()).state).toBe('connected');
		// Within the backoff nothing is sent to the token endpoint again.
		await expect(upstream.call('GET', '/me')).rejects.toThrow(/next attempt/);
		expect(connection.refreshCount).toBe(1);
		refuse = false;
		await sleep(1000);
		expect((await upstream.call('GET', '/me')).status).toBe(200);
		expect(connection.refreshCount).toBe(2);
		expect(sim.control.log.oauthEntries('reuse_detected')).toHaveLength(0);
	});

	it('while a refresh ahead of expiry cannot reach the server, the current token is still used', async () => {
		const sim = await start();
		sim.control.oauth.accessTtlS = 4;
		let refuse = false;
		const flaky: Fetch = async (url, init) => {
			if (url.endsWith('/oauth/token') && refuse)
				throw Object.assign(new TypeError('fetch failed'), {
					cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
				});
			return fetch(url, init);
		};
		const { upstream, connection } = await connected(sim, { fetch: flaky });
		refuse = true;
		// Inside the last quarter of the 4-second lifetime (a refresh is due but the token lives for
		// 0.9 s more: room for the call on a loaded machine).
		await sleep(3100);
		expect((await upstream.call('GET', '/me')).status).toBe(200);
		expect(connection.refreshCount).toBe(1);
	});

	it('a connection revoked upstream shows "revoked" and stops presenting tokens', async () => {
		const sim = await start();
		const { upstream, connection } = await connected(sim);
		expect((await upstream.call('GET', '/me')).status).toBe(200);
		await fetch(`${sim.origin}/_sim/oauth/revoke`, { method: 'POST', body: '{}' });
		const res = await upstream.call('GET', '/me');
		expect(res.status).toBe(401);
		expect((await res.json()).code).toBe('oauth_revoked');
		const status = await connection.status();
		expect(status.state).toBe('revoked');
		expect(status.reason).toMatch(/reconnect/);
		await upstream.call('GET', '/me');
		// One rejected refresh (the one that found out), none after.
		expect(sim.control.log.oauthEntries('refresh_rejected')).toHaveLength(1);
	});

	it('a token file left at "refreshing" by a crash is read as "reconnect" at start', async () => {
		const sim = await start();
		const file = tokenFile();
		const { clientId } = await connected(sim, { file });
		writeFileSync(file, JSON.stringify({ ...stored(file), status: 'refreshing' }), { mode: 0o600 });
		const restarted = newConnection(sim, clientId, { file });
		expect((await restarted.status()).state).toBe('revoked');
	});
});

describe('disconnect and routes', () => {
	it('Disconnect revokes the authorization upstream and forgets the token', async () => {
		const sim = await start();
		const file = tokenFile();
		const { connection } = await connected(sim, { file });
		const refresh = stored(file).refresh_token;
		expect(await connection.disconnect()).toEqual({ revoked: true });
		expect((await connection.status()).state).toBe('disconnected');
		expect(() => readFileSync(file)).toThrow();
		const [authorization] = sim.control.oauth.authorizations.values();
		expect(authorization.revoked).not.toBeNull();
		const again = await fetch(`${sim.oauthUrl}/oauth/token`, {
			method: 'POST',
			body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh })
		});
		expect(again.status).toBeGreaterThanOrEqual(400);
	});

	it('the /oauth routes: connect needs the overlay key, the callback returns to the preview', async () => {
		const sim = await start();
		const { app: registered } = sim.control.oauth.registerApp({
			secret: null,
			redirectUris: [REDIRECT]
		});
		const connection = newConnection(sim, registered.id);
		const upstream = new UpstreamClient(
			() => ({ baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: '' }),
			fetch,
			10_000,
			connection
		);
		const app = createApp({
			mode: 'live',
			upstream,
			overlayKey: OVERLAY_KEY,
			readPage: async () => null,
			oauth: { connection, hasApiKey: false }
		});
		expect((await send(app, 'POST', '/oauth/connect', { key: null })).status).toBe(401);
		expect((await (await send(app, 'GET', '/oauth/status')).json()).state).toBe('disconnected');
		// Not connected and no key: the widgets' calls say so instead of failing silently.
		const token = await send(app, 'POST', '/token');
		expect(token.status).toBe(401);
		expect((await token.json()).code).toBe('not_connected');

		const started = await send(app, 'POST', '/oauth/connect');
		const { authorize_url } = await started.json();
		const back = await decide(sim, await fetch(authorize_url, { redirect: 'manual' }), true);
		const callback = await send(app, 'GET', `/oauth/callback${back.search}`, { key: null });
		expect(callback.status).toBe(303);
		expect(callback.headers.get('location')).toBe(`/preview?key=${OVERLAY_KEY}`);
		const statusText = await (await send(app, 'GET', '/oauth/status')).text();
		expect(JSON.parse(statusText)).toMatchObject({ state: 'connected', using: 'oauth' });
		// What the browser gets never holds a token.
		expect(statusText).not.toMatch(/tpat_|tprt_/);
		expect(await (await send(app, 'POST', '/token')).clone().text()).not.toMatch(/tpat_|tprt_/);
		expect((await send(app, 'POST', '/token')).status).toBe(200);

		// A forged callback gets no way back to the preview (its URL holds the overlay key).
		const forged = await send(app, 'GET', '/oauth/callback?code=x&state=y', { key: null });
		expect(forged.status).toBe(400);
		expect(await forged.text()).not.toContain(OVERLAY_KEY);

		const off = await send(app, 'POST', '/oauth/disconnect');
		expect((await off.json()).revoked).toBe(true);
	});
});
