// "Connect with OAuth" in real Chromium engines: a token endpoint with an OAuth app and no API key
// in front of the simulator; the streamer presses Connect in the preview, approves on the
// upstream's consent page and comes back connected; the widgets then work with the OAuth token.
// Deny, a redirect URI the app does not have, and a revoked connection are each shown clearly.
import { test as base, type Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupOAuth } from '../../src/server/oauth-setup.ts';
import { serveApp, type ServedApp } from '../../src/server/serve.ts';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.ts';
import { attrOf, eventually, expect, textOf } from './fixtures.ts';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const KEY = 'e2e_oauth_overlay_key_42';
const CLIENT_ID = 'oc_e2e_overlay_kit';

interface OAuthStack {
	sim: RunningSimulator;
	served: ServedApp;
	/** Where the upstream sends the browser back: http://localhost:<port>/oauth/callback. */
	redirectUri: string;
	url(path: string, params?: Record<string, string | number>): string;
	/** Registers the app with the simulator, with these redirect URIs (default: the right one). */
	register(redirectUris?: string[]): void;
}

const test = base.extend<{ stack: OAuthStack }>({
	stack: async ({}, use) => {
		const sim = await startSimulator({ quiet: true, audioDelayMs: 50 });
		const tokenFile = join(mkdtempSync(join(tmpdir(), 'oauth-e2e-')), 'token.json');
		const oauth = (await setupOAuth(
			{
				port: 0,
				oauthRedirectUri: null,
				oauth: { issuer: sim.oauthUrl, clientId: CLIENT_ID, tokenFile }
			},
			sim.baseUrl
		))!;
		// Live mode with no API key: nothing works until the streamer connects.
		const served = await serveApp({
			mode: 'live',
			upstream: { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: '' },
			overlayKey: KEY,
			dist,
			oauth: oauth.connection
		});
		const redirectUri = oauth.listening(Number(new URL(served.origin).port));
		await use({
			sim,
			served,
			redirectUri,
			url: (path, params = {}) => {
				const q = new URLSearchParams({ key: KEY });
				for (const [k, v] of Object.entries(params)) q.set(k, String(v));
				return `${served.origin}${path}?${q}`;
			},
			register: (uris = [redirectUri]) =>
				void sim.control.oauth.registerApp({ id: CLIENT_ID, secret: null, redirectUris: uris })
		});
		await served.close();
		await sim.close();
	}
});

const panelState = (page: Page) => attrOf(page, '[data-testid=oauth]', 'data-state');

async function pressButton(page: Page, selector: string): Promise<void> {
	// Clicked through the DOM: Playwright's click() needs Element.checkVisibility (not in Chromium 103).
	await page.waitForFunction((sel) => !!document.querySelector(sel), selector);
	await page.evaluate(
		(sel) => (document.querySelector(sel) as HTMLButtonElement).click(),
		selector
	);
}

/** From the preview: Connect, then Approve or Deny on the upstream's consent page. */
async function connectThroughConsent(page: Page, stack: OAuthStack, approve: boolean) {
	await page.goto(stack.url('/preview'));
	await expect.poll(() => panelState(page), { timeout: 15_000 }).toBe('disconnected');
	await pressButton(page, '[data-action=oauth-connect]');
	await page.waitForURL((u) => u.origin === stack.sim.origin && u.pathname === '/oauth/authorize');
	expect(await textOf(page, 'h1')).toContain('wants to connect to your account');
	expect(await textOf(page, 'button[value=approve]')).toBe('Approve');
	expect(await textOf(page, 'button[value=deny]')).toBe('Deny');
	await pressButton(page, approve ? 'button[value=approve]' : 'button[value=deny]');
	await page.waitForURL((u) => u.pathname === '/preview');
}

test('a new streamer connects in the preview, approves, and the widgets work with the OAuth token', async ({
	page,
	stack
}) => {
	stack.register();
	await connectThroughConsent(page, stack, true);
	await expect.poll(() => panelState(page), { timeout: 15_000 }).toBe('connected');
	expect(await textOf(page, '[data-testid=oauth-status]')).toContain(
		stack.sim.control.model.tenant.name
	);
	expect(await attrOf(page, '[data-testid=oauth]', 'data-using')).toBe('oauth');

	// The TTS widget reads a tip through the OAuth connection: claimed and finished.
	const widget = await page.context().newPage();
	await widget.goto(stack.url('/widget/tts', { min_display: 0, gap: 0, claim: 'always' }));
	await expect
		.poll(() => attrOf(widget, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
	const tip = stack.sim.control.createTip({ name: 'OAuth fan', amount: 3, message: 'Connected!' });
	const finishes = () =>
		stack.sim.control.log
			.requests({ method: 'POST', path: `/tts/${tip.order_id}/finish` })
			.filter((r) => r.status === 200);
	await eventually(() => finishes().length === 1, 30_000);
	// Every call the widget made went with the authorization's token, none with a key.
	const keys = new Set(stack.sim.control.log.requests().map((r) => r.key));
	expect([...keys].every((k) => k?.startsWith('oa_'))).toBe(true);
	// The browser never saw a token: the page holds only the overlay key.
	const html = await widget.content();
	expect(html).not.toMatch(/tpat_|tprt_/);
});

test('a denied consent comes back to the preview with a clear message', async ({ page, stack }) => {
	stack.register();
	await connectThroughConsent(page, stack, false);
	await expect
		.poll(() => textOf(page, '[data-testid=oauth-error]'), { timeout: 15_000 })
		.toMatch(/denied/);
	expect(await panelState(page)).toBe('disconnected');
	expect(await textOf(page, '[data-action=oauth-connect]')).toBe('Connect');
});

test('an app without this redirect URI is shown before the streamer leaves the preview', async ({
	page,
	stack
}) => {
	stack.register(['https://elsewhere.example/oauth/callback']);
	await page.goto(stack.url('/preview'));
	await expect.poll(() => panelState(page), { timeout: 15_000 }).toBe('disconnected');
	await pressButton(page, '[data-action=oauth-connect]');
	await expect
		.poll(() => textOf(page, '[data-testid=oauth-error]'), { timeout: 15_000 })
		.toContain(stack.redirectUri);
	expect(new URL(page.url()).pathname).toBe('/preview');
});

test('a connection revoked upstream shows "Reconnect", and reconnecting works', async ({
	page,
	stack
}) => {
	stack.register();
	await connectThroughConsent(page, stack, true);
	await expect.poll(() => panelState(page), { timeout: 15_000 }).toBe('connected');
	await expect
		.poll(() => attrOf(page, '[data-testid=preview]', 'data-connection'), { timeout: 15_000 })
		.toBe('open');
	// The streamer removes the app in the service's dashboard: the live socket closes, and the
	// preview, without a reload, says so and offers Reconnect.
	await fetch(`${stack.sim.origin}/_sim/oauth/revoke`, { method: 'POST', body: '{}' });
	await expect.poll(() => panelState(page), { timeout: 20_000 }).toBe('revoked');
	expect(await textOf(page, '[data-testid=oauth-status]')).toMatch(/ended.*reconnect/i);
	expect(await textOf(page, '[data-action=oauth-connect]')).toBe('Reconnect');
	await pressButton(page, '[data-action=oauth-connect]');
	await page.waitForURL((u) => u.pathname === '/oauth/authorize');
	await pressButton(page, 'button[value=approve]');
	await page.waitForURL((u) => u.pathname === '/preview');
	await expect.poll(() => panelState(page), { timeout: 15_000 }).toBe('connected');
});

test('Disconnect revokes the authorization upstream and the preview offers Connect again', async ({
	page,
	stack
}) => {
	stack.register();
	await connectThroughConsent(page, stack, true);
	await expect.poll(() => panelState(page), { timeout: 15_000 }).toBe('connected');
	await pressButton(page, '[data-action=oauth-disconnect]');
	await expect.poll(() => panelState(page), { timeout: 15_000 }).toBe('disconnected');
	expect(await textOf(page, '[data-action=oauth-connect]')).toBe('Connect');
	const [authorization] = stack.sim.control.oauth.authorizations.values();
	expect(authorization.revoked?.reason).toBe('revoked by the app');
});
