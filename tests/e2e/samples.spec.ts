// The widgets' still samples (sample=1), which the preview's gallery and the settings editor show:
// each is the real widget with sample data, in the URL's theme and options, and asks for nothing
// but the page's own files (no realtime socket, no /token, no /api or /settings read, no claim).
// Observed through evaluate only (Chromium 103 lacks what click() and toBeVisible() use).
import type { Page, TestInfo } from '@playwright/test';
import { attrOf, countFrames, expect, frames, test, textOf, type Stack } from './fixtures.ts';
import { layoutProblems } from './layout.ts';

test.use({ viewport: { width: 1280, height: 720 } });

const ACCENT = '22d3ee';
const ACCENT_RGB = 'rgb(34, 211, 238)';

/**
 * Opens a widget's sample and records what the page asks for: `foreign()` lists every request
 * that is not one of the page's own files (its HTML, its built assets, a data: image), and every
 * WebSocket opened.
 */
async function openSample(
	page: Page,
	stack: Stack,
	path: string,
	params: Record<string, string | number>
) {
	const asked: string[] = [];
	const sockets: string[] = [];
	page.on('request', (r) => asked.push(r.url()));
	page.on('websocket', (ws) => sockets.push(`websocket ${ws.url()}`));
	const simCalls = stack.sim.control.log.requests().length;
	await page.goto(stack.url(path, { sample: 1, accent: ACCENT, ...params }));
	const own = (url: string) => {
		if (url.startsWith('data:')) return true;
		const u = new URL(url);
		return u.origin === stack.origin && (u.pathname === path || u.pathname.startsWith('/assets/'));
	};
	return {
		foreign: async () => {
			// A live page asks for its token and reads as soon as its script runs.
			await page.waitForLoadState('networkidle');
			return {
				requests: [...asked.filter((u) => !own(u)), ...sockets],
				simCalls: stack.sim.control.log.requests().length - simCalls
			};
		}
	};
}

/** The computed colour of the first element matching `selector`. */
const colourOf = (page: Page, selector: string) =>
	page.evaluate((sel) => {
		const el = document.querySelector(sel);
		return el ? getComputedStyle(el).color : null;
	}, selector);

/** A screenshot at 1280x720 beside the test's results (current Chromium only: the looks agree). */
async function screenshot(page: Page, testInfo: TestInfo, name: string, afterMs = 1200) {
	if (testInfo.project.name !== 'chromium') return;
	// By default when the entrance animations have ended (the stage's fit, tweens, transitions).
	await page.waitForTimeout(afterMs);
	const path = testInfo.outputPath(`${name}.png`);
	await page.screenshot({ path });
	await testInfo.attach(name, { path, contentType: 'image/png' });
}

interface Sample {
	widget: string;
	params: Record<string, string | number>;
	/** Elements with sample text, and their text. */
	texts: [selector: string, expected: string][];
	/** An element the accent colour paints. */
	accent: string;
	/** How many rows or items show. */
	count?: [selector: string, n: number];
}

const SAMPLES: Sample[] = [
	{
		widget: 'tts',
		params: {},
		texts: [['[data-testid=tts-name]', 'Sample viewer']],
		accent: '[data-testid=tts-amount]'
	},
	{
		widget: 'media',
		params: { size: 0.8 },
		texts: [
			['[data-testid=media-requester]', 'Sample viewer'],
			['[data-testid=media-time]', '0:42 / 3:00']
		],
		accent: '[data-testid=media-requester]'
	},
	{
		// Without `overlay`: a sample shows no overlay's goal.
		widget: 'tip-goal',
		params: { position: 'center' },
		texts: [
			['[data-testid=tip-goal-percent]', '60%'],
			['[data-testid=tip-goal-when]', '2h 15m left']
		],
		accent: '[data-testid=tip-goal-percent]'
	},
	{
		widget: 'counters',
		params: { name: 'deaths', label: 'Deaths today', format: 'plain' },
		texts: [
			['[data-counter=deaths] .label', 'Deaths today'],
			['[data-counter=deaths] .value', '12345']
		],
		accent: '[data-counter=deaths] .value',
		count: ['[data-counter]', 1]
	},
	{
		widget: 'recent',
		params: { limit: 3 },
		texts: [['[data-testid=recent-row] .name', 'Sample viewer']],
		accent: '[data-testid=recent-row] .amount',
		count: ['[data-testid=recent-row]', 3]
	},
	{
		widget: 'leaderboard',
		params: {},
		texts: [['[data-testid=leaderboard-row] .name', 'PixelPirate']],
		accent: '[data-testid=leaderboard-row] .rank',
		count: ['[data-testid=leaderboard-row]', 4]
	}
];

for (const s of SAMPLES)
	test(`the ${s.widget} sample shows sample data in the URL's accent and asks for nothing`, async ({
		page,
		stack
	}, testInfo) => {
		const sample = await openSample(page, stack, `/widget/${s.widget}`, s.params);
		for (const [selector, expected] of s.texts)
			await expect.poll(() => textOf(page, selector), { timeout: 15_000 }).toBe(expected);
		expect(await colourOf(page, s.accent)).toBe(ACCENT_RGB);
		if (s.count)
			expect(await page.evaluate((sel) => document.querySelectorAll(sel).length, s.count[0])).toBe(
				s.count[1]
			);
		expect(await sample.foreign()).toEqual({ requests: [], simCalls: 0 });
		await screenshot(page, testInfo, `sample-${s.widget}`);
		expect(await layoutProblems(page)).toEqual([]);
	});

test('the celebration sample fires on load and on each "fire" message, then rests', async ({
	page,
	stack
}, testInfo) => {
	const WIDGET = '[data-testid=celebration-widget]';
	const count = async (name: string) => Number(await attrOf(page, WIDGET, `data-${name}`));
	await countFrames(page);
	const sample = await openSample(page, stack, '/widget/celebration', { duration: 2 });
	await expect.poll(() => count('fired'), { timeout: 15_000 }).toBe(1);
	// In full flight.
	await screenshot(page, testInfo, 'sample-celebration', 500);
	await expect.poll(() => count('completed'), { timeout: 5000 }).toBe(1);
	// What the settings editor posts to replay it.
	await page.evaluate(() => postMessage('fire', location.origin));
	await expect.poll(() => count('fired')).toBe(2);
	await expect.poll(() => count('completed'), { timeout: 5000 }).toBe(2);
	// Nothing runs between celebrations: no interval, no frame.
	const after = await frames(page);
	await page.waitForTimeout(1500);
	expect((await frames(page)) - after).toBe(0);
	expect(await sample.foreign()).toEqual({ requests: [], simCalls: 0 });
});
