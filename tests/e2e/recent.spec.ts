// The recent-events widget in real Chromium engines against the simulator: a new tip and a video
// request show at once, a removed tip leaves at once, a reload shows the same list, a bad parameter
// shows a card, no idle frames.
import type { Page } from '@playwright/test';
import {
	attrOf,
	countFrames,
	expect,
	frames,
	REACT_MS,
	test,
	textOf,
	untilStill
} from './fixtures.ts';

const WIDGET = '[data-testid=recent-widget]';

async function ready(page: Page): Promise<void> {
	await expect.poll(() => attrOf(page, WIDGET, 'data-status'), { timeout: 20_000 }).toBe('ready');
}

/** The rows on screen as their text, newest first. */
function rows(page: Page): Promise<string[]> {
	return page.evaluate(() =>
		Array.from(document.querySelectorAll('[data-testid=recent-row]')).map((el) =>
			(el.textContent ?? '').replace(/\s+/g, ' ').trim()
		)
	);
}

test('a new tip shows at the top at once, and a reload shows the same list', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/recent', { limit: 5 }));
	await ready(page);
	stack.sim.control.createTip({ name: 'Zed <b>', amount: 7, message: '<i>first</i> of the day' });
	await expect
		.poll(async () => (await rows(page))[0] ?? '', { timeout: REACT_MS })
		.toContain('Zed <b>');
	const top = (await rows(page))[0];
	expect(top).toContain('<i>first</i> of the day');
	expect(top).toContain('tip');
	expect(
		await page.evaluate(() => document.querySelectorAll('.list-widget b, .list-widget i').length)
	).toBe(0);
	const before = await rows(page);
	expect(before.length).toBeLessThanOrEqual(5);

	await page.reload();
	await ready(page);
	await expect.poll(() => rows(page), { timeout: REACT_MS }).toEqual(before);
});

test('a tip the streamer removes leaves the list at once, and a reload agrees', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/recent', { limit: 5 }));
	await ready(page);
	const keep = stack.sim.control.createTip({ name: 'Keeper', amount: 3, message: 'stays' });
	const drop = stack.sim.control.createTip({
		name: 'Rude',
		amount: 4,
		message: 'not on my stream'
	});
	await expect
		.poll(async () => (await rows(page)).slice(0, 2).join(' | '), { timeout: REACT_MS })
		.toMatch(/^Rude .*\| Keeper /);

	stack.sim.control.model.remove('tts', drop.order_id);
	await expect
		.poll(async () => (await rows(page)).join(' | '), { timeout: REACT_MS })
		.not.toContain('Rude');
	const after = await rows(page);
	expect(after[0]).toContain('Keeper');
	expect(keep.order_id).not.toBe(drop.order_id);

	await page.reload();
	await ready(page);
	await expect.poll(() => rows(page), { timeout: REACT_MS }).toEqual(after);
});

test('a bad limit shows the card naming it', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/recent', { limit: 99 }));
	await expect
		.poll(() => textOf(page, '[data-testid=error-card]'), { timeout: 20_000 })
		.toContain('limit');
});

test('an idle list runs no animation frame', async ({ page, stack }) => {
	await countFrames(page);
	await page.goto(stack.url('/widget/recent'));
	await ready(page);
	stack.sim.control.createTip({ name: 'Idle check', amount: 1 });
	await expect
		.poll(async () => (await rows(page))[0] ?? '', { timeout: REACT_MS })
		.toContain('Idle check');
	await untilStill(page); // the new row's entrance
	const before = await frames(page);
	await page.waitForTimeout(2000);
	expect((await frames(page)) - before).toBe(0);
});
