// The media widget in real Chromium engines (current, OBS 30's 103, OBS 31/32's 127) against the
// simulator: exactly-once playback of the media queue with the demo videos, broken and
// unsupported videos released without stalling the queue, pause and hide keeping the position,
// skip stopping at once, a bad parameter and a reload. Two pages and overlays are in
// media.pages.spec.ts, YouTube in media.youtube.spec.ts.
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
	releasesOf,
	videoTime
} from './media.helpers.ts';

test('each video is started once, shown with its title and requester, and finished after its real length', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/media'));
	await ready(page);
	const a = queueVideo(stack, 'Ada <b>Lovelace</b>', 'countdown', 2);
	const b = queueVideo(stack, 'Grace', 'bars');
	await expect
		.poll(() => textOf(page, '[data-testid=media-info]'), { timeout: 15_000 })
		.toContain('Countdown 5 to 0');
	expect(await textOf(page, '[data-testid=media-requester]')).toBe('Ada <b>Lovelace</b>');
	// Started at media_start_time, not at 0.
	await expect.poll(() => videoTime(page)).toBeGreaterThanOrEqual(2);
	await eventually(() => finishesOf(stack, b.order_id).length === 1, 40_000);

	expect(
		stack
			.calls('POST', startPath)
			.filter(ok)
			.map((e) => idOf(e.path))
	).toEqual([a.order_id, b.order_id]);
	expect(
		stack
			.calls('POST', finishPath)
			.filter(ok)
			.map((e) => idOf(e.path))
	).toEqual([a.order_id, b.order_id]);
	expect(stack.calls('POST', releasePath)).toEqual([]);
	// Never finished before the video could have played to its end (6 s from 2 s; 5 s).
	const played = (id: string) => finishesOf(stack, id)[0].t - startsOf(stack, id)[0].t;
	expect(played(a.order_id)).toBeGreaterThanOrEqual(4000 - 300);
	expect(played(b.order_id)).toBeGreaterThanOrEqual(5000 - 300);
	// Nothing left on screen once the queue is empty.
	await expect.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-playing')).toBe('');
	expect(await page.evaluate(() => document.querySelectorAll('video').length)).toBe(0);
});

test('a broken video is released (never finished) with its reason shown, and the next one plays', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/media', { debug: 1 }));
	await ready(page);
	const broken = stack.sim.control.model.enqueueMedia(
		{ url: `${stack.sim.origin}/demo/missing.webm`, title: 'Gone' },
		'Broken'
	);
	const next = queueVideo(stack, 'After', 'bars');
	const t0 = Date.now();
	await eventually(() => startsOf(stack, next.order_id).length === 1, 60_000);
	expect(Date.now() - t0).toBeLessThan(60_000);
	await eventually(() => finishesOf(stack, next.order_id).length === 1, 30_000);

	expect(finishesOf(stack, broken.order_id)).toEqual([]);
	// Released after every attempt; tried at most twice by this page.
	const starts = startsOf(stack, broken.order_id).length;
	expect(starts).toBeGreaterThanOrEqual(1);
	expect(starts).toBeLessThanOrEqual(2);
	expect(releasesOf(stack, broken.order_id).filter(ok)).toHaveLength(starts);
	expect(await textOf(page, '[data-testid=media-debug]')).toContain('could not be loaded');
	// It stays queued for the streamer to skip or remove; the page does not try it again.
	await page.waitForTimeout(1500);
	expect(startsOf(stack, broken.order_id).length).toBe(starts);
	expect(stack.sim.control.model.media.find(broken.order_id)).toBeDefined();
});

test('a video on an unsupported platform is released once with a reason, never played', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/media', { debug: 1 }));
	await ready(page);
	const twitch = stack.sim.control.model.enqueueMedia(
		{ url: 'https://www.twitch.tv/videos/123456', title: 'A clip' },
		'Clipper'
	);
	const next = queueVideo(stack, 'After', 'bars');
	await eventually(() => finishesOf(stack, next.order_id).length === 1, 30_000);
	expect(startsOf(stack, twitch.order_id)).toHaveLength(1);
	expect(releasesOf(stack, twitch.order_id).filter(ok)).toHaveLength(1);
	expect(finishesOf(stack, twitch.order_id)).toEqual([]);
	expect(await textOf(page, '[data-testid=media-debug]')).toContain(
		'Twitch videos cannot be played'
	);
});

test('hiding the player holds the video in place and showing it plays on from there', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/media'));
	await ready(page);
	const item = queueVideo(stack, 'Hider', 'bounce');
	await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(1.5);
	stack.sim.control.model.mediaSetVisible(false);
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-visible'), { timeout: REACT_MS })
		.toBe('no');
	await expect
		.poll(() => page.evaluate(() => document.querySelector('video')?.paused), { timeout: REACT_MS })
		.toBe(true);
	const held = (await videoTime(page))!;
	await page.waitForTimeout(2000);
	expect(await videoTime(page)).toBeCloseTo(held, 1);
	expect(finishesOf(stack, item.order_id)).toEqual([]);

	stack.sim.control.model.mediaSetVisible(true);
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-visible'), { timeout: REACT_MS })
		.toBe('yes');
	await expect.poll(() => videoTime(page), { timeout: REACT_MS }).toBeGreaterThan(held + 0.2);
	// It went on from where it was, not from the start.
	expect((await videoTime(page))!).toBeGreaterThan(held);
	await eventually(() => finishesOf(stack, item.order_id).length === 1, 30_000);
	expect(startsOf(stack, item.order_id)).toHaveLength(1);
	const played = finishesOf(stack, item.order_id)[0].t - startsOf(stack, item.order_id)[0].t;
	expect(played).toBeGreaterThanOrEqual(8000 + 2000 - 300);
});

test('pausing the queue pauses the video in place; resume plays on and finishes it once', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/media'));
	await ready(page);
	const item = queueVideo(stack, 'Pauser', 'countdown');
	const next = queueVideo(stack, 'Waiter', 'bars');
	await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(1);
	stack.sim.control.model.setPaused('media', true);
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-held'), { timeout: REACT_MS })
		.toBe('yes');
	const held = (await videoTime(page))!;
	await page.waitForTimeout(1500);
	expect(await videoTime(page)).toBeCloseTo(held, 1);
	stack.sim.control.model.setPaused('media', false);
	await eventually(() => finishesOf(stack, next.order_id).length === 1, 40_000);
	expect(startsOf(stack, item.order_id)).toHaveLength(1);
	expect(finishesOf(stack, item.order_id)).toHaveLength(1);
});

test('skipping the playing video stops it at once and the next one plays', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/media'));
	await ready(page);
	const item = queueVideo(stack, 'Skipped', 'bounce');
	const next = queueVideo(stack, 'Next', 'bars');
	await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(0.5);
	stack.sim.control.model.skip('media');
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-playing'), { timeout: REACT_MS })
		.not.toBe(item.order_id);
	await eventually(() => finishesOf(stack, next.order_id).length === 1, 30_000);
	expect(finishesOf(stack, item.order_id)).toEqual([]);
	expect(releasesOf(stack, item.order_id)).toEqual([]);
});

test('a bad URL parameter shows a readable card naming it', async ({ page, stack }) => {
	await page.goto(stack.url('/widget/media', { volume: 3, with_tts: 'shout' }));
	const card = () => textOf(page, '[data-testid=error-card]');
	await expect.poll(card).toContain('This overlay URL needs fixing');
	expect(await card()).toContain('volume');
	expect(await card()).toContain('with_tts');
	expect(stack.calls('POST', /./)).toEqual([]);
});

test('a reload in the middle of a video plays it again once from its start offset, and the queue goes on', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/widget/media'));
	await ready(page);
	const first = queueVideo(stack, 'Long', 'bounce', 1);
	const second = queueVideo(stack, 'Next', 'bars');
	await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(2);
	await page.reload();
	await ready(page);
	await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
	await eventually(() => finishesOf(stack, second.order_id).length === 1, 40_000);
	expect(startsOf(stack, first.order_id)).toHaveLength(2); // before and after the reload
	expect(releasesOf(stack, first.order_id).filter(ok)).toHaveLength(1);
	expect(finishesOf(stack, first.order_id)).toHaveLength(1);
	expect(startsOf(stack, second.order_id)).toHaveLength(1);
});
