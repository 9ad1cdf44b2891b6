// Hosted mode in real Chromium engines: two streamers sign in through the hosted demo's
// consent page (which asks which demo streamer is signing in) in two browser contexts; each
// dashboard shows only its own overlays and URLs; each opens their own TTS widget from the URL the
// dashboard gives; a tip for each plays only in that streamer's source, started and finished once.
// New overlay key: the old URL's source shows that it was replaced, the other streamer's plays on,
// and the control room's test tip reaches that streamer's own source. The dashboard's Settings (the
// settings editor) saves with the signed-in session, on its page and in the control room.
// Clicks and reads go through the DOM (page.evaluate), so the test runs in Chromium 103 as well.
import { test as base, type Browser, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { DEMO_TENANTS, startSimulator, type RunningSimulator } from '../../src/sim/index.ts';
import type { HostedApp } from '../../src/hosted/serve.ts';
import { startHosted } from '../fixtures/hosted.ts';
import { attrOf, eventually, expect, textOf } from './fixtures.ts';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));

const test = base.extend<{
	stack: { sim: RunningSimulator; hosted: HostedApp & { publicUrl: string } };
}>({
	stack: async ({}, use) => {
		const sim = await startSimulator({ quiet: true, audioDelayMs: 50, tenants: DEMO_TENANTS });
		const hosted = await startHosted(sim, { dist });
		await use({ sim, hosted });
		await hosted.close();
		await sim.close();
	}
});

// The embedded database starts in the test's worker (seconds on a loaded machine), two browser
// profiles sign in and two tips are read aloud in full: well over the 60 s default.
test.describe.configure({ timeout: 240_000 });

async function press(page: Page, selector: string): Promise<void> {
	await page.waitForFunction((sel) => !!document.querySelector(sel), selector);
	await page.evaluate((sel) => (document.querySelector(sel) as HTMLElement).click(), selector);
}

/** A new browser profile: Connect your tip page, pick the demo streamer, Approve, the dashboard. */
async function signIn(browser: Browser, publicUrl: string, tenantId: string): Promise<Page> {
	const page = await (await browser.newContext()).newPage();
	await page.goto(publicUrl);
	expect(await textOf(page, 'button')).toBe('Connect your tip page');
	await press(page, 'form[action="/auth/start"] button');
	await page.waitForURL((u) => u.pathname === '/oauth/authorize');
	expect(await textOf(page, 'legend')).toBe('Which demo streamer is signing in?');
	await page.evaluate((id) => {
		(document.querySelector(`input[name=tenant][value="${id}"]`) as HTMLInputElement).checked =
			true;
	}, tenantId);
	await press(page, 'button[value=approve]');
	await page.waitForURL((u) => u.pathname === '/dashboard');
	return page;
}

const urls = (page: Page, attr: string) =>
	page.evaluate(
		(a) => [...document.querySelectorAll(`[${a}]`)].map((e) => e.textContent ?? ''),
		attr
	);

test('two streamers signed in at once: each dashboard is theirs, each tip plays once, only in its own streamer’s source', async ({
	browser,
	stack
}) => {
	const { sim, hosted } = stack;
	const streamers = DEMO_TENANTS.slice(0, 2);
	const dashboards: Page[] = [];
	for (const t of streamers) dashboards.push(await signIn(browser, hosted.publicUrl, t.id));

	const seen: { key: string; tts: string }[] = [];
	for (const [i, page] of dashboards.entries()) {
		const me = streamers[i];
		const overlayUrls = await urls(page, 'data-overlay-url');
		const widgetUrls = await urls(page, 'data-widget-url');
		const key = new URL(widgetUrls[0]).searchParams.get('key')!;
		expect(await textOf(page, 'h1')).toBe(me.name);
		expect(overlayUrls.map((u) => new URL(u).pathname).sort()).toEqual(
			me.overlayIds.map((id) => `/overlay/${id}`).sort()
		);
		for (const u of [...overlayUrls, ...widgetUrls])
			expect(new URL(u).searchParams.get('key')).toBe(key);
		seen.push({ key, tts: widgetUrls.find((u) => new URL(u).pathname === '/widget/tts')! });
	}
	// Neither dashboard shows the other's name, overlays or key.
	for (const [i, page] of dashboards.entries()) {
		const other = streamers[1 - i];
		const text = await page.evaluate(() => document.documentElement.outerHTML);
		expect(text).not.toContain(other.name);
		expect(text).not.toContain(seen[1 - i].key);
		for (const id of other.overlayIds) expect(text).not.toContain(id);
		expect(text).not.toMatch(/tpat_|tprt_|tpk_/);
	}
	expect(seen[0].key).not.toBe(seen[1].key);

	// Each streamer adds their TTS widget URL as a source (fast pacing for the test).
	const sources: Page[] = [];
	for (const [i, page] of dashboards.entries()) {
		const source = await page.context().newPage();
		const url = new URL(seen[i].tts);
		url.searchParams.set('min_display', '0');
		url.searchParams.set('gap', '0');
		await source.goto(url.toString());
		await expect
			.poll(() => attrOf(source, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
			.toBe('ready');
		sources.push(source);
	}

	// A tip for each, through the simulator's control API.
	const tips = streamers.map(
		(t) =>
			sim.control.createTip(
				{ name: `Fan of ${t.name}`, amount: 2, message: 'Hi!', paid: true },
				t.id
			).order_id
	);
	const ok = (verb: string, orderId: string) =>
		sim.control.log
			.requests({ method: 'POST', path: new RegExp(`^/tts/${orderId}/${verb}$`) })
			.filter((r) => r.status === 200);
	await eventually(() => tips.every((id) => ok('finish', id).length === 1), 60_000);
	for (const [i, id] of tips.entries()) {
		// Started and finished once, each time with that streamer's own authorization (their source).
		expect(ok('start', id).map((r) => r.tenant)).toEqual([streamers[i].id]);
		expect(ok('finish', id).map((r) => r.tenant)).toEqual([streamers[i].id]);
		// The other streamer's source never tried to claim it.
		expect(
			sim.control.log
				.requests({ path: new RegExp(`^/tts/${id}/`) })
				.every((r) => r.tenant === streamers[i].id)
		).toBe(true);
	}

	// The first streamer presses "New overlay key": their source, still connected, plays nothing
	// more and says that its URL was replaced as soon as a tip comes (its claim is refused); after
	// a reload (as OBS does when the scene is shown again) it still says so; the other streamer's
	// plays on.
	const reloaded = dashboards[0].waitForNavigation();
	await press(dashboards[0], 'form[action="/account/new-key"] button');
	await reloaded;
	const fresh = new URL((await urls(dashboards[0], 'data-widget-url'))[0]).searchParams.get('key');
	expect(fresh).not.toBe(seen[0].key);
	const orphan = sim.control.createTip(
		{ name: 'After the new key', amount: 3, message: 'Nobody reads me', paid: true },
		streamers[0].id
	).order_id;
	await expect
		.poll(() => textOf(sources[0], '[data-testid=tts-widget]'), { timeout: 20_000 })
		.toContain('this overlay URL was replaced by a newer one');
	expect(ok('start', orphan)).toEqual([]);
	await sources[0].reload();
	await expect
		.poll(() => textOf(sources[0], '[data-testid=tts-widget]'), { timeout: 20_000 })
		.toContain('this overlay URL was replaced by a newer one');
	expect(await attrOf(sources[0], '[data-testid=tts-widget]', 'data-status')).toBe('unauthorized');
	// This time the tip is the control room's test tip (the dashboard's link), for that streamer only.
	const ledger = (i: number) => sim.control.tenant(streamers[i].id).ledger;
	const room = await dashboards[1].context().newPage();
	await room.goto((await attrOf(dashboards[1], 'a.button', 'href'))!);
	await press(room, '[data-action=tip]');
	await eventually(() => ledger(1).length === 2);
	const next = ledger(1)[1].order_id;
	expect(ledger(0).map((t) => t.order_id)).toEqual([tips[0], orphan]);
	await eventually(() => ok('finish', next).length === 1, 60_000);
	expect(ok('start', next).map((r) => r.tenant)).toEqual([streamers[1].id]);
	for (const page of [...dashboards, ...sources, room])
		await page
			.context()
			.close()
			.catch(() => {});
});

test('the dashboard’s Settings edits with the signed-in session, in the editor and in the control room', async ({
	browser,
	stack
}) => {
	const { hosted } = stack;
	const page = await signIn(browser, hosted.publicUrl, DEMO_TENANTS[0].id);
	const key = new URL((await urls(page, 'data-widget-url'))[0]).searchParams.get('key')!;
	const stored = async () => {
		const res = await fetch(`${hosted.publicUrl}/settings`, { headers: { 'x-overlay-key': key } });
		return ((await res.json()) as { targets: Record<string, Record<string, string>> }).targets;
	};
	const editor = '[data-testid=settings-editor]';
	const setLook = (look: string) =>
		page.evaluate((l) => {
			const select = document.querySelector<HTMLSelectElement>('[data-field=look] select')!;
			select.value = l;
			select.dispatchEvent(new Event('change', { bubbles: true }));
		}, look);
	const save = async () => {
		await page.waitForFunction(
			(sel) => document.querySelector<HTMLButtonElement>(sel)?.disabled === false,
			`${editor} button[data-action=save]`
		);
		await press(page, `${editor} button[data-action=save]`);
	};

	// The editor page: no key in its URL, the session's CSRF token instead.
	await press(page, 'a[data-settings-link]');
	await page.waitForURL((u) => u.pathname === '/editor' && u.search === '');
	await expect.poll(() => attrOf(page, editor, 'data-status'), { timeout: 20_000 }).toBe('ready');
	await setLook('neon');
	await save();
	await expect.poll(() => textOf(page, '[data-testid=settings-notice]')).toContain('Saved');
	expect(await stored()).toEqual({ tts: { look: 'neon' } });

	// The control room reads with the overlay key and saves with the session (no key asked).
	await page.goto(`${hosted.publicUrl}/preview?key=${key}`);
	await expect.poll(() => attrOf(page, editor, 'data-status'), { timeout: 20_000 }).toBe('ready');
	await setLook('frost');
	await save();
	await expect.poll(() => textOf(page, '[data-testid=settings-notice]')).toContain('Saved');
	expect(await stored()).toEqual({ tts: { look: 'frost' } });
	expect(await page.evaluate(() => !!document.querySelector('#settings-control-key'))).toBe(false);
	// Its pages' push channels closed before the server stops (it waits for open connections).
	await page.context().close();
});
