// The settings editor (widgets/settings/) in the three engines (current Chromium, OBS 30's
// 103, OBS 31/32's 127), on its own page (/editor, the control key) and in the preview (the overlay
// key): a new TTS look and an added tier saved, read back from GET /settings and seen in the live
// sample (the real TTS page in sample mode, in a frame); Undo; a bad value named beside its field
// with nothing saved, the checker's and the server's; a conflict offered a reload; the overlay key
// alone cannot save (the preview asks the control key once); a pasted URL; the layout at 1280x800
// and on a phone, nothing cut sideways. Fields are set and buttons pressed inside the page, and
// read through evaluate (Chromium 103 has no checkVisibility for click() and toBeVisible()).
// Screenshots are attached for a person to look at (current Chromium), not compared.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { SettingsValues } from '../../src/contract/index.ts';
import { press, settled } from './dock.helpers.ts';
import { attrOf, expect, test, textOf, type Stack } from './fixtures.ts';
import { layoutProblems } from './layout.ts';
import { EDITOR, editorReady as ready, setField } from './settings.helpers.ts';

const SAVE = `${EDITOR} button[data-action=save]`;
const UNDO = `${EDITOR} button[data-action=undo]`;

const editorUrl = (stack: Stack, key = stack.controlKey) =>
	`${stack.origin}/editor?key=${encodeURIComponent(key)}`;

/** GET /settings with the overlay key, as a widget page reads it. */
async function stored(stack: Stack): Promise<Record<string, SettingsValues>> {
	const res = await fetch(`${stack.origin}/settings`, { headers: { 'x-overlay-key': stack.key } });
	return ((await res.json()) as { targets: Record<string, SettingsValues> }).targets;
}

/** Saves through the API, as another editor (another tab, another device) would. */
async function saveElsewhere(stack: Stack, target: string, values: SettingsValues) {
	const res = await fetch(`${stack.origin}/control/settings/${target}`, {
		method: 'PUT',
		headers: { 'x-control-key': stack.controlKey, 'content-type': 'application/json' },
		body: JSON.stringify({ values })
	});
	expect(res.status).toBe(200);
}

/** The sentences shown under a field. */
const fieldErrors = (page: Page, name: string) =>
	textOf(page, `[data-field="${name}"] [data-testid=field-error]`);

/** The look of the alert card the live sample shows now (its loaded frame), or null. */
async function sampleLook(page: Page): Promise<string | null> {
	const src = await attrOf(page, '[data-testid=settings-sample][data-ready=true]', 'src');
	const frame = src && page.frames().find((f) => f.url().endsWith(src));
	if (!frame) return null;
	return frame
		.evaluate(
			() => document.querySelector<HTMLElement>('[data-testid=tts-alert]')?.dataset.look ?? null
		)
		.catch(() => null);
}

/** How many elements match `selector` in the live sample's loaded frame (null: no frame yet). */
async function inSample(page: Page, selector: string): Promise<number | null> {
	const src = await attrOf(page, '[data-testid=settings-sample][data-ready=true]', 'src');
	const frame = src && page.frames().find((f) => f.url().endsWith(src));
	if (!frame) return null;
	return frame.evaluate((sel) => document.querySelectorAll(sel).length, selector).catch(() => null);
}

/** Every frame's URL: none may carry a key of the streamer. */
const frameUrls = (page: Page) =>
	page
		.frames()
		.filter((f) => f !== page.mainFrame())
		.map((f) => f.url());

test('the editor page saves a new look and a tier: stored, in the sample, and undone', async ({
	page,
	stack
}) => {
	await page.goto(editorUrl(stack));
	await ready(page);
	expect(await attrOf(page, UNDO, 'disabled')).not.toBeNull();
	await expect.poll(() => sampleLook(page), { timeout: 20_000 }).toBe('classic');

	await setField(page, 'look', 'neon');
	await press(page, `${EDITOR} button[data-action=add-tier]`);
	await setField(page, 'tier1_from', '20');
	await setField(page, 'tier1_look', 'gold');
	expect(await textOf(page, '[data-testid=settings-state]')).toBe('Unsaved changes');
	// The sample's tip (5) is below the new tier: every tip's look. Then the tier's own tip.
	await expect.poll(() => sampleLook(page), { timeout: 20_000 }).toBe('neon');
	await press(
		page,
		'[data-testid=settings-tier-row][data-prefix=tier1] button[data-action=show-tier]'
	);
	await expect.poll(() => sampleLook(page), { timeout: 20_000 }).toBe('gold');
	expect(await stored(stack)).toEqual({});

	await press(page, SAVE);
	await expect.poll(() => textOf(page, '[data-testid=settings-notice]')).toContain('Saved');
	expect(await stored(stack)).toEqual({
		tts: { look: 'neon', tier1_from: '20', tier1_look: 'gold' }
	});
	expect(await textOf(page, '[data-testid=settings-state]')).toBe('Saved');

	await press(page, UNDO);
	await expect.poll(() => textOf(page, '[data-testid=settings-notice]')).toContain('Undone');
	expect((await stored(stack)).tts ?? {}).toEqual({});
	// Back to the built-in tiers: a tip of 20 is gold again; every tip's (below 10) is classic.
	await press(
		page,
		'[data-testid=settings-tier-row][data-prefix=base] button[data-action=show-tier]'
	);
	await expect.poll(() => sampleLook(page), { timeout: 20_000 }).toBe('classic');
	expect(await attrOf(page, UNDO, 'disabled')).not.toBeNull();
	for (const url of frameUrls(page)) expect(url).not.toContain(stack.controlKey);
});

test("a bad value is named beside its field, the checker's and the server's; nothing is saved", async ({
	page,
	stack
}) => {
	await page.goto(editorUrl(stack));
	await ready(page);
	await setField(page, 'color', 'notacolour');
	await expect.poll(() => fieldErrors(page, 'color')).toContain('color: expected a hex colour');
	await press(page, SAVE);
	await expect
		.poll(() => textOf(page, '[data-testid=settings-notice]'))
		.toContain('Nothing was saved');
	expect(await stored(stack)).toEqual({});

	// A value this page accepts and the server refuses: the server's sentence, by its field.
	await setField(page, 'color', 'ff0000');
	await page.route('**/control/settings/tts', (route) =>
		route.fulfill({
			status: 400,
			contentType: 'application/json',
			body: JSON.stringify({
				error: 'scale: refused by the server',
				code: 'bad_settings',
				errors: ['scale: refused by the server']
			})
		})
	);
	await setField(page, 'scale', '2');
	await press(page, SAVE);
	await expect.poll(() => fieldErrors(page, 'scale')).toBe('scale: refused by the server');
	expect(await stored(stack)).toEqual({});
});

test('a save after another one is a conflict; Reload shows theirs', async ({ page, stack }) => {
	await page.goto(editorUrl(stack));
	await ready(page);
	await saveElsewhere(stack, 'tts', { look: 'frost' });
	await setField(page, 'look', 'ember');
	await press(page, SAVE);
	await expect
		.poll(() => textOf(page, '[data-testid=settings-notice]'))
		.toContain('Someone else saved');
	expect(await stored(stack)).toEqual({ tts: { look: 'frost' } });
	await press(page, `${EDITOR} button[data-action=reload]`);
	await expect
		.poll(() =>
			page.evaluate(
				() => document.querySelector<HTMLSelectElement>('[data-field=look] select')?.value
			)
		)
		.toBe('frost');
});

test('the overlay key alone cannot save: the preview asks the control key once', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/preview'));
	await ready(page);
	// The overlay key cannot save through the API either.
	const put = await fetch(`${stack.origin}/control/settings/tts`, {
		method: 'PUT',
		headers: { 'x-overlay-key': stack.key, 'content-type': 'application/json' },
		body: JSON.stringify({ values: { look: 'gold' } })
	});
	expect(put.status).toBe(401);

	await setField(page, 'look', 'gold');
	await press(page, SAVE);
	await expect.poll(() => attrOf(page, '#settings-control-key', 'type')).toBe('password');
	expect(await stored(stack)).toEqual({});
	const give = async (key: string) => {
		await page.evaluate((k) => {
			const input = document.querySelector<HTMLInputElement>('#settings-control-key')!;
			input.value = k;
			input.dispatchEvent(new Event('input', { bubbles: true }));
		}, key);
		await press(page, '[data-testid=settings-key] button[type=submit]');
	};
	await give(stack.key); // the overlay key, well-formed but not the control key
	await expect
		.poll(() => textOf(page, '[data-testid=settings-key]'))
		.toContain('The control key was refused');
	expect(await stored(stack)).toEqual({});

	await give(stack.controlKey);
	await expect.poll(() => textOf(page, '[data-testid=settings-notice]')).toContain('Saved');
	expect(await stored(stack)).toEqual({ tts: { look: 'gold' } });
	// Kept for the tab (sessionStorage, which a reload keeps): the next save asks nothing, and Undo
	// knows what it can do. (Not reloaded here: a reloaded preview's many pages queue their reads
	// at the server's read allowance, holding the browser's connections to the origin for seconds.)
	expect(await page.evaluate(() => sessionStorage.getItem('tok.settings.control-key'))).toBe(
		stack.controlKey
	);
	await setField(page, 'look', 'frost');
	await press(page, SAVE);
	await expect.poll(async () => (await stored(stack)).tts).toEqual({ look: 'frost' });
	expect(await page.evaluate(() => !!document.querySelector('#settings-control-key'))).toBe(false);
	expect(await attrOf(page, UNDO, 'disabled')).toBeNull();
	for (const url of frameUrls(page)) expect(url).not.toContain(stack.controlKey);
});

test("a pasted URL fills that widget's form, and Copy writes its URL back", async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/preview'));
	await ready(page);
	await page.evaluate(() => {
		const input = document.querySelector<HTMLInputElement>('[data-testid=settings-paste]')!;
		input.value = '/widget/leaderboard?key=abcdefghijklmnop1234&limit=3&accent=ff8800&v=2&debug=1';
		input.dispatchEvent(new Event('input', { bubbles: true }));
	});
	await press(page, `${EDITOR} button[data-action=paste-url]`);
	await expect.poll(() => attrOf(page, EDITOR, 'data-target')).toBe('leaderboard');
	const result = await textOf(page, '[data-testid=paste-result]');
	expect(result).toContain('Kept in the URL (they name one source): key, debug.');
	expect(result).toContain('v: not a setting of the top-supporters widget, left out');
	expect(
		await page.evaluate(
			() => document.querySelector<HTMLInputElement>('[data-testid=settings-copy-text]')?.value
		)
	).toBe(`${stack.origin}/widget/leaderboard?key=${stack.key}&limit=3&accent=ff8800`);
	// The sample is the top-supporters page in its sample mode, with the pasted limit.
	const rows = () => inSample(page, '[data-testid=leaderboard-row]');
	await expect.poll(rows, { timeout: 20_000 }).toBe(3);
	await setField(page, 'limit', '2');
	await expect.poll(rows, { timeout: 20_000 }).toBe(2);
	expect(await stored(stack)).toEqual({});
});

const SIZES = [
	{ width: 1280, height: 800 },
	{ width: 390, height: 844 }
] as const;
const RULES = { scrolls: true, minTextPx: 12, minButtonPx: 32 };

/** A busy form: two tiers (one broken, so sentences show), a long image URL. */
async function busyForm(page: Page): Promise<void> {
	await setField(page, 'look', 'neon');
	await press(page, `${EDITOR} button[data-action=add-tier]`);
	await press(page, `${EDITOR} button[data-action=add-tier]`);
	await setField(page, 'tier1_from', '20');
	await setField(page, 'tier1_image', `https://example.com/${'a-very-long-path/'.repeat(8)}x.gif`);
	await setField(page, 'tier2_look', 'gold');
	await expect.poll(() => fieldErrors(page, 'tier2_look')).toContain('tier2 needs tier2_from');
}

test('layout at 1280x800 and on a phone: nothing cut sideways', async ({ page, stack }, info) => {
	const problems: string[] = [];
	for (const [where, url, root] of [
		['editor', editorUrl(stack), undefined],
		['preview', stack.url('/preview'), '[data-testid=preview-settings]']
	] as const) {
		await page.setViewportSize(SIZES[0]);
		await page.goto(url);
		await ready(page);
		await busyForm(page);
		for (const size of SIZES) {
			await page.setViewportSize(size);
			await settled(page);
			for (const p of await layoutProblems(page, { ...RULES, root }))
				problems.push(`${where} at ${size.width}x${size.height}: ${p}`);
			if (info.project.name !== 'chromium') continue;
			for (const fullPage of where === 'editor' ? [false, true] : [false]) {
				if (root) await page.evaluate((r) => document.querySelector(r)?.scrollIntoView(), root);
				const name = `${where}-${size.width}x${size.height}${fullPage ? '-full' : ''}.png`;
				const path = info.outputPath(name);
				await page.screenshot({ path, fullPage, animations: 'disabled' });
				await info.attach(name, { path, contentType: 'image/png' });
			}
		}
	}
	expect(problems).toEqual([]);
});

test('the editor page passes an axe-core accessibility check', async ({ page, stack }, info) => {
	test.skip(info.project.name !== 'chromium', 'accessibility does not depend on the engine');
	await page.goto(editorUrl(stack));
	await ready(page);
	await busyForm(page);
	const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
	expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
	expect(results.passes.length).toBeGreaterThan(10);
});
