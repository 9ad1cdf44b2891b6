// Hosted mode end to end over HTTP: the landing page, Connect (authorization code with
// PKCE through the simulator's consent page), the session cookie, the dashboard with the
// streamer's own overlay URLs, their key working at /token and /api, New overlay key (the old URL
// stops at once), Disconnect (revoked upstream, URLs off), Sign out, and cross-site POSTs refused.
import { afterEach, describe, expect, it } from 'vitest';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { Browser, keyIn, startHosted } from '../fixtures/hosted.ts';
import { decide } from '../fixtures/oauth.ts';
import { simsPerTest } from '../fixtures/sim.ts';

const start = simsPerTest();
let hosted: HostedApp | null = null;
afterEach(async () => {
	await hosted?.close();
	hosted = null;
});

describe('hosted mode over HTTP', { timeout: 150_000 }, () => {
	it('signs a streamer in and gives them their own overlay URLs, which they can replace or turn off', async () => {
		const sim = await start();
		const h = await startHosted(sim);
		hosted = h;
		const { publicUrl } = h;
		const browser = new Browser(publicUrl);
		const go = browser.go.bind(browser);
		const post = browser.post.bind(browser);

		const landing = await go('GET', '/');
		expect(await landing.text()).toContain('Connect your tip page');
		// A POST from another site is refused, and starts nothing.
		expect((await go('POST', '/auth/start', { origin: 'https://evil.example' })).status).toBe(403);

		const toConsent = await post('/auth/start');
		expect(toConsent.status).toBe(303);
		const consent = await fetch(toConsent.headers.get('location')!, { redirect: 'manual' });
		const back = await decide(sim, consent, true);
		expect(back.origin + back.pathname).toBe(`${publicUrl}/auth/callback`);
		const signedIn = await go('GET', back.pathname + back.search);
		expect(signedIn.status).toBe(303);
		expect(signedIn.headers.get('location')).toBe('/dashboard');
		const setCookie = signedIn.headers.get('set-cookie') ?? '';
		expect(setCookie).toMatch(/HttpOnly/i);
		expect(setCookie).toMatch(/SameSite=Lax/i);

		const dashboard = () => browser.dashboard();
		const html = await dashboard();
		expect(html).toContain(sim.control.model.tenant.name);
		const key = keyIn(html)!;
		expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(html).not.toMatch(/tprt_|tpk_/);

		const api = (k: string, method: string, path: string) =>
			fetch(publicUrl + path, { method, headers: { 'x-overlay-key': k } });
		expect((await api(key, 'POST', '/token')).status).toBe(200);
		const me = await api(key, 'GET', '/api/me');
		expect(((await me.json()) as { tenant: { id: string } }).tenant.id).toBe(
			sim.control.model.tenant.id
		);

		// New overlay key: the old URL stops at once, with a reason its sources can show.
		expect((await post('/account/new-key')).status).toBe(303);
		const fresh = keyIn(await dashboard())!;
		expect(fresh).not.toBe(key);
		const old = await api(key, 'POST', '/token');
		expect(old.status).toBe(401);
		expect(((await old.json()) as { code: string }).code).toBe('overlay_key_replaced');
		expect((await api(fresh, 'POST', '/token')).status).toBe(200);

		// Disconnect: revoked at the upstream, the URLs off, Reconnect offered.
		expect(
			(await go('POST', '/account/disconnect', { origin: 'https://evil.example' })).status
		).toBe(403);
		expect((await post('/account/disconnect')).status).toBe(303);
		expect(sim.control.log.oauthEntries('revoke').length).toBe(1);
		expect((await api(fresh, 'POST', '/token')).status).toBe(401);
		expect(await dashboard()).toContain('Reconnect');

		// Sign out: the session ends.
		expect((await post('/auth/signout')).status).toBe(303);
		const after = await go('GET', '/dashboard');
		expect(after.status).toBe(303);
		expect(after.headers.get('location')).toBe('/');
	});
});

describe('hosted mode behind an https reverse proxy', { timeout: 150_000 }, () => {
	it("reads the upstream's OAuth metadata once for its sign-ins and its streamers' refreshes", async () => {
		const sim = await start();
		const discovered: string[] = [];
		const counting = (url: string, init?: RequestInit) => {
			if (url.includes('/.well-known/')) discovered.push(url);
			return fetch(url, init);
		};
		const h = await startHosted(sim, { fetch: counting });
		hosted = h;
		const browser = new Browser(h.publicUrl);
		expect((await browser.signIn(sim)).headers.get('location')).toBe('/dashboard');
		const key = keyIn(await browser.dashboard())!;
		// The access token runs out: the next call refreshes it.
		sim.control.oauth.tokens.expireAccessWithin(0);
		const me = await fetch(`${h.publicUrl}/api/me`, { headers: { 'x-overlay-key': key } });
		expect(me.status).toBe(200);
		expect(sim.control.log.oauthEntries('refresh_token')).toHaveLength(1);
		expect(discovered).toHaveLength(1);
	});

	it('uses a Secure __Host- cookie, checks Origin against PUBLIC_URL, and limits wrong keys per forwarded client', async () => {
		const sim = await start();
		const publicUrl = 'https://overlays.example';
		const h = await startHosted(sim, { publicUrl });
		hosted = h;
		// The proxy forwards to the listening address; the pages' Origin is PUBLIC_URL.
		const browser = new Browser(publicUrl, h.origin);
		expect((await browser.signIn(sim)).headers.get('location')).toBe('/dashboard');
		const session = browser.setCookies.find((c) => c.startsWith('__Host-session='))!;
		expect(session).toMatch(/; HttpOnly/i);
		expect(session).toMatch(/; Secure/i);
		expect(session).toMatch(/; SameSite=Lax/i);
		expect(session).toMatch(/; Path=\//i);
		expect(session).not.toMatch(/Domain=/i);
		const key = keyIn(await browser.dashboard())!;
		expect(new RegExp(`${publicUrl}/widget/tts\\?key=${key}`).test(await browser.dashboard())).toBe(
			true
		);

		// State-changing calls: refused without PUBLIC_URL's Origin (none, the listening address, another
		// site), and nothing changes.
		for (const origin of [undefined, h.origin, 'https://overlays.example.evil.test'])
			for (const path of ['/account/new-key', '/account/disconnect', '/auth/signout'])
				expect(
					(await browser.go('POST', path, origin ? { origin } : {})).status,
					`${path} from ${origin}`
				).toBe(403);
		expect(keyIn(await browser.dashboard())).toBe(key);
		expect(sim.control.log.oauthEntries('revoke')).toEqual([]);

		// Wrong keys are slowed per client, the client being the one the proxy names: past ten wrong
		// keys from one address its wrong keys are answered 429 and never reach the upstream, while
		// the right key from that same address is served at once, as it is from another address.
		const call = (k: string, client: string) =>
			fetch(`${h.origin}/token`, {
				method: 'POST',
				headers: { 'x-overlay-key': k, 'x-forwarded-for': client }
			});
		// The mints /token makes upstream (the intake's own reads go on meanwhile).
		const mints = () =>
			sim.control.log.requests().filter((e) => e.method === 'POST' && e.path === '/realtime/token')
				.length;
		const before = mints();
		for (let i = 0; i < 10; i++)
			expect((await call(`wrong-key-${i}-${'x'.repeat(30)}`, '203.0.113.7')).status).toBe(401);
		const blocked = await call(`wrong-key-10-${'x'.repeat(30)}`, '203.0.113.7');
		expect(blocked.status).toBe(429);
		expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(mints()).toBe(before);
		expect((await call(key, '203.0.113.7')).status).toBe(200);
		expect(mints()).toBe(before + 1);
		expect((await call(key, '198.51.100.2')).status).toBe(200);
		expect((await call(`wrong-key-11-${'x'.repeat(30)}`, '198.51.100.2')).status).toBe(401);

		// Sign out: the cookie is cleared with the same attributes.
		expect((await browser.post('/auth/signout')).status).toBe(303);
		const cleared = browser.setCookies.at(-1)!;
		expect(cleared).toMatch(/^__Host-session=;/);
		expect(cleared).toMatch(/; Secure/i);
	});
});
