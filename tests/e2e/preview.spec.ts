// /preview: the streamer's control room lists every overlay and its demo buttons do what they say.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { attrOf, eventually, expect, test, textOf } from './fixtures.ts';

test('the preview lists every demo overlay with its OBS URL and settings', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/preview'));
	const overlays = stack.sim.control.model.overlayList();
	await expect
		.poll(() =>
			page.evaluate(() => document.querySelectorAll('[data-testid=preview-overlay]').length)
		)
		.toBe(overlays.length);
	const text = await textOf(page, '[data-testid=preview]');
	for (const o of overlays) {
		expect(text).toContain(o.name);
		expect(text).toContain(`${o.width} × ${o.height}`);
	}
	const urls = await page.evaluate(() =>
		[...document.querySelectorAll('[data-testid=preview-overlay] input')].map(
			(i) => (i as HTMLInputElement).value
		)
	);
	expect(urls).toEqual(overlays.map((o) => stack.url(`/overlay/${o.id}`)));
	expect(text).toContain('Control audio via OBS');
});

test('the demo buttons send a tip, bump a counter, add to the goal and fire a celebration', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/preview'));
	await expect
		.poll(() => textOf(page, '[data-testid=connection]'), { timeout: 20_000 })
		.toBe('open');
	const press = (action: string) =>
		page.evaluate(
			(a) => (document.querySelector(`[data-action="${a}"]`) as HTMLButtonElement).click(),
			action
		);
	const deaths = stack.sim.control.model.counter('deaths').value;

	await press('tip');
	await eventually(() => stack.sim.control.log.events('tip.created').length === 1);
	await expect.poll(() => textOf(page, '[data-testid=events]')).toContain('tip.created');

	await press('counter');
	await eventually(() => stack.sim.control.model.counter('deaths').value === deaths + 1);
	const goal = stack.sim.control.model.tipGoal('o_1a2b3c4d').current; // the paid test tip counts
	await press('goal');
	await eventually(() => stack.sim.control.model.tipGoal('o_1a2b3c4d').current === goal + 25);
	await press('celebrate');
	await eventually(() => stack.sim.control.log.events('overlay.celebration').length === 1);
	await expect.poll(() => textOf(page, '[data-testid=events]')).toContain('overlay.celebration');
});

test('the preview frames never claim: a tip stays for OBS to read', async ({ page, stack }) => {
	await page.goto(stack.url('/preview'));
	await expect
		.poll(() => textOf(page, '[data-testid=connection]'), { timeout: 20_000 })
		.toBe('open');
	stack.sim.control.createTip({ name: 'For OBS', amount: 1, message: 'Not for the preview.' });
	await page.waitForTimeout(3000);
	expect(stack.calls('POST', /\/start$/)).toEqual([]);
});

test('a preview URL without a valid key shows a readable card', async ({ page, stack }) => {
	await page.goto(`${stack.origin}/preview`);
	await expect.poll(() => textOf(page, '[data-testid=error-card]')).toContain('key');
});

test('each overlay frame loads the overlay page itself', async ({ page, stack }) => {
	await page.goto(stack.url('/preview'));
	const overlays = stack.sim.control.model.overlayList();
	const frameOf = (id: string) => page.frames().find((f) => f.url().includes(`/overlay/${id}`));
	await expect
		.poll(() => overlays.every((o) => frameOf(o.id) !== undefined), { timeout: 15_000 })
		.toBe(true);
	for (const o of overlays) {
		const frame = frameOf(o.id);
		await expect
			.poll(() =>
				frame!.evaluate(
					() =>
						document.querySelector('[data-testid=overlay]')?.getAttribute('data-overlay-id') ?? null
				)
			)
			.toBe(o.id);
	}
});

test('the recent-events and top-supporters widgets show live in the preview', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/preview'));
	const inFrame = (name: string) =>
		page.evaluate((n) => {
			const frame = document.querySelector<HTMLIFrameElement>(`[data-testid=preview-live-${n}]`);
			const doc = frame?.contentDocument;
			const widget = doc?.querySelector(`[data-testid=${n}-widget]`);
			return widget ? `${widget.getAttribute('data-status')} ${widget.textContent ?? ''}` : '';
		}, name);
	await expect.poll(() => inFrame('recent'), { timeout: 20_000 }).toMatch(/^ready /);
	await expect.poll(() => inFrame('leaderboard'), { timeout: 20_000 }).toMatch(/^ready /);
	stack.sim.control.createTip({
		name: 'Previewed Fan',
		amount: 4242,
		message: 'hello',
		paid: true
	});
	await expect.poll(() => inFrame('recent'), { timeout: 10_000 }).toContain('Previewed Fan');
	await expect.poll(() => inFrame('leaderboard'), { timeout: 10_000 }).toContain('Previewed Fan');
});

// Headless engines never block audio here (Playwright gives pages user activation), so these tests
// cover the switch from silent frames to readers; the browser's block itself is not reproducible.
test.describe('sound in the preview', () => {
	/** Presses a preview button through a trusted mouse click at its position (works in 103 too). */
	async function press(page: Page, action: string): Promise<void> {
		const box = await page.evaluate((a) => {
			const el = document.querySelector(`[data-action="${a}"]`) as HTMLElement;
			el.scrollIntoView({ block: 'center' });
			const r = el.getBoundingClientRect();
			return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
		}, action);
		await page.mouse.click(box.x, box.y);
	}

	test('"Click to enable audio" turns the frames into readers: each tip is read once, then silence again', async ({
		page,
		stack
	}) => {
		await page.goto(stack.url('/preview'));
		await expect
			.poll(() => textOf(page, '[data-testid=preview-audio]'))
			.toContain('Browsers block sound until you click');
		await expect
			.poll(() => textOf(page, '[data-testid=connection]'), { timeout: 20_000 })
			.toBe('open');

		await press(page, 'enable-audio');
		await expect
			.poll(() => attrOf(page, '[data-testid=preview-audio]', 'data-listening'))
			.toBe('true');
		// Both TTS overlays now read; the claim protocol gives each tip to one of them.
		await expect
			.poll(() => page.frames().filter((f) => f.url().includes('claim=always')).length, {
				timeout: 15_000
			})
			.toBe(3);
		const tips = [
			stack.sim.control.createTip({ name: 'Heard', amount: 2, message: 'One.' }),
			stack.sim.control.createTip({ name: 'Heard too', amount: 3, message: 'Two.' })
		];
		for (const tip of tips)
			await eventually(
				() => stack.calls('POST', new RegExp(`/tts/${tip.order_id}/finish$`)).length === 1,
				40_000
			);
		// Two readers may both ask; the upstream gives the claim to one (the other gets a 409).
		for (const tip of tips) {
			const starts = stack.calls('POST', new RegExp(`/tts/${tip.order_id}/start$`));
			expect(starts.filter((c) => c.status === 200)).toHaveLength(1);
		}

		await press(page, 'silence');
		await expect
			.poll(() => page.frames().filter((f) => f.url().includes('claim=never')).length, {
				timeout: 15_000
			})
			.toBe(3);
		const starts = stack.calls('POST', /\/start$/).length;
		stack.sim.control.createTip({ name: 'For OBS', amount: 1, message: 'Left for OBS.' });
		await page.waitForTimeout(3000);
		expect(stack.calls('POST', /\/start$/)).toHaveLength(starts);
	});
});

test.describe('themes', () => {
	/** The computed colour of the sample alert's amount inside a gallery frame. */
	async function amountColour(page: Page, frameSelector: string): Promise<string | null> {
		const handle = await page.$(frameSelector);
		const frame = await handle?.contentFrame();
		if (!frame) return null;
		return frame.evaluate(() => {
			const el = document.querySelector('[data-testid=tts-amount]');
			return el ? getComputedStyle(el).color : null;
		});
	}

	test('the gallery shows each look rendered by the real widget, with the parameters to append', async ({
		page,
		stack
	}) => {
		await page.goto(stack.url('/preview'));
		await expect
			.poll(() =>
				page.evaluate(() => document.querySelectorAll('[data-testid=theme-preset]').length)
			)
			.toBe(5);
		const neon = '[data-theme="Neon"]';
		expect(await textOf(page, `${neon} .params`)).toBe('&color=f0abfc&accent=22d3ee');
		await page.evaluate((sel) => document.querySelector(sel)?.scrollIntoView(), neon);
		await expect
			.poll(() => amountColour(page, `${neon} iframe`), { timeout: 15_000 })
			.toBe('rgb(34, 211, 238)');
	});

	test('your own look is checked as the widgets check it: a bad colour is named, a good one shows', async ({
		page,
		stack
	}) => {
		await page.goto(stack.url('/preview'));
		const type = (name: string, value: string) =>
			page.evaluate(
				([n, v]) => {
					const input = document.querySelector(`.custom input[name="${n}"]`) as HTMLInputElement;
					input.value = v;
					input.dispatchEvent(new Event('input', { bubbles: true }));
				},
				[name, value] as const
			);
		// The frame is a whole widget page: in Chromium 103 on a loaded machine it takes a while.
		await expect
			.poll(() => amountColour(page, '[data-testid=theme-custom-frame]'), { timeout: 15_000 })
			.not.toBeNull();
		await type('accent', 'notacolour');
		await expect
			.poll(() => textOf(page, '[data-testid=theme-error]'))
			.toContain('accent: expected a hex colour');
		expect(
			await page.evaluate(() =>
				document.querySelector('.custom input[name="accent"]')?.getAttribute('aria-invalid')
			)
		).toBe('true');
		await type('accent', 'ff0000');
		await expect.poll(() => textOf(page, '[data-testid=theme-params]')).toBe('&accent=ff0000');
		await expect
			.poll(() => amountColour(page, '[data-testid=theme-custom-frame]'), { timeout: 15_000 })
			.toBe('rgb(255, 0, 0)');
	});
});

test('the still sample (sample=1) shows an alert and never touches the upstream', async ({
	page,
	stack
}) => {
	const before = stack.sim.control.log.requests().length;
	await page.goto(stack.url('/widget/tts', { sample: 1, accent: 'red' }));
	await expect.poll(() => textOf(page, '[data-testid=tts-name]')).toBe('Sample viewer');
	await page.waitForTimeout(1000);
	expect(stack.sim.control.log.requests().length).toBe(before);
});

test('the preview passes an axe-core accessibility check and its controls are keyboard reachable', async ({
	page,
	stack
}, testInfo) => {
	test.skip(testInfo.project.name !== 'chromium', 'accessibility does not depend on the engine');
	await page.goto(stack.url('/preview'));
	await expect
		.poll(() => textOf(page, '[data-testid=connection]'), { timeout: 20_000 })
		.toBe('open');
	await expect
		.poll(() =>
			page.evaluate(() => document.querySelectorAll('[data-testid=preview-overlay]').length)
		)
		.toBeGreaterThan(0);
	const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
	expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
	expect(results.passes.length).toBeGreaterThan(10); // axe really ran over the page

	// Tab from the top reaches the audio switch and every demo button, and Enter presses them.
	const reached = new Set<string>();
	for (let i = 0; i < 40; i++) {
		await page.keyboard.press('Tab');
		const action = await page.evaluate(() => document.activeElement?.getAttribute('data-action'));
		if (action) reached.add(action);
	}
	for (const action of ['enable-audio', 'tip', 'media', 'counter', 'goal', 'celebrate', 'drop'])
		expect(reached).toContain(action);
	await page.evaluate(() =>
		(document.querySelector('[data-action=enable-audio]') as HTMLElement).focus()
	);
	await page.keyboard.press('Enter');
	await expect
		.poll(() => attrOf(page, '[data-testid=preview-audio]', 'data-listening'))
		.toBe('true');
});
