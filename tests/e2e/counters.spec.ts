// The counters widget in real Chromium engines against the simulator: one counter or all, every
// change on screen, deletions, the overlay widget's settings, and no idle frames.
import type { Page } from '@playwright/test';
import { attrOf, countFrames, expect, frames, test, textOf, untilStill } from './fixtures.ts';
import { REACT_MS } from './fixtures.ts';

const WIDGET = '[data-testid=counters-widget]';

/** Connected and the first snapshot is on screen. */
async function ready(page: Page): Promise<void> {
	await expect.poll(() => attrOf(page, WIDGET, 'data-status'), { timeout: 20_000 }).toBe('ready');
}

/** The counters on screen as `name=value`, in order. */
function shown(page: Page): Promise<string[]> {
	return page.evaluate(() =>
		Array.from(document.querySelectorAll('[data-counter]')).map(
			(el) => `${el.getAttribute('data-counter')}=${el.getAttribute('data-value')}`
		)
	);
}

test('every counter is listed and a change shows, with a bump', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/counters', { format: 'plain' }));
	await ready(page);
	expect(await shown(page)).toEqual(['deaths=3', 'wins=1', 'hype=12']);

	stack.sim.control.model.incrementCounter('deaths');
	await expect.poll(() => shown(page), { timeout: REACT_MS }).toContain('deaths=4');
	expect(await attrOf(page, '[data-counter=deaths]', 'data-bumps')).toBe('1');

	stack.sim.control.model.setCounter('hype', 9001);
	await expect.poll(() => shown(page), { timeout: REACT_MS }).toContain('hype=9001');
});

test('a deleted counter disappears and a new one appears', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/counters'));
	await ready(page);
	stack.sim.control.model.deleteCounter('wins');
	await expect.poll(() => shown(page), { timeout: REACT_MS }).toEqual(['deaths=3', 'hype=12']);
	stack.sim.control.model.createCounter('headshots', 7);
	await expect
		.poll(() => shown(page), { timeout: REACT_MS })
		.toEqual(['deaths=3', 'hype=12', 'headshots=7']);
});

test('the name parameter shows one counter with its label and number format', async ({
	page,
	stack
}) => {
	stack.sim.control.model.setCounter('hype', 12345);
	await page.goto(stack.url('/widget/counters', { name: 'hype', label: '<b>Hype</b> 🔥' }));
	await ready(page);
	expect(await shown(page)).toEqual(['hype=12345']);
	expect(await textOf(page, '[data-counter=hype] .label')).toBe('<b>Hype</b> 🔥');
	expect(await textOf(page, '[data-counter=hype] .value')).toBe('12,345');
	expect(await page.evaluate(() => document.querySelectorAll(`${'.counters'} b`).length)).toBe(0);

	stack.sim.control.model.incrementCounter('deaths');
	stack.sim.control.model.incrementCounter('hype', 1000);
	await expect
		.poll(() => textOf(page, '[data-counter=hype] .value'), { timeout: REACT_MS })
		.toBe('13,345');
	expect(await shown(page)).toEqual(['hype=13345']);
});

test('compact format', async ({ page, stack }) => {
	stack.sim.control.model.setCounter('wins', 1_234_567);
	await page.goto(stack.url('/widget/counters', { name: 'wins', format: 'compact' }));
	await ready(page);
	expect(await textOf(page, '[data-counter=wins] .value')).toBe('1.2M');
});

test('a named counter that does not exist shows nothing until it is created', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/counters', { name: 'pets' }));
	await ready(page);
	expect(await shown(page)).toEqual([]);
	expect((await textOf(page, WIDGET)).trim()).toBe('');
	stack.sim.control.model.createCounter('pets', 2);
	await expect.poll(() => shown(page), { timeout: REACT_MS }).toEqual(['pets=2']);
	stack.sim.control.model.deleteCounter('pets');
	await expect.poll(() => shown(page), { timeout: REACT_MS }).toEqual([]);
});

test('with debug=1 a missing named counter is noted', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/counters', { name: 'nope', debug: 1 }));
	await ready(page);
	expect(await textOf(page, '[data-testid=counter-missing]')).toBe('no counter nope');
});

test("the overlay widget's settings pick the counter", async ({ page, stack }) => {
	await page.goto(
		stack.url('/widget/counters', { overlay: 'o_5e6f7a8b', widget: 'w_chat_deaths' })
	);
	await ready(page);
	expect(await attrOf(page, WIDGET, 'data-selected')).toBe('deaths');
	expect(await shown(page)).toEqual(['deaths=3']);
	stack.sim.control.model.incrementCounter('deaths', 2);
	await expect.poll(() => shown(page), { timeout: REACT_MS }).toEqual(['deaths=5']);

	// A widget id alone is looked up in every overlay.
	await page.goto(stack.url('/widget/counters', { widget: 'w_chat_deaths' }));
	await ready(page);
	expect(await shown(page)).toEqual(['deaths=5']);

	// A counter widget without settings.name shows every counter.
	await page.goto(
		stack.url('/widget/counters', { overlay: 'o_1a2b3c4d', widget: 'w_main_counters' })
	);
	await ready(page);
	expect(await shown(page)).toEqual(['deaths=5', 'wins=1', 'hype=12']);
});

test('a bad parameter shows a card naming it', async ({ page, stack }) => {
	await page.goto(
		stack.url('/widget/counters', { name: 'Not a slug!', format: 'fancy', overlay: 'x' })
	);
	await expect.poll(() => textOf(page, '[data-testid=error-card]')).toContain('name: expected');
	const card = await textOf(page, '[data-testid=error-card]');
	expect(card).toContain('format: expected plain, grouped or compact, got "fancy"');
	expect(card).toContain('overlay: expected');
});

test('a wrong key shows a card', async ({ page, stack }) => {
	await page.goto(`${stack.origin}/widget/counters?key=wrong_key_but_well_formed`);
	await expect
		.poll(() => textOf(page, '[data-testid=error-card]'), { timeout: 20_000 })
		.toContain('The overlay key was refused');
});

test('after a bump nothing runs an animation frame', async ({ page, stack }) => {
	await countFrames(page);
	await page.goto(stack.url('/widget/counters'));
	await ready(page);
	stack.sim.control.model.incrementCounter('wins');
	await expect.poll(() => shown(page), { timeout: REACT_MS }).toContain('wins=2');
	await untilStill(page); // the bump lasts under half a second
	const before = await frames(page);
	await page.waitForTimeout(2000);
	expect((await frames(page)) - before).toBe(0);
});
