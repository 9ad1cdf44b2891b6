// /overlay/{id}: the widgets of one upstream overlay at its resolution, on one connection.
import { attrOf, eventually, expect, test, textOf } from './fixtures.ts';
import { REACT_MS } from './fixtures.ts';

test('an overlay page lays out its overlay at its resolution and reads tips with its TTS widget', async ({
	page,
	stack
}) => {
	const [overlay] = stack.sim.control.model.overlayList();
	await page.setViewportSize({ width: overlay.width, height: overlay.height });
	await page.goto(stack.url(`/overlay/${overlay.id}`, { min_display: 0, gap: 0 }));
	await expect
		.poll(() => attrOf(page, '[data-testid=overlay]', 'data-overlay-id'))
		.toBe(overlay.id);
	const size = await page.evaluate(() => {
		const el = document.querySelector('[data-testid=overlay]') as HTMLElement;
		return [el.style.width, el.style.height];
	});
	expect(size).toEqual([`${overlay.width}px`, `${overlay.height}px`]);
	await expect
		.poll(() => attrOf(page, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
	const tip = stack.sim.control.createTip({
		name: 'Overlay fan',
		amount: 2,
		message: 'Hi overlay.'
	});
	await eventually(
		() => stack.calls('POST', new RegExp(`^/tts/${tip.order_id}/finish$`)).length === 1,
		30_000
	);
	expect(stack.calls('POST', new RegExp(`^/tts/${tip.order_id}/start$`))).toHaveLength(1);
});

test('an overlay reloads itself when the upstream asks this overlay to reload', async ({
	page,
	stack
}) => {
	const [overlay, other] = stack.sim.control.model.overlayList();
	await page.goto(stack.url(`/overlay/${overlay.id}`));
	await expect
		.poll(() => attrOf(page, '[data-testid=overlay]', 'data-overlay-id'))
		.toBe(overlay.id);
	await expect
		.poll(() => attrOf(page, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
	await page.evaluate(() => ((window as { __marker?: number }).__marker = 1));
	// Another overlay's reload leaves this page alone...
	stack.sim.control.model.reloadOverlay(other.id);
	await page.waitForTimeout(1000);
	expect(await page.evaluate(() => (window as { __marker?: number }).__marker)).toBe(1);
	// ...its own reload reloads it.
	const navigated = page.waitForEvent('load', { timeout: 15_000 });
	stack.sim.control.model.reloadOverlay(overlay.id);
	await navigated;
	expect(await page.evaluate(() => (window as { __marker?: number }).__marker ?? null)).toBeNull();
});

test('an unknown overlay id shows a card saying so', async ({ page, stack }) => {
	await page.goto(stack.url('/overlay/o_00000000'));
	await expect.poll(() => textOf(page, '[data-testid=error-card]')).toContain('No such overlay');
});

test('an overlay page composes its counter, tip goal, celebration and media widgets', async ({
	page,
	stack
}) => {
	const [main] = stack.sim.control.model.overlayList(); // Main scene: tts, media, tip_goal, counter, celebration
	await page.setViewportSize({ width: 960, height: 540 });
	await page.goto(stack.url(`/overlay/${main.id}`));
	await expect
		.poll(() => attrOf(page, '[data-testid=counters-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
	const types = await page.evaluate(() =>
		[...document.querySelectorAll('[data-widget-type]')].map((e) =>
			e.getAttribute('data-widget-type')
		)
	);
	expect(types.sort()).toEqual(['celebration', 'counter', 'media', 'tip_goal', 'tts']);

	stack.sim.control.model.setCounter('wins', 41);
	await expect
		.poll(() => attrOf(page, '[data-counter=wins]', 'data-value'), { timeout: REACT_MS })
		.toBe('41');

	const fired = () => attrOf(page, '[data-testid=celebration-widget]', 'data-fired');
	const before = Number((await fired()) ?? 0);
	stack.sim.control.model.celebrate(main.id, null);
	await expect.poll(async () => Number(await fired()), { timeout: REACT_MS }).toBe(before + 1);
});
