// What the streamer's dock does to the widgets, in real Chromium engines (current, OBS
// 30's 103, OBS 31/32's 127): each effect is pressed as the dock presses it, through the token
// endpoint's POST /control/actions/:action with the control key, and observed in the widget's page
// and in the simulator's log. A skip silences the TTS and the media widget within 500 ms; pause
// holds the next alert until resume; a removed tip never plays; a replayed tip plays once; hide
// takes the video off the media widget and an overlay page; close refuses the demo tip.
import type { Page } from '@playwright/test';
import {
	cards,
	controlAction as dock,
	fast,
	LONG,
	reading,
	replayedOnce,
	SKIP_DEADLINE_MS,
	sounding,
	ttsFinishes,
	ttsFinishesOf,
	ttsReady,
	ttsStarts,
	ttsStartsOf,
	watchPlayback
} from './dock.helpers.ts';
import { attrOf, eventually, expect, REACT_MS, test, textOf, type Stack } from './fixtures.ts';
import {
	finishesOf,
	queueVideo,
	ready as mediaReady,
	startsOf,
	videoTime
} from './media.helpers.ts';

/**
 * In the page: presses a skip as the dock does (a fetch of the same origin with the control key),
 * then watches until no media element playing `src` (the skipped item's audio or video) sounds any
 * more, for SKIP_DEADLINE_MS from the press at most; the next item may start meanwhile.
 * `silentAfterMs` is null when it still sounded at the deadline.
 */
function skipInPage(page: Page, stack: Stack, action: string, orderId: string, src: string) {
	return page.evaluate(
		async ({ action, orderId, src, key, deadline }) => {
			const w = window as unknown as { __sounding: () => string[] };
			const t0 = performance.now();
			const res = await fetch(`/control/actions/${action}`, {
				method: 'POST',
				headers: { 'x-control-key': key, 'content-type': 'application/json' },
				body: JSON.stringify({ order_id: orderId })
			});
			const body = (await res.json()) as { outcome?: string };
			let silentAfterMs: number | null = null;
			for (;;) {
				const elapsed = performance.now() - t0;
				if (!w.__sounding().some((playing) => playing.includes(src))) {
					silentAfterMs = elapsed;
					break;
				}
				if (elapsed > deadline) break;
				await new Promise((resolve) => setTimeout(resolve, 5));
			}
			return { status: res.status, outcome: body.outcome, silentAfterMs };
		},
		{ action, orderId, src, key: stack.controlKey, deadline: SKIP_DEADLINE_MS }
	);
}

/** Records how long the skip took to silence the page (an annotation, for the reader). */
function note(what: string, ms: number | null): void {
	test.info().annotations.push({
		type: what,
		description:
			ms === null ? `still sounding after ${SKIP_DEADLINE_MS} ms` : `${Math.round(ms)} ms`
	});
}

test('a skip from the dock silences the tip being read within 500 ms and the next one plays', async ({
	page,
	stack
}) => {
	await watchPlayback(page);
	await page.goto(stack.url('/widget/tts', fast));
	await ttsReady(page);
	const tip = stack.sim.control.createTip({ name: 'Too long', amount: 3, message: LONG });
	const next = stack.sim.control.createTip({ name: 'Next', amount: 1, message: 'Me next.' });
	await reading(page, tip.order_id);

	const skip = await skipInPage(page, stack, 'tts-skip', tip.order_id, `/audio/${tip.order_id}`);
	note('TTS skip to silence', skip.silentAfterMs);
	expect(skip).toMatchObject({ status: 200, outcome: 'done' });
	expect(skip.silentAfterMs, 'silent within 500 ms of the skip').not.toBeNull();
	// The card leaves (its exit may take a moment longer than the sound).
	const shown = () =>
		page.evaluate((id) => !!document.querySelector(`[data-alert-id="${id}"]`), tip.order_id);
	await expect.poll(shown, { timeout: REACT_MS }).toBe(false);

	// Skipped, not played: never finished, not in the history; the queue goes on with the next.
	await eventually(() => ttsFinishesOf(stack, next.order_id).length === 1, 30_000);
	expect(ttsFinishesOf(stack, tip.order_id)).toEqual([]);
	expect(stack.sim.control.model.tts.history.map((h) => h.order_id)).toEqual([next.order_id]);
	expect(ttsStartsOf(stack, tip.order_id)).toHaveLength(1);
	// A second press finds nothing left to skip, and skips nothing else.
	expect((await dock(stack, 'tts-skip', tip.order_id)).body.outcome).toBe('already');
});

test('a skip from the dock silences the playing video within 500 ms and the next one plays', async ({
	page,
	stack
}) => {
	await watchPlayback(page);
	await page.goto(stack.url('/widget/media'));
	await mediaReady(page);
	const item = queueVideo(stack, 'Skipped', 'bounce');
	const next = queueVideo(stack, 'Next', 'bars');
	await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
	expect((await sounding(page)).length).toBe(1);

	const skip = await skipInPage(page, stack, 'media-skip', item.order_id, item.media_url);
	note('media skip to silence', skip.silentAfterMs);
	expect(skip).toMatchObject({ status: 200, outcome: 'done' });
	expect(skip.silentAfterMs, 'silent within 500 ms of the skip').not.toBeNull();
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-playing'), { timeout: REACT_MS })
		.not.toBe(item.order_id);

	await eventually(() => finishesOf(stack, next.order_id).length === 1, 30_000);
	expect(finishesOf(stack, item.order_id)).toEqual([]);
	expect(startsOf(stack, item.order_id)).toHaveLength(1);
	expect(stack.sim.control.model.media.history.map((h) => h.order_id)).toEqual([next.order_id]);
});

test('pause holds the next alert until resume, which plays it once', async ({ page, stack }) => {
	await watchPlayback(page);
	await page.goto(stack.url('/widget/tts', fast));
	await ttsReady(page);
	expect((await dock(stack, 'tts-pause')).body.outcome).toBe('done');
	const tip = stack.sim.control.createTip({ name: 'Held', amount: 2, message: 'Wait for me.' });
	// Held: its audio is ready and the page had time to act on it, yet it never started.
	await eventually(
		() => stack.sim.control.log.events('tip.tts_ready').some((e) => e.order_id === tip.order_id),
		REACT_MS
	);
	await page.waitForTimeout(1500);
	expect(ttsStarts(stack)).toEqual([]);
	expect(await cards(page)).toEqual([]);
	expect(await sounding(page)).toEqual([]);

	expect((await dock(stack, 'tts-resume')).body.outcome).toBe('done');
	await eventually(() => ttsFinishesOf(stack, tip.order_id).length === 1, 30_000);
	expect(ttsStartsOf(stack, tip.order_id)).toHaveLength(1);
	expect(await cards(page)).toEqual([tip.order_id]);
});

test('a tip removed from the queue never plays; the tips around it do', async ({ page, stack }) => {
	await watchPlayback(page);
	await page.goto(stack.url('/widget/tts', fast));
	await ttsReady(page);
	const first = stack.sim.control.createTip({ name: 'First', amount: 1, message: LONG });
	const removed = stack.sim.control.createTip({ name: 'Removed', amount: 1, message: 'Not me.' });
	const last = stack.sim.control.createTip({ name: 'Last', amount: 1, message: 'Me last.' });
	await reading(page, first.order_id);

	expect(await dock(stack, 'tts-remove', removed.order_id)).toMatchObject({
		status: 200,
		body: { outcome: 'done' }
	});
	// It was between the two: once the last one has played, the removed one had its turn.
	await eventually(() => ttsFinishesOf(stack, last.order_id).length === 1, 60_000);
	expect(stack.calls('POST', new RegExp(`^/tts/${removed.order_id}/`))).toEqual([]);
	expect(await cards(page)).toEqual([first.order_id, last.order_id]);
	expect(ttsFinishesOf(stack, first.order_id)).toHaveLength(1);
	expect((await dock(stack, 'tts-remove', removed.order_id)).body.outcome).toBe('already');
});

test('a played tip replayed from the dock (pressed twice at once) plays exactly once more', async ({
	page,
	stack
}) => {
	test.setTimeout(90_000);
	await watchPlayback(page);
	await page.goto(stack.url('/widget/tts', fast));
	await ttsReady(page);
	const tip = stack.sim.control.createTip({ name: 'Encore', amount: 4, message: 'Read me twice.' });
	await eventually(() => ttsFinishesOf(stack, tip.order_id).length === 1, 30_000);

	// Two docks press Replay together: one queues it again, the other finds it queued already.
	const presses = await Promise.all([
		dock(stack, 'tts-replay', tip.order_id),
		dock(stack, 'tts-replay', tip.order_id)
	]);
	expect(presses.map((p) => p.body.outcome).sort()).toEqual(['already', 'done']);
	const { replay, after } = await replayedOnce(stack);
	expect(ttsStartsOf(stack, tip.order_id)).toHaveLength(1);
	expect(await cards(page)).toEqual([tip.order_id, replay, after]);
});

for (const where of ['the media widget', 'an overlay page'] as const)
	test(`hide takes the playing video off ${where} and show brings it back where it was`, async ({
		page,
		stack
	}) => {
		const [main] = stack.sim.control.model.overlayList(); // Main scene: it has a media widget
		await page.goto(
			where === 'the media widget' ? stack.url('/widget/media') : stack.url(`/overlay/${main.id}`)
		);
		await mediaReady(page);
		const item = queueVideo(stack, 'Hider', 'bounce');
		await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(1);
		const shown = () =>
			page.evaluate(() => {
				const player = document.querySelector('[data-testid=media-player]');
				return player ? getComputedStyle(player).visibility : null;
			});
		expect(await shown()).toBe('visible');

		expect((await dock(stack, 'media-hide')).body.outcome).toBe('done');
		await expect.poll(shown, { timeout: REACT_MS }).toBe('hidden');
		expect(await attrOf(page, '[data-testid=media-widget]', 'data-visible')).toBe('no');
		await expect
			.poll(() => page.evaluate(() => document.querySelector('video')?.paused), {
				timeout: REACT_MS
			})
			.toBe(true);
		const held = (await videoTime(page))!;

		expect((await dock(stack, 'media-show')).body.outcome).toBe('done');
		await expect.poll(shown, { timeout: REACT_MS }).toBe('visible');
		await expect.poll(() => videoTime(page), { timeout: REACT_MS }).toBeGreaterThan(held + 0.2);
		await eventually(() => finishesOf(stack, item.order_id).length === 1, 30_000);
		expect(startsOf(stack, item.order_id)).toHaveLength(1);
	});

test('closing tipping refuses the demo tip with its reason and no alert shows; opening takes it', async ({
	page,
	browser,
	stack
}) => {
	await watchPlayback(page);
	await page.goto(stack.url('/widget/tts', fast));
	await ttsReady(page);
	const preview = await (await browser.newContext()).newPage();
	await preview.goto(stack.url('/preview'));
	await expect
		.poll(() => textOf(preview, '[data-testid=connection]'), { timeout: 20_000 })
		.toBe('open');
	const pressTip = () =>
		preview.evaluate(() =>
			(document.querySelector('[data-action="tip"]') as HTMLButtonElement).click()
		);

	expect((await dock(stack, 'tipping-close')).body.outcome).toBe('done');
	await pressTip();
	await expect
		.poll(() => textOf(preview, '[data-testid=notice]'), { timeout: REACT_MS })
		.toBe('tip: failed (tipping is closed)');
	await page.waitForTimeout(1000);
	expect(stack.sim.control.log.events('tip.created')).toEqual([]);
	expect(await cards(page)).toEqual([]);

	expect((await dock(stack, 'tipping-open')).body.outcome).toBe('done');
	await pressTip();
	await expect
		.poll(() => textOf(preview, '[data-testid=notice]'), { timeout: REACT_MS })
		.toBe('tip: done');
	await eventually(() => ttsFinishes(stack).length === 1, 30_000);
	expect(await cards(page)).toHaveLength(1);
	await preview.context().close();
});
