// The celebration widget in real Chromium engines against the simulator: it fires
// for every overlay, its overlay and itself, never for another overlay or widget, honours reduced
// motion, and requests no animation frame once a celebration has ended.
import type { Page } from '@playwright/test';
import { attrOf, countFrames, expect, frames, test, textOf } from './fixtures.ts';
import { REACT_MS } from './fixtures.ts';

const WIDGET = '[data-testid=celebration-widget]';
const MAIN = { overlay: 'o_1a2b3c4d', widget: 'w_main_party' };

async function ready(page: Page): Promise<void> {
	await expect.poll(() => attrOf(page, WIDGET, 'data-status'), { timeout: 20_000 }).toBe('ready');
}

const fired = async (page: Page) => Number(await attrOf(page, WIDGET, 'data-fired'));
const completed = async (page: Page) => Number(await attrOf(page, WIDGET, 'data-completed'));

test('fires for every overlay, for its overlay and for itself', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/celebration', { ...MAIN, duration: 1 }));
	await ready(page);
	expect(await fired(page)).toBe(0);
	const { model } = stack.sim.control;

	model.celebrate(null, null);
	await expect.poll(() => fired(page), { timeout: REACT_MS }).toBe(1);
	model.celebrate(MAIN.overlay, null);
	await expect.poll(() => fired(page), { timeout: REACT_MS }).toBe(2);
	model.celebrate(null, MAIN.widget);
	await expect.poll(() => fired(page), { timeout: REACT_MS }).toBe(3);
	model.celebrate(MAIN.overlay, MAIN.widget);
	await expect.poll(() => fired(page), { timeout: REACT_MS }).toBe(4);
	await expect.poll(() => completed(page), { timeout: 5000 }).toBe(4);
	expect(await attrOf(page, WIDGET, 'data-running')).toBe('false');
});

test('another overlay or another widget does not fire it', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/celebration', { ...MAIN, duration: 1 }));
	await ready(page);
	const { model } = stack.sim.control;
	model.celebrate('o_5e6f7a8b', null); // another overlay
	model.celebrate(null, 'w_chat_party'); // a celebration widget of another overlay
	model.celebrate(MAIN.overlay, 'w_main_goal'); // another widget of this overlay
	model.celebrate(null, 'w_vert_party');
	await page.waitForTimeout(1500);
	expect(await fired(page)).toBe(0);
	// The connection is alive: the next one for every overlay does fire.
	model.celebrate(null, null);
	await expect.poll(() => fired(page), { timeout: REACT_MS }).toBe(1);
});

test('a standalone page without overlay fires only for every overlay', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/celebration', { duration: 1 }));
	await ready(page);
	const { model } = stack.sim.control;
	model.celebrate(MAIN.overlay, null);
	model.celebrate(null, MAIN.widget);
	await page.waitForTimeout(1500);
	expect(await fired(page)).toBe(0);
	model.celebrate(null, null);
	await expect.poll(() => fired(page), { timeout: REACT_MS }).toBe(1);
});

test('no animation frame runs after a celebration ends', async ({ page, stack }) => {
	await countFrames(page);
	await page.goto(
		stack.url('/widget/celebration', { ...MAIN, duration: 1, style: 'fireworks', intensity: 3 })
	);
	await ready(page);
	const idle = await frames(page);
	stack.sim.control.model.celebrate(MAIN.overlay, null);
	await expect.poll(() => fired(page), { timeout: REACT_MS }).toBe(1);
	await expect.poll(() => completed(page), { timeout: 5000 }).toBe(1);
	// It did animate...
	expect((await frames(page)) - idle).toBeGreaterThan(5);
	// ...and then nothing at all.
	const after = await frames(page);
	await page.waitForTimeout(2000);
	expect((await frames(page)) - after).toBe(0);
});

test('confetti ends, is cleared, and leaves no frames running', async ({ page, stack }) => {
	await countFrames(page);
	await page.goto(stack.url('/widget/celebration', { duration: 1.5, intensity: 2 }));
	await ready(page);
	stack.sim.control.model.celebrate(null, null);
	await expect.poll(() => completed(page), { timeout: 5000 }).toBe(1);
	const blank = await page.evaluate(() => {
		const c = document.querySelector('canvas')!;
		const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
		return data.every((v) => v === 0);
	});
	expect(blank).toBe(true);
	const after = await frames(page);
	await page.waitForTimeout(2000);
	expect((await frames(page)) - after).toBe(0);
});

test('with reduced motion a short glow replaces the particles', async ({ page, stack }) => {
	await page.emulateMedia({ reducedMotion: 'reduce' });
	await countFrames(page);
	await page.goto(stack.url('/widget/celebration', { duration: 15 }));
	await ready(page);
	const started = Date.now();
	stack.sim.control.model.celebrate(null, null);
	await expect.poll(() => fired(page), { timeout: REACT_MS }).toBe(1);
	// The glow lasts about 1.2 s, whatever the duration parameter says.
	await expect.poll(() => completed(page), { timeout: 4000 }).toBe(1);
	expect(Date.now() - started).toBeLessThan(4000);
	const after = await frames(page);
	await page.waitForTimeout(2000);
	expect((await frames(page)) - after).toBe(0);
});

test('other widgets can fire it directly', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/celebration', { duration: 1 }));
	await ready(page);
	await page.evaluate(() =>
		(window as unknown as { __tok: { celebration: { fire(): void } } }).__tok.celebration.fire()
	);
	await expect.poll(() => fired(page), { timeout: REACT_MS }).toBe(1);
	await expect.poll(() => completed(page), { timeout: 5000 }).toBe(1);
});

test('a bad parameter shows a card naming it', async ({ page, stack }) => {
	await page.goto(
		stack.url('/widget/celebration', { intensity: 9, style: 'balloons', overlay: 'o_zz' })
	);
	await expect
		.poll(() => textOf(page, '[data-testid=error-card]'))
		.toContain('intensity: expected a number from 0.1 to 3, got "9"');
	const card = await textOf(page, '[data-testid=error-card]');
	expect(card).toContain('style: expected confetti or fireworks, got "balloons"');
	expect(card).toContain('overlay: expected');
});

test('a wrong key shows a card', async ({ page, stack }) => {
	await page.goto(`${stack.origin}/widget/celebration?key=wrong_key_but_well_formed`);
	await expect
		.poll(() => textOf(page, '[data-testid=error-card]'), { timeout: 20_000 })
		.toContain('The overlay key was refused');
});
