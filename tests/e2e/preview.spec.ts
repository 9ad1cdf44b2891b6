// /preview: the streamer's control room lists every overlay and its demo buttons do what they say.
import { eventually, expect, test, textOf } from './fixtures.ts';

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
