// The media widget with other pages in real Chromium engines: two pages at once, the media
// widget of an overlay page, and a tip read aloud ducking or holding the video (with_tts).
import { attrOf, eventually, expect, REACT_MS, test, textOf } from './fixtures.ts';
import {
	startPath,
	finishPath,
	releasePath,
	idOf,
	ok,
	ready,
	queueVideo,
	startsOf,
	finishesOf,
	videoTime,
	watchScripts
} from './media.helpers.ts';

test('two pages open at once play every video once in total', async ({ browser, stack }) => {
	// Two browser contexts and four items played in full (each tip now starts with its tier's
	// sound): on a loaded machine this ran close to the 60 s default.
	test.setTimeout(120_000);
	const a = await (await browser.newContext()).newPage();
	const b = await (await browser.newContext()).newPage();
	await a.goto(stack.url('/widget/media'));
	await b.goto(stack.url('/widget/media'));
	await ready(a);
	await ready(b);
	const items = [
		queueVideo(stack, 'One', 'bars'),
		queueVideo(stack, 'Two', 'countdown', 3),
		queueVideo(stack, 'Three', 'bars', 2)
	];
	await eventually(() => stack.calls('POST', finishPath).filter(ok).length === 3, 60_000);
	const ids = items.map((i) => i.order_id);
	expect(
		stack
			.calls('POST', startPath)
			.filter(ok)
			.map((e) => idOf(e.path))
	).toEqual(ids);
	expect(
		stack
			.calls('POST', finishPath)
			.filter(ok)
			.map((e) => idOf(e.path))
	).toEqual(ids);
	expect(stack.calls('POST', releasePath)).toEqual([]);
	await a.context().close();
	await b.context().close();
});

test('an overlay page plays videos in its media widget and loads the player only for overlays that have one', async ({
	browser,
	stack
}) => {
	const [main, chat] = stack.sim.control.model.overlayList();
	expect(chat.widgets.some((w) => w.type === 'media')).toBe(false);
	const plain = await (await browser.newContext()).newPage();
	const hasPlayer = watchScripts(plain);
	await plain.goto(stack.url(`/overlay/${chat.id}`));
	await expect
		.poll(() => attrOf(plain, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
	expect(await hasPlayer()).toBe(false);
	await plain.context().close();

	const page = await (await browser.newContext()).newPage();
	const loaded = watchScripts(page);
	await page.setViewportSize({ width: 960, height: 540 });
	await page.goto(stack.url(`/overlay/${main.id}`));
	await ready(page);
	expect(await loaded()).toBe(true);
	const item = queueVideo(stack, 'Overlay viewer', 'bars');
	await expect
		.poll(() => textOf(page, '[data-widget-type=media] [data-testid=media-title]'), {
			timeout: 15_000
		})
		.toBe('Bars and tone');
	await eventually(() => finishesOf(stack, item.order_id).length === 1, 30_000);
	expect(startsOf(stack, item.order_id)).toHaveLength(1);
	await page.context().close();
});

test('in an overlay with TTS and media, a tip read aloud ducks the video and it comes back up after', async ({
	page,
	stack
}) => {
	const [main] = stack.sim.control.model.overlayList();
	await page.setViewportSize({ width: 960, height: 540 });
	await page.goto(stack.url(`/overlay/${main.id}`, { min_display: 0, gap: 0, media_volume: 0.8 }));
	await ready(page);
	const item = queueVideo(stack, 'Watcher', 'bounce');
	await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(0.3);
	const volume = () => page.evaluate(() => document.querySelector('video')?.volume ?? null);
	expect(await volume()).toBeCloseTo(0.8, 2);
	// A second video queued behind: on a loaded machine the first (8 s) may end while the tip is
	// still read, and the volume that comes back up is then the next video's.
	queueVideo(stack, 'Next watcher', 'bounce');
	const tip = stack.sim.control.createTip({ name: 'Talker', amount: 1, message: 'Quiet please.' });
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-ducked'), { timeout: 15_000 })
		.toBe('yes');
	// The duck fades (a fraction of a second): the volume arrives at duck_volume of it.
	await expect.poll(volume, { timeout: REACT_MS }).toBeCloseTo(0.8 * 0.25, 2);
	await eventually(
		() => stack.calls('POST', new RegExp(`^/tts/${tip.order_id}/finish$`)).length === 1,
		30_000
	);
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-ducked'), { timeout: REACT_MS })
		.toBe('no');
	await expect.poll(volume, { timeout: REACT_MS }).toBeCloseTo(0.8, 2);
	await eventually(() => finishesOf(stack, item.order_id).length === 1, 30_000);
});

test('with with_tts=hold a separate media source starts the next video only after the tip is read', async ({
	browser,
	stack
}) => {
	// Two OBS browser sources of the same server share one browser profile.
	const context = await browser.newContext();
	const tts = await context.newPage();
	const media = await context.newPage();
	await tts.goto(stack.url('/widget/tts', { min_display: 0, gap: 0 }));
	await media.goto(stack.url('/widget/media', { with_tts: 'hold' }));
	await ready(media);
	await expect
		.poll(() => attrOf(tts, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
	const tip = stack.sim.control.createTip({
		name: 'Long talker',
		amount: 1,
		message: 'This message takes a few seconds to read, and the video waits for it to end.'
	});
	const ttsStart = new RegExp(`^/tts/${tip.order_id}/start$`);
	await eventually(() => stack.calls('POST', ttsStart).filter(ok).length === 1, 20_000);
	// Give the voice a moment to start, then request a video while it speaks.
	await expect
		.poll(() => attrOf(tts, '[data-testid=tts-widget]', 'data-status'), { timeout: REACT_MS })
		.toBe('ready');
	await tts.waitForTimeout(800);
	const item = queueVideo(stack, 'Patient', 'bars');
	await eventually(() => finishesOf(stack, item.order_id).length === 1, 40_000);
	const ttsFinish = stack.calls('POST', new RegExp(`^/tts/${tip.order_id}/finish$`))[0];
	const videoStart = startsOf(stack, item.order_id)[0];
	// The video was claimed only once the voice had ended (the finish call follows right after).
	expect(videoStart.t).toBeGreaterThanOrEqual(ttsFinish.t - 500);
	await context.close();
});
