// Hostile viewer text in the pages (current Chromium, OBS 30's 103, OBS 31/32's 127): markup and
// script payloads, right-to-left overrides, zero-width characters, emoji sequences and very long
// strings in tip names and messages, video requesters and titles, and the goal title. Each is shown
// as text (its characters are on the page), never parsed (no element injected, no script run), and
// the page keeps working (the tip is read and finished, the video plays, the goal moves).
import type { Page } from '@playwright/test';
import { demoVideos } from '../../src/sim/demo-videos.ts';
import { attrOf, eventually, expect, test, textOf, type Stack } from './fixtures.ts';

const PAYLOADS = {
	img: '<img src=x onerror="window.__pwned=1">',
	script: '<script>window.__pwned=2</script>',
	svg: '"><svg onload="window.__pwned=3">',
	rtl: '\u202Eevil\u202C',
	zeroWidth: 'a\u200Bb\u200Dc\uFEFF',
	emoji: '👩‍👩‍👧‍👦🏳️‍🌈🎉'
};
const hostile = Object.values(PAYLOADS).join(' ');
/** Injected elements a payload would create if it were parsed as HTML. */
const INJECTED = 'script, [onerror], [onload], img[src="x"]';

async function injected(page: Page, root: string): Promise<number> {
	return page.evaluate(
		([r, sel]) => document.querySelector(r)?.querySelectorAll(sel).length ?? -1,
		[root, INJECTED] as const
	);
}

async function pwned(page: Page): Promise<unknown> {
	return page.evaluate(() => (window as { __pwned?: unknown }).__pwned);
}

async function waitReady(page: Page, testId: string): Promise<void> {
	await expect
		.poll(() => attrOf(page, `[data-testid=${testId}]`, 'data-status'), { timeout: 20_000 })
		.toBe('ready');
}

test('TTS: a long hostile name and message are shown as text, read and finished', async ({
	page,
	stack
}) => {
	test.setTimeout(120_000); // the message is spoken in real time
	await page.goto(stack.url('/widget/tts', { min_display: 2, gap: 0 }));
	await waitReady(page, 'tts-widget');
	const name = `${PAYLOADS.img}${PAYLOADS.rtl}${PAYLOADS.emoji}`.slice(0, 100);
	// Long on screen (a 300-character word that must wrap), yet quick to speak: it is spelled once.
	const message = `${hostile} ${'W'.repeat(300)}`;
	const tip = stack.sim.control.createTip({ name, amount: 5, message, paid: true });
	await expect
		.poll(() => textOf(page, '[data-testid=tts-name]'), { timeout: 15_000 })
		.toBe(tip.name);
	expect(await textOf(page, '[data-testid=tts-message]')).toContain(PAYLOADS.script);
	expect(await textOf(page, '[data-testid=tts-message]')).toContain(PAYLOADS.zeroWidth);
	expect(await injected(page, '[data-testid=tts-widget]')).toBe(0);
	expect(await pwned(page)).toBeUndefined();
	await eventually(
		() =>
			stack
				.calls('POST', new RegExp(`^/tts/${tip.order_id}/finish$`))
				.some((e) => e.status === 200),
		90_000
	);
	expect(await pwned(page)).toBeUndefined();
});

function queueVideo(stack: Stack, requester: string, title: string) {
	const demo = demoVideos.find((v) => v.file === '/demo/bars.webm')!;
	return stack.sim.control.model.enqueueMedia(
		{
			url: `${stack.sim.origin}${demo.file}`,
			title,
			thumbnail: `${stack.sim.origin}${demo.thumbnail}`,
			duration: demo.duration
		},
		requester
	);
}

test('media: a hostile requester and title are shown as text and the video still plays once', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/media'));
	await waitReady(page, 'media-widget');
	const requester = `${PAYLOADS.svg}${PAYLOADS.rtl}${PAYLOADS.emoji}`;
	const title = `${PAYLOADS.script}${PAYLOADS.img}${PAYLOADS.zeroWidth} ${'T'.repeat(300)}`;
	const item = queueVideo(stack, requester, title);
	await expect
		.poll(() => textOf(page, '[data-testid=media-title]'), { timeout: 15_000 })
		.toBe(title);
	expect(await textOf(page, '[data-testid=media-requester]')).toBe(requester);
	expect(await injected(page, '[data-testid=media-widget]')).toBe(0);
	expect(await pwned(page)).toBeUndefined();
	await eventually(
		() =>
			stack
				.calls('POST', new RegExp(`^/media/${item.order_id}/finish$`))
				.filter((e) => e.status === 200).length === 1,
		30_000
	);
	expect(await pwned(page)).toBeUndefined();
});

test('tip goal: a hostile goal title is shown as text and the goal still moves', async ({
	page,
	stack
}) => {
	const overlay = 'o_1a2b3c4d';
	const title = `${PAYLOADS.img}${PAYLOADS.rtl}${PAYLOADS.zeroWidth}${PAYLOADS.emoji}`;
	stack.sim.control.model.updateTipGoal(overlay, { title });
	await page.goto(stack.url('/widget/tip-goal', { overlay }));
	await waitReady(page, 'tip-goal-widget');
	await expect
		.poll(() => textOf(page, '[data-testid=tip-goal] .title'), { timeout: 15_000 })
		.toBe(title);
	const before = Number(await attrOf(page, '[data-testid=tip-goal-widget]', 'data-current'));
	stack.sim.control.createTip({ name: PAYLOADS.script, amount: 7, message: hostile, paid: true });
	await expect
		.poll(async () => Number(await attrOf(page, '[data-testid=tip-goal-widget]', 'data-current')), {
			timeout: 15_000
		})
		.toBe(before + 7);
	expect(await injected(page, '[data-testid=tip-goal-widget]')).toBe(0);
	expect(await pwned(page)).toBeUndefined();
});
