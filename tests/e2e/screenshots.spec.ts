// What the widgets look like, compared with committed images: the still states of each
// widget at 1280x720 in current Chromium (the other engines render text a little differently; the
// layout test covers them). Fonts are pinned: every frame of the page gets Inter (from the
// @fontsource/inter package, locked in package-lock.json) in place of any font, so the images do
// not depend on the fonts of the machine. Motion is reduced and CSS animations finished;
// whatever moves by itself (a video's picture, its clock and progress) is masked.
//
// The images live in screenshots.spec.ts-snapshots/. After a deliberate change of a widget's look,
// regenerate them with `npx playwright test -c tests/e2e screenshots --project=chromium
// --update-snapshots` and look at each one before committing it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import {
	LONG_MESSAGE,
	LONG_NAME,
	LONG_TITLE,
	MAIN,
	alertOpacity,
	goalAt,
	queueVideo,
	twentyCounters
} from './content.ts';
import { attrOf, expect, test } from './fixtures.ts';

// Inside beforeEach: the skip condition needs the project (testInfo).
const ONLY = 'chromium';

const require = createRequire(import.meta.url);
const FONT_FILES = ['latin', 'latin-ext', 'cyrillic'].flatMap((subset) =>
	[400, 700, 800].map((weight) => ({
		weight,
		name: `inter-${subset}-${weight}-normal.woff2`
	}))
);
// Served on the page's own origin (the pages' Content-Security-Policy allows fonts from 'self'
// only), by the browser context itself: the product serves no such path.
const FONT_PATH = '/__pinned-font/';
const PINNED_CSS =
	FONT_FILES.map(
		(f) =>
			`@font-face{font-family:'Pinned Inter';font-weight:${f.weight};src:url(${FONT_PATH}${f.name}) format('woff2')}`
	).join('') +
	`*{font-family:'Pinned Inter' !important}` +
	// The page is transparent in OBS; a dark backdrop shows the widgets as on a stream.
	`html{background:#2b3440 !important}`;

test.beforeEach(async ({ page }, testInfo) => {
	test.skip(testInfo.project.name !== ONLY, 'images are compared in current Chromium only');
	await page.emulateMedia({ reducedMotion: 'reduce' });
	await page.context().route(`**${FONT_PATH}*`, (route) =>
		route.fulfill({
			contentType: 'font/woff2',
			body: readFileSync(
				require.resolve(`@fontsource/inter/files/${route.request().url().split('/').pop()}`)
			)
		})
	);
	await page.setViewportSize({ width: 1280, height: 720 });
	// In every frame (the preview's live frames too), as soon as the document has an element.
	await page.addInitScript((css: string) => {
		const put = () => {
			const style = document.createElement('style');
			style.textContent = css;
			document.documentElement.append(style);
		};
		if (document.documentElement) put();
		else document.addEventListener('readystatechange', put, { once: true });
	}, PINNED_CSS);
});

async function still(page: Page, name: string, mask: string[] = []): Promise<void> {
	await page.evaluate(() => document.fonts.ready.then(() => undefined));
	await expect(page).toHaveScreenshot(name, {
		animations: 'disabled',
		caret: 'hide',
		maxDiffPixelRatio: 0.01,
		mask: mask.map((s) => page.locator(s))
	});
}

test('alert card: the sample, and a long name and message', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/tts', { sample: 1 }));
	await expect.poll(() => page.locator('[data-testid=tts-alert]').count()).toBe(1);
	await still(page, 'alert-short.png');

	await page.goto(stack.url('/widget/tts'));
	stack.sim.control.createTip({
		name: LONG_NAME,
		amount: 1234.5,
		paid: true,
		message: LONG_MESSAGE
	});
	await expect.poll(() => alertOpacity(page), { timeout: 20_000 }).toBe('1');
	await still(page, 'alert-long.png');
});

for (const percent of [0, 40, 140])
	test(`tip goal at ${percent} %`, async ({ page, stack }) => {
		goalAt(stack, percent, percent === 40 ? LONG_TITLE : 'New microphone');
		await page.goto(stack.url('/widget/tip-goal', { overlay: MAIN }));
		await expect
			.poll(() => attrOf(page, '[data-testid=tip-goal-widget]', 'data-current'))
			.toBe(String((250 * percent) / 100));
		await expect
			.poll(() => attrOf(page, '[data-testid=tip-goal-widget]', 'data-bar'))
			.toBe('still');
		await still(page, `goal-${percent}.png`);
	});

test('counters: one, and twenty in columns', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/counters', { name: 'deaths' }));
	await expect.poll(() => page.locator('[data-counter]').count()).toBe(1);
	await still(page, 'counters-one.png');
	twentyCounters(stack);
	await page.goto(stack.url('/widget/counters'));
	await expect.poll(() => page.locator('[data-counter]').count()).toBe(20);
	await still(page, 'counters-twenty.png');
});

test('media: a video with its title and requester', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/media'));
	const video = queueVideo(
		stack,
		'An extremely long video title that keeps going well past any dozen characters'
	);
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-playing'), { timeout: 20_000 })
		.toBe(video.order_id);
	// The info shows for the first seconds: take it then, the picture hidden (it moves) and the
	// clock and progress masked.
	await page.addStyleTag({ content: '.host video{visibility:hidden}' });
	await still(page, 'media-info.png', ['.time', '.progress']);
});

test("the preview's overlay cards", async ({ page, stack }) => {
	await page.setViewportSize({ width: 1280, height: 2400 });
	await page.goto(stack.url('/preview'));
	await expect.poll(() => page.locator('[data-testid=preview-overlay]').count()).toBe(3);
	// The live frames have drawn their widgets: in every overlay frame, each widget is connected and
	// the pinned font is loaded (a fixed wait was too short on a loaded machine).
	await expect
		.poll(
			async () => {
				const frames = page.frames().filter((f) => f.url().includes('/overlay/'));
				if (frames.length < 3) return false;
				const ready = await Promise.all(
					frames.map((f) =>
						f
							.evaluate(
								() =>
									document.fonts.status === 'loaded' &&
									document.querySelectorAll('.widget[data-widget-id]').length > 0 &&
									[...document.querySelectorAll('[data-status]')].every(
										(e) => e.getAttribute('data-status') !== 'connecting'
									) &&
									[...document.querySelectorAll('[data-bar]')].every(
										(e) => e.getAttribute('data-bar') === 'still'
									)
							)
							.catch(() => false)
					)
				);
				return ready.every(Boolean);
			},
			{ timeout: 20_000 }
		)
		.toBe(true);
	// The preview's own connection line sits above the cards: while it still changes (a loaded
	// machine connects slowly), the cards move and cannot be taken.
	await expect
		.poll(() => attrOf(page, '[data-testid=preview]', 'data-connection'), { timeout: 20_000 })
		.toBe('open');
	await page.waitForTimeout(500); // the last frame's paint after its fit
	const cards = page.locator('[data-testid=preview-overlay]');
	for (let i = 0; i < 3; i++) {
		const id = await cards.nth(i).getAttribute('data-overlay-id');
		// The URL names the test server's port, another one every run.
		await expect(cards.nth(i)).toHaveScreenshot(`preview-card-${id}.png`, {
			animations: 'disabled',
			caret: 'hide',
			maxDiffPixelRatio: 0.01,
			mask: [cards.nth(i).locator('input')]
		});
	}
});
