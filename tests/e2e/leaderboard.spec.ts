// The top-supporters widget in real Chromium engines against the simulator: a paid tip moves the
// board, a reload shows the same board, a bad parameter shows a card, no idle frames or reads.
import type { Page } from '@playwright/test';
import { attrOf, countFrames, expect, frames, REACT_MS, test, textOf } from './fixtures.ts';

const WIDGET = '[data-testid=leaderboard-widget]';

async function ready(page: Page): Promise<void> {
	await expect.poll(() => attrOf(page, WIDGET, 'data-status'), { timeout: 20_000 }).toBe('ready');
}

function rows(page: Page): Promise<string[]> {
	return page.evaluate(() =>
		Array.from(document.querySelectorAll('[data-testid=leaderboard-row]')).map((el) =>
			(el.textContent ?? '').replace(/\s+/g, ' ').trim()
		)
	);
}

test('a big paid tip puts its supporter on top, and a reload shows the same board', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/leaderboard', { limit: 3 }));
	await ready(page);
	stack.sim.control.createTip({ name: 'Whale <b>', amount: 100000, paid: true });
	await expect
		.poll(async () => (await rows(page))[0] ?? '', { timeout: REACT_MS })
		.toContain('Whale <b>');
	expect(await page.evaluate(() => document.querySelectorAll('.list-widget b').length)).toBe(0);
	const before = await rows(page);
	expect(before.length).toBeLessThanOrEqual(3);

	await page.reload();
	await ready(page);
	await expect.poll(() => rows(page), { timeout: REACT_MS }).toEqual(before);
});

test('a bad limit shows the card naming it', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/leaderboard', { limit: 'lots' }));
	await expect
		.poll(() => textOf(page, '[data-testid=error-card]'), { timeout: 20_000 })
		.toContain('limit');
});

test('an idle board runs no animation frame and reads nothing', async ({ page, stack }) => {
	await countFrames(page);
	await page.goto(stack.url('/widget/leaderboard'));
	await ready(page);
	await page.waitForTimeout(2500); // past the debounce of any read the start may have queued
	const f0 = await frames(page);
	const reads = stack.calls('GET', /^\/leaderboard/).length;
	await page.waitForTimeout(2000);
	expect((await frames(page)) - f0).toBe(0);
	expect(stack.calls('GET', /^\/leaderboard/).length).toBe(reads);
});
