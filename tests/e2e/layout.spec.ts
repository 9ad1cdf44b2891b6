// The layout test: every widget keeps all of its content inside its box, and the box
// inside the page, at 1280x720, 1920x1080 and 1080x1920, whatever the content: one or twenty
// counters, an 80-character goal title, goals at 0, 40 and over 100 %, a long name and message, a
// video with a long title and requester. Runs in current Chromium and OBS's engines (103, 127);
// observes only through evaluate (no click()/toBeVisible(), missing in 103). What "fits" means is
// in layout.ts.
import type { Page } from '@playwright/test';
import {
	LONG_MESSAGE_UNBROKEN as LONG_MESSAGE,
	LONG_NAME,
	MAIN,
	alertOpacity,
	goalAt,
	queueVideo,
	twentyCounters
} from './content.ts';
import { attrOf, expect, test } from './fixtures.ts';
import { layoutProblems } from './layout.ts';

const SIZES = [
	{ width: 1280, height: 720 },
	{ width: 1920, height: 1080 },
	{ width: 1080, height: 1920 }
] as const;

const LONG_VIDEO_TITLE =
	'An extremely long video title that keeps going well past any dozen characters, and then more';

/** Lets the stage settle its fit after a change (ResizeObserver, then a frame). */
async function settled(page: Page): Promise<void> {
	await page.evaluate(
		() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
	);
	await page.waitForTimeout(250);
}

/** Measures the page at each size; collects what does not fit, labelled by size. */
async function atEverySize(page: Page, label: string): Promise<string[]> {
	const problems: string[] = [];
	for (const size of SIZES) {
		await page.setViewportSize(size);
		await settled(page);
		for (const p of await layoutProblems(page))
			problems.push(`${label} at ${size.width}x${size.height}: ${p}`);
	}
	return problems;
}

test('the tip goal fits at every size, with an 80-character title, at 0, 40 and 140 %', async ({
	page,
	stack
}) => {
	goalAt(stack, 0);
	await page.goto(stack.url('/widget/tip-goal', { overlay: MAIN }));
	await expect
		.poll(() => attrOf(page, '[data-testid=tip-goal-widget]', 'data-status'))
		.toBe('ready');
	const problems: string[] = [];
	for (const percent of [0, 40, 140]) {
		goalAt(stack, percent);
		await expect
			.poll(() => attrOf(page, '[data-testid=tip-goal-widget]', 'data-bar'))
			.toBe('still');
		problems.push(...(await atEverySize(page, `goal at ${percent} %`)));
	}
	expect(problems).toEqual([]);
});

test('the counters fit at every size, one of them and twenty', async ({ page, stack }) => {
	twentyCounters(stack);
	await page.goto(stack.url('/widget/counters', { name: 'deaths', label: LONG_NAME }));
	await expect.poll(() => page.locator('[data-counter]').count()).toBe(1);
	const problems = await atEverySize(page, 'one counter');
	await page.goto(stack.url('/widget/counters'));
	await expect.poll(() => page.locator('[data-counter]').count()).toBe(20);
	problems.push(...(await atEverySize(page, 'twenty counters')));
	expect(problems).toEqual([]);
});

test('an alert with a long name and message fits at every size', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/tts'));
	stack.sim.control.createTip({
		name: LONG_NAME,
		amount: 1234.5,
		paid: true,
		message: LONG_MESSAGE
	});
	await expect
		.poll(() => page.evaluate(() => document.querySelector('[data-testid=tts-alert]') !== null), {
			timeout: 20_000
		})
		.toBe(true);
	// The entrance has ended (gsap leaves the card at opacity 1).
	await expect.poll(() => alertOpacity(page)).toBe('1');
	expect(await atEverySize(page, 'alert')).toEqual([]);
	// The sample alert (sample=1) the preview shows.
	await page.goto(stack.url('/widget/tts', { sample: 1, scale: 2 }));
	await expect.poll(() => page.locator('[data-testid=tts-alert]').count()).toBe(1);
	expect(await atEverySize(page, 'sample alert at scale 2')).toEqual([]);
});

test('a celebrating tier with an image and a long message fits at every size', async ({
	page,
	stack
}) => {
	// The built-in top tier (ember look, scale 1.15) with a picture on the card.
	await page.goto(
		stack.url('/widget/tts', {
			sample: 1,
			sample_amount: 150,
			image: `${stack.sim.origin}/demo/bars.jpg`
		})
	);
	await expect
		.poll(() => attrOf(page, '[data-testid=tts-alert]', 'data-look'), { timeout: 20_000 })
		.toBe('ember');
	await expect
		.poll(() => page.evaluate(() => document.querySelector('img')?.complete ?? false))
		.toBe(true);
	expect(await atEverySize(page, 'top tier alert with an image')).toEqual([]);
});

test('recent events and top supporters fit at every size, full of long names and messages', async ({
	page,
	stack
}) => {
	for (let i = 0; i < 25; i++)
		stack.sim.control.createTip({
			name: `${LONG_NAME}${i}`,
			amount: 1000 + i,
			paid: true,
			message: LONG_MESSAGE
		});
	await page.goto(stack.url('/widget/recent', { limit: 50 }));
	await expect
		.poll(() => page.locator('[data-testid=recent-row]').count(), { timeout: 20_000 })
		.toBe(25);
	const problems = await atEverySize(page, 'recent events');
	await page.goto(stack.url('/widget/leaderboard', { limit: 25 }));
	await expect
		.poll(() => page.locator('[data-testid=leaderboard-row]').count(), { timeout: 20_000 })
		.toBeGreaterThanOrEqual(20);
	problems.push(...(await atEverySize(page, 'top supporters')));
	expect(problems).toEqual([]);
});

test('an alert with a short message fits at every size', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/tts'));
	stack.sim.control.createTip({ name: 'Ann', amount: 5, paid: true, message: 'Hi!' });
	await expect.poll(() => alertOpacity(page), { timeout: 20_000 }).toBe('1');
	expect(await atEverySize(page, 'short alert')).toEqual([]);
});

test('the celebration fits at every size, idle and while it plays', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/celebration', { duration: 3 }));
	await expect
		.poll(() => attrOf(page, '[data-testid=celebration-widget]', 'data-status'), {
			timeout: 20_000
		})
		.toBe('ready');
	const problems = await atEverySize(page, 'idle celebration');
	stack.sim.control.model.celebrate(null, null);
	await expect
		.poll(() => attrOf(page, '[data-testid=celebration-widget]', 'data-running'))
		.toBe('true');
	for (const p of await layoutProblems(page)) problems.push(`running celebration: ${p}`);
	expect(problems).toEqual([]);
});

test('a video with a long title and requester fits at every size', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/media'));
	const video = queueVideo(stack, LONG_VIDEO_TITLE);
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-playing'), { timeout: 20_000 })
		.toBe(video.order_id);
	expect(await atEverySize(page, 'video')).toEqual([]);
});

test('every demo overlay fits its own resolution with long and many contents', async ({
	page,
	stack
}) => {
	twentyCounters(stack);
	goalAt(stack, 140);
	const problems: string[] = [];
	for (const [id, width, height] of [
		[MAIN, 1920, 1080],
		['o_5e6f7a8b', 1280, 720],
		['o_9c0d1e2f', 1080, 1920]
	] as const) {
		await page.setViewportSize({ width, height });
		await page.goto(stack.url(`/overlay/${id}`));
		await expect.poll(() => page.locator('.widget[data-widget-id]').count()).toBeGreaterThan(0);
		const hasMedia = (await page.locator('[data-widget-type=media]').count()) > 0;
		const video = hasMedia ? queueVideo(stack, LONG_VIDEO_TITLE) : null;
		stack.sim.control.createTip({
			name: LONG_NAME,
			amount: 99.99,
			paid: true,
			message: LONG_MESSAGE
		});
		if (video)
			await expect
				.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-playing'), {
					timeout: 20_000
				})
				.toBe(video.order_id);
		if ((await page.locator('[data-widget-type=tts]').count()) > 0)
			await expect.poll(() => alertOpacity(page), { timeout: 20_000 }).toBe('1');
		await settled(page);
		for (const p of await layoutProblems(page)) problems.push(`${id} at ${width}x${height}: ${p}`);
		// Nothing of this overlay is left claimed for the next one.
		stack.sim.control.model.skip('media');
		stack.sim.control.model.ttsClear();
		await page.goto('about:blank');
	}
	expect(problems).toEqual([]);
});
