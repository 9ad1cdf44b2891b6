// Stored settings, live, in real Chromium engines against the simulator: a save through
// the token endpoint reaches the open sources through the push channel without a reload. The TTS
// card on screen keeps its look and plays to its end, the next alert has the new look; the video
// playing keeps its volume and size, the next one has the new; counters change at once without
// reading the upstream again; a URL parameter still wins; Undo brings the last set back; an overlay
// page's widgets take their kind's and their overlay's settings; in hosted mode another streamer's
// sources never change. Reads go through the DOM (evaluate), so the test runs in Chromium 103 too.
import type { Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { DEMO_TENANTS, startSimulator } from '../../src/sim/index.ts';
import { Browser, dockKeyIn, keyIn, startHosted } from '../fixtures/hosted.ts';
import { attrOf, eventually, expect, REACT_MS, test, textOf } from './fixtures.ts';
import { finishesOf, queueVideo } from './media.helpers.ts';

const startPath = /^\/tts\/[^/]+\/start$/;
const finishPath = /^\/tts\/[^/]+\/finish$/;

/** A save of a target's whole set with the control key, as the editor sends it. */
async function save(
	origin: string,
	controlKey: string,
	target: string,
	values: Record<string, string>
): Promise<void> {
	const res = await fetch(`${origin}/control/settings/${target}`, {
		method: 'PUT',
		headers: { 'X-Control-Key': controlKey, 'Content-Type': 'application/json' },
		body: JSON.stringify({ values })
	});
	expect(res.status, await res.clone().text()).toBe(200);
}

async function undo(origin: string, controlKey: string, target: string): Promise<void> {
	const res = await fetch(`${origin}/control/settings/${target}/undo`, {
		method: 'POST',
		headers: { 'X-Control-Key': controlKey }
	});
	expect(res.status, await res.clone().text()).toBe(200);
}

async function ready(page: Page, widget: string): Promise<void> {
	await expect
		.poll(() => attrOf(page, `[data-testid=${widget}-widget]`, 'data-status'), { timeout: 20_000 })
		.toBe('ready');
}

/** Marks the page: the mark is gone if the page reloads. */
const mark = (page: Page) =>
	page.evaluate(() => void ((window as unknown as { __mark: string }).__mark = 'same page'));
const marked = (page: Page) =>
	page.evaluate(() => (window as unknown as { __mark?: string }).__mark ?? 'reloaded');

/** The debug panel's value for `label` ('' when the row is absent). */
function debugRow(page: Page, panel: string, label: string): Promise<string> {
	return page.evaluate(
		([p, l]) => {
			for (const dt of document.querySelectorAll(`[data-testid=${p}-debug] dt`))
				if (dt.textContent === l) return dt.nextElementSibling?.textContent ?? '';
			return '';
		},
		[panel, label] as const
	);
}

/** Every alert card shown, as order id -> look (noted as the card appears). */
async function recordCards(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const w = window as unknown as { __cards: Record<string, string[]> };
		w.__cards = {};
		new MutationObserver(() => {
			for (const card of document.querySelectorAll<HTMLElement>('[data-testid=tts-alert]')) {
				const seen = (w.__cards[card.dataset.alertId ?? '?'] ??= []);
				const look = card.dataset.look ?? '?';
				if (seen.at(-1) !== look) seen.push(look);
			}
		}).observe(document, { subtree: true, childList: true, attributes: true });
	});
}
const cards = (page: Page) =>
	page.evaluate(() => (window as unknown as { __cards: Record<string, string[]> }).__cards);

const labelOf = (page: Page, counter: string) => textOf(page, `[data-counter=${counter}] .label`);
const colourOf = (page: Page, counter: string) =>
	page.evaluate((c) => {
		const el = document.querySelector(`[data-counter=${c}] .label`);
		return el ? getComputedStyle(el).color : '';
	}, counter);

test('a saved look reaches an open TTS source with its next alert; the alert on screen keeps its look and plays to its end', async ({
	page,
	stack
}) => {
	await recordCards(page);
	await page.goto(stack.url('/widget/tts', { tiers: 'off', min_display: 0, gap: 0, debug: 1 }));
	await ready(page, 'tts');
	await mark(page);
	// A long message: its speech lasts seconds, long enough to save while it plays.
	const first = stack.sim.control.createTip({
		name: 'Before the save',
		amount: 5,
		message: 'This message is long enough that its speech is still playing when the look changes.'
	});
	await expect
		.poll(() => attrOf(page, `[data-alert-id=${first.order_id}]`, 'data-look'), {
			timeout: REACT_MS
		})
		.toBe('classic');
	await save(stack.origin, stack.controlKey, 'tts', { look: 'gold', scale: '1.5' });
	// The page has the new settings (its debug panel says so) while the card stays as it was.
	await expect
		.poll(() => debugRow(page, 'tts', 'look'), { timeout: REACT_MS })
		.toBe('gold (stored settings)');
	expect(await attrOf(page, `[data-alert-id=${first.order_id}]`, 'data-look')).toBe('classic');
	expect(stack.calls('POST', finishPath)).toEqual([]);

	await eventually(() => stack.calls('POST', finishPath).length === 1, 30_000);
	const second = stack.sim.control.createTip({ name: 'After', amount: 5, message: 'Short one.' });
	await eventually(() => stack.calls('POST', finishPath).length === 2, 30_000);
	// Each card in one look from its entrance to its exit: the first in the old, the next in the new.
	expect(await cards(page)).toEqual({
		[first.order_id]: ['classic'],
		[second.order_id]: ['gold']
	});
	// Played to its end once, never cut or given back.
	const ids = (re: RegExp) => stack.calls('POST', re).map((e) => e.path.split('/')[2]);
	expect(ids(startPath)).toEqual([first.order_id, second.order_id]);
	expect(ids(finishPath)).toEqual([first.order_id, second.order_id]);
	expect(stack.calls('POST', /\/release$/)).toEqual([]);
	expect(await marked(page)).toBe('same page');
});

test('a saved volume and size reach the media source with its next video; the one playing keeps its own', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/media', { debug: 1 }));
	await ready(page, 'media');
	await mark(page);
	const first = queueVideo(stack, 'Ada', 'countdown');
	const video = () =>
		page.evaluate(() => {
			const v = document.querySelector('video');
			const player = document.querySelector<HTMLElement>('[data-testid=media-player]');
			return v ? `${v.volume} ${player?.style.width}` : 'none';
		});
	await eventually(() => stack.calls('POST', /^\/media\/[^/]+\/start$/).length === 1, 15_000);
	await expect.poll(video, { timeout: REACT_MS }).toBe('1 100%');
	await save(stack.origin, stack.controlKey, 'media', { volume: '0.3', size: '0.5' });
	await expect
		.poll(() => debugRow(page, 'media', 'volume'), { timeout: REACT_MS })
		.toBe('0.3 (stored settings)');
	expect(await video()).toBe('1 100%');

	const second = queueVideo(stack, 'Grace', 'bars');
	await eventually(() => finishesOf(stack, first.order_id).length === 1, 30_000);
	await expect.poll(video, { timeout: REACT_MS }).toBe('0.3 50%');
	await eventually(() => finishesOf(stack, second.order_id).length === 1, 30_000);
	expect(stack.calls('POST', /^\/media\/[^/]+\/release$/)).toEqual([]);
	expect(await marked(page)).toBe('same page');
});

test('counters change at once without a read of the upstream; a URL parameter wins; Undo brings the last set back', async ({
	page,
	stack
}) => {
	const url = await page.context().newPage();
	await page.goto(stack.url('/widget/counters', { name: 'deaths' }));
	await url.goto(stack.url('/widget/counters', { name: 'deaths', label: 'From the URL' }));
	await ready(page, 'counters');
	await ready(url, 'counters');
	await mark(page);
	expect(await labelOf(page, 'deaths')).toBe('deaths');
	const reads = stack.calls('GET', /^\/counters$/).length;

	await save(stack.origin, stack.controlKey, 'counters', { label: 'Deaths', color: 'red' });
	await expect.poll(() => labelOf(page, 'deaths'), { timeout: REACT_MS }).toBe('Deaths');
	expect(await colourOf(page, 'deaths')).toBe('rgb(255, 0, 0)');
	await expect.poll(() => colourOf(url, 'deaths'), { timeout: REACT_MS }).toBe('rgb(255, 0, 0)');
	expect(await labelOf(url, 'deaths')).toBe('From the URL');

	await save(stack.origin, stack.controlKey, 'counters', { label: 'Deaths ☠', color: 'red' });
	await expect.poll(() => labelOf(page, 'deaths'), { timeout: REACT_MS }).toBe('Deaths ☠');
	await undo(stack.origin, stack.controlKey, 'counters');
	await expect.poll(() => labelOf(page, 'deaths'), { timeout: REACT_MS }).toBe('Deaths');
	await undo(stack.origin, stack.controlKey, 'counters');
	await expect.poll(() => labelOf(page, 'deaths'), { timeout: REACT_MS }).toBe('deaths');
	expect(await colourOf(page, 'deaths')).toBe('rgb(255, 255, 255)');

	expect(stack.calls('GET', /^\/counters$/).length).toBe(reads);
	expect(await marked(page)).toBe('same page');
});

test("an overlay page's widgets take their kind's settings, their overlay's over them, the URL's over both", async ({
	page,
	stack
}) => {
	// The 720p overlay: a TTS widget, the `deaths` counter, a celebration.
	await page.goto(stack.url('/overlay/o_5e6f7a8b', { debug: 1 }));
	await expect
		.poll(() => attrOf(page, '[data-testid=counters-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
	await mark(page);
	await save(stack.origin, stack.controlKey, 'counters', { label: 'Kind label', color: 'red' });
	await expect.poll(() => labelOf(page, 'deaths'), { timeout: REACT_MS }).toBe('Kind label');
	expect(await colourOf(page, 'deaths')).toBe('rgb(255, 0, 0)');

	await save(stack.origin, stack.controlKey, 'o_5e6f7a8b', {
		label: 'Overlay label',
		look: 'neon'
	});
	await expect.poll(() => labelOf(page, 'deaths'), { timeout: REACT_MS }).toBe('Overlay label');
	expect(await colourOf(page, 'deaths')).toBe('rgb(255, 0, 0)');
	expect(await debugRow(page, 'counters', 'label')).toBe('Overlay label (overlay settings)');
	expect(await debugRow(page, 'tts', 'look')).toBe('neon (overlay settings)');
	// Another overlay's save is not this page's.
	await save(stack.origin, stack.controlKey, 'o_1a2b3c4d', { label: 'Elsewhere' });
	await save(stack.origin, stack.controlKey, 'celebration', { style: 'fireworks' });
	await expect
		.poll(() => debugRow(page, 'celebration', 'style'), { timeout: REACT_MS })
		.toBe('fireworks (stored settings)');
	expect(await labelOf(page, 'deaths')).toBe('Overlay label');

	// The URL over both, on a page opened with it.
	const own = await page.context().newPage();
	await own.goto(stack.url('/overlay/o_5e6f7a8b', { color: 'lime' }));
	await expect.poll(() => colourOf(own, 'deaths'), { timeout: 20_000 }).toBe('rgb(0, 255, 0)');
	expect(await labelOf(own, 'deaths')).toBe('Overlay label');
	expect(await marked(page)).toBe('same page');
});

test.describe('hosted', () => {
	// The embedded database starts in the test's worker: seconds on a loaded machine.
	test.describe.configure({ timeout: 180_000 });

	test("a streamer's save changes their sources only, never another streamer's", async ({
		browser
	}) => {
		const dist = fileURLToPath(new URL('../../dist', import.meta.url));
		const sim = await startSimulator({ quiet: true, audioDelayMs: 50, tenants: DEMO_TENANTS });
		const hosted = await startHosted(sim, { dist });
		try {
			const streamers = [];
			for (const t of DEMO_TENANTS.slice(0, 2)) {
				const b = new Browser(hosted.publicUrl);
				await b.signIn(sim, t.id);
				const html = await b.dashboard();
				streamers.push({ key: keyIn(html)!, control: dockKeyIn(html)! });
			}
			const context = await browser.newContext();
			const pages: Page[] = [];
			for (const s of streamers) {
				const p = await context.newPage();
				await p.goto(`${hosted.publicUrl}/widget/counters?key=${s.key}&name=deaths`);
				await ready(p, 'counters');
				pages.push(p);
			}
			const [mine, theirs] = pages;
			const settingsReads = (p: Page) =>
				p.evaluate(
					() =>
						(
							window as unknown as {
								__tok: { api: { stats: { byRoute: Record<string, number> } } };
							}
						).__tok.api.stats.byRoute.settings ?? 0
				);
			// Each page read its settings at start and once more on the push channel's hello.
			await expect.poll(() => settingsReads(theirs), { timeout: REACT_MS }).toBe(2);

			await save(hosted.publicUrl, streamers[0].control, 'counters', { label: 'Mine' });
			await expect.poll(() => labelOf(mine, 'deaths'), { timeout: REACT_MS }).toBe('Mine');
			expect(await labelOf(theirs, 'deaths')).toBe('deaths');
			// Not even a read: the other streamer's channel never heard of the save.
			expect(await settingsReads(theirs)).toBe(2);
			await context.close();
		} finally {
			await hosted.close();
			await sim.close();
		}
	});
});
