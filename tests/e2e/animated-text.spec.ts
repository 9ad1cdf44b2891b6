// Numbers that move on screen (a counter counting to its value, the tip goal's total and bar) end
// on the upstream's value whatever arrives around them: a change to another counter just after a
// count ends, bursts of changes down to several in one frame, with motion or reduced motion, on the
// counters page and inside an overlay, in every engine. Once the last one ends, no frame runs.
import type { Page } from '@playwright/test';
import fc from 'fast-check';
import {
	attrOf,
	countFrames,
	expect,
	frames,
	test,
	textOf,
	type Stack,
	untilStill
} from './fixtures.ts';
import { REACT_MS } from './fixtures.ts';

const MAIN = 'o_1a2b3c4d'; // demo overlay with the tip goal and every counter (w_main_counters)

type Motion = 'motion' | 'reduced motion';

/** Opens `url` with its animation frames counted, the viewer asking for `motion`. */
async function open(page: Page, url: string, motion: Motion = 'motion'): Promise<void> {
	if (motion === 'reduced motion') await page.emulateMedia({ reducedMotion: 'reduce' });
	await countFrames(page);
	await page.goto(url);
}

/** No animation frame runs for a second and a half (once whatever moved has ended). */
async function expectIdle(page: Page): Promise<void> {
	await untilStill(page); // a count lasts 0.6 s, the goal's bar 0.8 s
	const before = await frames(page);
	await page.waitForTimeout(1500);
	expect((await frames(page)) - before).toBe(0);
}

/** Each counter's number as written on screen, by name. */
function numbersOnScreen(page: Page): Promise<Record<string, string>> {
	return page.evaluate(() =>
		Object.fromEntries(
			Array.from(document.querySelectorAll('[data-counter]')).map((el) => [
				el.getAttribute('data-counter'),
				el.querySelector('.value')?.textContent ?? ''
			])
		)
	);
}

/** The upstream's counters as the page must end up writing them (format=plain). */
function upstreamNumbers(stack: Stack): Record<string, string> {
	return Object.fromEntries(
		[...stack.sim.control.model.counters.values()].map((c) => [c.name, String(c.value)])
	);
}

const counterReady = (page: Page) =>
	expect
		.poll(() => attrOf(page, '[data-testid=counters-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A burst: changes to random counters (new ones too), spaced 0 ms (same frame) to 300 ms. */
const burst = fc.array(
	fc.record({
		name: fc.constantFrom('deaths', 'wins', 'hype', 'fresh'),
		value: fc.integer({ min: 0, max: 2_000_000 }),
		gapMs: fc.oneof(
			fc.constant(0),
			fc.integer({ min: 1, max: 40 }),
			fc.integer({ max: 300, min: 40 })
		)
	}),
	{ minLength: 1, maxLength: 14 }
);

/** Plays the burst on the simulator, each change pushed to the page as counter.updated. */
async function playBurst(stack: Stack, changes: { name: string; value: number; gapMs: number }[]) {
	for (const { name, value, gapMs } of changes) {
		if (stack.sim.control.model.counters.has(name)) stack.sim.control.model.setCounter(name, value);
		else stack.sim.control.model.createCounter(name, value);
		if (gapMs > 0) await sleep(gapMs);
	}
}

test('a change to another counter just after a count ends is shown', async ({ page, stack }) => {
	// The sequence: deaths counts to 412, and 0.3 s after 412 is on screen wins changes.
	stack.sim.control.model.setCounter('wins', 5);
	await page.goto(stack.url('/widget/counters', { format: 'plain' }));
	await counterReady(page);
	expect(await numbersOnScreen(page)).toMatchObject({ deaths: '3', wins: '5' });
	stack.sim.control.model.setCounter('deaths', 412);
	await expect
		.poll(() => textOf(page, '[data-counter=deaths] .value'), {
			timeout: REACT_MS,
			intervals: [20]
		})
		.toBe('412');
	await page.waitForTimeout(300);
	stack.sim.control.model.setCounter('wins', 689);
	await expect
		.poll(() => textOf(page, '[data-counter=wins] .value'), { timeout: REACT_MS })
		.toBe('689');
	// And again on a counter that already counted once.
	stack.sim.control.model.setCounter('deaths', 7);
	await expect
		.poll(() => textOf(page, '[data-counter=deaths] .value'), { timeout: REACT_MS })
		.toBe('7');
});

for (const motion of ['motion', 'reduced motion'] satisfies Motion[]) {
	test(`bursts of counter changes end with every value on screen (${motion})`, async ({
		page,
		stack
	}) => {
		test.setTimeout(120_000);
		await open(page, stack.url('/widget/counters', { format: 'plain' }), motion);
		await counterReady(page);
		await fc.assert(
			fc.asyncProperty(burst, async (changes) => {
				await playBurst(stack, changes);
				const want = upstreamNumbers(stack);
				await expect.poll(() => numbersOnScreen(page), { timeout: REACT_MS }).toEqual(want);
			}),
			{ numRuns: 4, endOnFailure: true }
		);
		await expectIdle(page);
	});
}

test('bursts of counter changes end with every value on screen inside an overlay', async ({
	page,
	stack
}) => {
	test.setTimeout(120_000);
	await open(page, stack.url(`/overlay/${MAIN}`));
	await counterReady(page);
	await fc.assert(
		fc.asyncProperty(burst, async (changes) => {
			await playBurst(stack, changes);
			// The overlay's counters widget uses the grouped format: compare digits.
			const want = upstreamNumbers(stack);
			await expect
				.poll(
					async () =>
						Object.fromEntries(
							Object.entries(await numbersOnScreen(page)).map(([k, v]) => [k, v.replace(/\D/g, '')])
						),
					{ timeout: REACT_MS }
				)
				.toEqual(want);
		}),
		{ numRuns: 3, endOnFailure: true }
	);
	await expectIdle(page);
});

for (const motion of ['motion', 'reduced motion'] satisfies Motion[]) {
	test(`bursts of tips end with the goal's total and bar on screen (${motion})`, async ({
		page,
		stack
	}) => {
		test.setTimeout(120_000);
		await open(page, stack.url('/widget/tip-goal', { overlay: MAIN }), motion);
		await expect
			.poll(() => attrOf(page, '[data-testid=tip-goal-widget]', 'data-status'), {
				timeout: 20_000
			})
			.toBe('ready');
		const tips = fc.array(
			fc.record({
				amount: fc.integer({ min: 1, max: 4000 }).map((c) => c / 100),
				gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300 }))
			}),
			{ minLength: 1, maxLength: 10 }
		);
		await fc.assert(
			fc.asyncProperty(tips, async (burstOfTips) => {
				for (const { amount, gapMs } of burstOfTips) {
					stack.sim.control.createTip({ name: 'Burst', amount, paid: true, message: null });
					if (gapMs > 0) await sleep(gapMs);
				}
				const goal = stack.sim.control.model.tipGoal(MAIN);
				// The demo's currency has cents: the total's digits, whatever the locale writes around them.
				const digits = goal.current.toFixed(2).replace('.', '');
				await expect
					.poll(
						async () => (await textOf(page, '[data-testid=tip-goal-raised]')).replace(/\D/g, ''),
						{
							timeout: REACT_MS
						}
					)
					.toBe(digits);
				// The bar at rest, as wide as the share of the target raised (capped at full).
				const share = Math.min(1, goal.current / goal.amount);
				await expect.poll(() => barShare(page), { timeout: REACT_MS }).toBeCloseTo(share, 2);
			}),
			{ numRuns: 3, endOnFailure: true }
		);
		await expectIdle(page);
	});
}

/** The bar's fill width as a share of its track. */
function barShare(page: Page): Promise<number> {
	return page.evaluate(() => {
		const fill = document.querySelector('[data-testid=tip-goal] .fill') as HTMLElement | null;
		const track = fill?.parentElement;
		if (!fill || !track) return -1;
		return fill.getBoundingClientRect().width / track.getBoundingClientRect().width;
	});
}
