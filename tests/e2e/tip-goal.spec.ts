// The tip-goal widget in real Chromium engines (current, OBS 30's 103, OBS 31/32's 127), against a
// private simulator: live tips, adds and edits, reloads, the celebration, the states, no idle frames.
import type { Page } from '@playwright/test';
import { attrOf, expect, test, textOf, type Stack, untilStill } from './fixtures.ts';
import { REACT_MS } from './fixtures.ts';

const MAIN = 'o_1a2b3c4d'; // demo overlay with an enabled goal (250, from the start of the day)
const DISABLED = 'o_5e6f7a8b'; // demo overlay whose goal is disabled
const root = '[data-testid=tip-goal-widget]';

const current = (page: Page) => attrOf(page, root, 'data-current');
const goalCurrent = (stack: Stack, id = MAIN) =>
	String(stack.sim.control.model.tipGoal(id).current);

/** The widget connected and read its goal. */
async function ready(page: Page): Promise<void> {
	await expect.poll(() => attrOf(page, root, 'data-status'), { timeout: 20_000 }).toBe('ready');
}

/** Counts requestAnimationFrame calls and `tok:celebrate` events of each page load. */
async function instrument(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const w = window as unknown as { __raf: number; __celebrations: number };
		w.__raf = 0;
		w.__celebrations = 0;
		const raf = window.requestAnimationFrame.bind(window);
		window.requestAnimationFrame = (cb) => {
			w.__raf += 1;
			return raf(cb);
		};
		addEventListener('tok:celebrate', () => {
			w.__celebrations += 1;
		});
	});
}

const counter = (page: Page, name: '__raf' | '__celebrations') =>
	page.evaluate((n) => (window as unknown as Record<string, number>)[n], name);

test('a paid tip moves the shown total; an unpaid one does not', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/tip-goal', { overlay: MAIN }));
	await ready(page);
	const before = Number(await current(page));
	expect(String(before)).toBe(goalCurrent(stack));

	stack.sim.control.createTip({ name: 'Payer', amount: 12.5, paid: true, message: 'for the mic' });
	await expect.poll(() => current(page), { timeout: REACT_MS }).toBe(String(before + 12.5));

	stack.sim.control.createTip({ name: 'Freebie', amount: 40, paid: false, message: 'free' });
	await page.waitForTimeout(1000);
	expect(await current(page)).toBe(String(before + 12.5));
	expect(goalCurrent(stack)).toBe(String(before + 12.5));
	expect(await textOf(page, '[data-testid=tip-goal]')).toContain('New microphone');
});

test('an add and a PATCH of the goal update it', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/tip-goal', { overlay: MAIN }));
	await ready(page);
	const before = Number(await current(page));
	stack.sim.control.model.addToTipGoal(MAIN, 30);
	await expect.poll(() => current(page), { timeout: REACT_MS }).toBe(String(before + 30));

	stack.sim.control.model.updateTipGoal(MAIN, { title: 'A better camera', amount: 999 });
	await expect
		.poll(() => textOf(page, '[data-testid=tip-goal]'), { timeout: REACT_MS })
		.toContain('A better camera');
	expect(await textOf(page, '[data-testid=tip-goal-amounts]')).toMatch(/999/);
	expect(await current(page)).toBe(String(before + 30));
});

test('a reload shows the same total, read from the upstream', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/tip-goal', { overlay: MAIN }));
	await ready(page);
	const before = Number(await current(page));
	stack.sim.control.createTip({ name: 'A', amount: 7, paid: true, message: null });
	stack.sim.control.createTip({ name: 'B', amount: 8, paid: true, message: null });
	stack.sim.control.model.addToTipGoal(MAIN, 5);
	await expect.poll(() => current(page), { timeout: REACT_MS }).toBe(String(before + 20));
	await page.reload();
	await ready(page);
	expect(await current(page)).toBe(String(before + 20));
	expect(goalCurrent(stack)).toBe(String(before + 20));
});

test('reaching the goal celebrates once, and not again after a reload', async ({ page, stack }) => {
	await instrument(page);
	await page.goto(stack.url('/widget/tip-goal', { overlay: MAIN }));
	await ready(page);
	const goal = stack.sim.control.model.tipGoal(MAIN);
	const missing = goal.amount - goal.current;
	expect(missing).toBeGreaterThan(2);
	stack.sim.control.createTip({ name: 'Almost', amount: missing - 1, paid: true, message: null });
	await expect.poll(() => current(page), { timeout: REACT_MS }).toBe(String(goal.amount - 1));
	expect(await counter(page, '__celebrations')).toBe(0);

	stack.sim.control.createTip({ name: 'Closer', amount: 2, paid: true, message: null });
	await expect.poll(() => counter(page, '__celebrations'), { timeout: REACT_MS }).toBe(1);
	expect(await textOf(page, '[data-testid=tip-goal-percent]')).toMatch(/^10\d%$/);
	stack.sim.control.createTip({ name: 'More', amount: 100, paid: true, message: null });
	await expect.poll(() => current(page), { timeout: REACT_MS }).toBe(String(goal.amount + 101));
	expect(await textOf(page, '[data-testid=tip-goal-percent]')).toBe(
		`${Math.floor(((goal.amount + 101) / goal.amount) * 100)}%`
	);
	expect(await counter(page, '__celebrations')).toBe(1);

	await page.reload();
	await ready(page);
	expect(await current(page)).toBe(String(goal.amount + 101));
	stack.sim.control.createTip({ name: 'After', amount: 1, paid: true, message: null });
	await expect.poll(() => current(page), { timeout: REACT_MS }).toBe(String(goal.amount + 102));
	expect(await counter(page, '__celebrations')).toBe(0);
});

test('a disabled goal renders nothing', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/tip-goal', { overlay: DISABLED }));
	await ready(page);
	expect(await page.evaluate(() => document.querySelector('[data-testid=tip-goal]'))).toBeNull();
	expect((await textOf(page, root)).trim()).toBe('');
	// Turning it on shows it at once (overlay.tip_goal.updated), and off again hides it.
	stack.sim.control.model.updateTipGoal(DISABLED, { enabled: true, title: 'Now on', amount: 50 });
	await expect.poll(() => textOf(page, root), { timeout: REACT_MS }).toContain('Now on');
	stack.sim.control.model.updateTipGoal(DISABLED, { enabled: false });
	await expect.poll(async () => (await textOf(page, root)).trim(), { timeout: REACT_MS }).toBe('');
});

test('a goal shows "Not started yet", a countdown, and "Ended"', async ({ page, stack }) => {
	const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
	stack.sim.control.model.updateTipGoal(MAIN, { starts_at: inAnHour, ends_at: null });
	await page.goto(stack.url('/widget/tip-goal', { overlay: MAIN }));
	await ready(page);
	const when = () => textOf(page, '[data-testid=tip-goal-when]');
	expect(await when()).toBe('Not started yet');

	// In Tokyo time, to show that the zone of the ISO string does not matter.
	const started = new Date(Date.now() - 60_000);
	const startedTokyo = toOffset(started, 9 * 60);
	const endsIn = new Date(Date.now() + 2 * 3_600_000 + 30 * 60_000 + 30_000);
	stack.sim.control.model.updateTipGoal(MAIN, {
		starts_at: startedTokyo,
		ends_at: endsIn.toISOString()
	});
	await expect.poll(when, { timeout: REACT_MS }).toBe('2h 30m left');

	stack.sim.control.model.updateTipGoal(MAIN, {
		ends_at: toOffset(new Date(Date.now() - 1000), -5 * 60)
	});
	await expect.poll(when, { timeout: REACT_MS }).toBe('Ended');
	expect(await attrOf(page, root, 'data-state')).toBe('ended');
});

test('a bad parameter shows the card naming it', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/tip-goal', { overlay: 'o_nothex!', scale: 9 }));
	await expect
		.poll(() => textOf(page, '[data-testid=error-card]'), { timeout: 10_000 })
		.toContain('overlay:');
	const text = await textOf(page, '[data-testid=error-card]');
	expect(text).toContain('scale:');
	expect(text).toContain('o_nothex!');
});

test('no animation frame runs 2 s after the bar has moved', async ({ page, stack }) => {
	await instrument(page);
	await page.goto(stack.url('/widget/tip-goal', { overlay: MAIN }));
	await ready(page);
	const before = Number(await current(page));
	stack.sim.control.createTip({ name: 'Mover', amount: 40, paid: true, message: null });
	await expect.poll(() => current(page), { timeout: REACT_MS }).toBe(String(before + 40));
	await expect.poll(() => attrOf(page, root, 'data-bar'), { timeout: 3000 }).toBe('still');
	expect(await counter(page, '__raf')).toBeGreaterThan(0); // the bar did animate with frames
	// Let a frame already requested by the last tween run out.
	await untilStill(() => counter(page, '__raf'));
	const settled = await counter(page, '__raf');
	await page.waitForTimeout(2000);
	expect(await counter(page, '__raf')).toBe(settled);
});

/** The instant as an ISO string in a fixed UTC offset (minutes), e.g. `...+09:00`. */
function toOffset(date: Date, offsetMin: number): string {
	const local = new Date(date.getTime() + offsetMin * 60_000).toISOString().slice(0, 23);
	const sign = offsetMin < 0 ? '-' : '+';
	const abs = Math.abs(offsetMin);
	const hh = String(Math.floor(abs / 60)).padStart(2, '0');
	const mm = String(abs % 60).padStart(2, '0');
	return `${local}${sign}${hh}:${mm}`;
}
