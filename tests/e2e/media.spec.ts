// The media widget in real Chromium engines (current, OBS 30's 103, OBS 31/32's 127) against the
// simulator: exactly-once playback of the media queue with the demo videos, broken and unsupported
// videos released without stalling the queue, pause and hide keeping the position, skip stopping at
// once, two pages, and YouTube through a local stand-in of the IFrame Player API.
import type { Page } from '@playwright/test';
import { demoVideos } from '../../src/sim/demo-videos.ts';
import { attrOf, eventually, expect, REACT_MS, test, textOf, type Stack } from './fixtures.ts';

const startPath = /^\/media\/[^/]+\/start$/;
const finishPath = /^\/media\/[^/]+\/finish$/;
const releasePath = /^\/media\/[^/]+\/release$/;
const idOf = (path: string) => path.split('/')[2];
const ok = (e: { status: number }) => e.status === 200;

/** The widget connected and may claim (autoplay allowed, as in OBS). */
async function ready(page: Page): Promise<void> {
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
}

function queueVideo(stack: Stack, name: string, file: string, startTime = 0) {
	const demo = demoVideos.find((v) => v.file === `/demo/${file}.webm`)!;
	return stack.sim.control.model.enqueueMedia(
		{
			url: `${stack.sim.origin}${demo.file}`,
			start_time: startTime,
			title: demo.title,
			thumbnail: `${stack.sim.origin}${demo.thumbnail}`,
			duration: demo.duration
		},
		name
	);
}

const startsOf = (stack: Stack, id: string) =>
	stack.calls('POST', startPath).filter((e) => ok(e) && idOf(e.path) === id);
const finishesOf = (stack: Stack, id: string) =>
	stack.calls('POST', finishPath).filter((e) => ok(e) && idOf(e.path) === id);
const releasesOf = (stack: Stack, id: string) =>
	stack.calls('POST', releasePath).filter((e) => idOf(e.path) === id);

/** Position of the playing <video> in seconds (null when none). */
const videoTime = (page: Page) =>
	page.evaluate(() => {
		const v = document.querySelector('video');
		return v ? v.currentTime : null;
	});

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

/**
 * A local stand-in of YouTube's IFrame Player API (YouTube cannot be reached here): `YT.Player`
 * takes the page's iframe, records what it was given, and plays a clock from the embed URL's
 * `start` to the video's length, or reports an error code, as the real API's events do.
 */
const FAKE_IFRAME_API = `
(() => {
	const behaviour = window.__ytBehaviour || {};
	window.__yt = [];
	function Player(el, opts) {
		const src = new URL(el.src);
		const id = src.pathname.split('/').pop();
		const rec = { id, referrerPolicy: el.getAttribute('referrerpolicy'), origin: src.searchParams.get('origin'),
			start: Number(src.searchParams.get('start')), enablejsapi: src.searchParams.get('enablejsapi'), volume: null };
		window.__yt.push(rec);
		const b = behaviour[id] || { duration: 3 };
		let t = rec.start, state = -1, timer = null;
		const ev = opts.events || {};
		const change = (s) => { state = s; ev.onStateChange && ev.onStateChange({ data: s, target: self }); };
		const self = {
			playVideo() {
				if (b.error) { setTimeout(() => ev.onError && ev.onError({ data: b.error, target: self }), 30); return; }
				if (state === 1) return;
				change(1);
				timer = setInterval(() => { t += 0.1; if (t >= b.duration) { clearInterval(timer); t = b.duration; change(0); } }, 100);
			},
			pauseVideo() { clearInterval(timer); change(2); },
			setVolume(v) { rec.volume = v; }, unMute() {},
			getCurrentTime() { return t; }, getDuration() { return b.duration; },
			destroy() { clearInterval(timer); rec.destroyed = true; el.remove(); }
		};
		setTimeout(() => ev.onReady && ev.onReady({ target: self }), 30);
		return self;
	}
	window.YT = { Player };
	setTimeout(() => window.onYouTubeIframeAPIReady && window.onYouTubeIframeAPIReady(), 0);
})();`;

async function fakeYoutube(
	page: Page,
	behaviour: Record<string, { duration?: number; error?: number }>
) {
	await page.addInitScript((b) => {
		(window as { __ytBehaviour?: unknown }).__ytBehaviour = b;
	}, behaviour);
	await page.route('https://www.youtube.com/iframe_api', (r) =>
		r.fulfill({ contentType: 'text/javascript', body: FAKE_IFRAME_API })
	);
	await page.route('https://www.youtube.com/embed/**', (r) =>
		r.fulfill({ contentType: 'text/html', body: '<!doctype html><body style="background:#222">' })
	);
}

test('a YouTube video plays through the IFrame API from its start offset, with a referrer YouTube accepts', async ({
	page,
	stack
}) => {
	await fakeYoutube(page, { dQw4w9WgXcQ: { duration: 4 } });
	await page.goto(stack.url('/widget/media', { volume: 0.5 }));
	await ready(page);
	const item = stack.sim.control.model.enqueueMedia(
		{
			url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
			start_time: 1,
			title: 'A song',
			duration: 4
		},
		'Rick fan'
	);
	await eventually(() => finishesOf(stack, item.order_id).length === 1, 30_000);
	const [rec] = await page.evaluate(
		() => (window as unknown as { __yt: Record<string, unknown>[] }).__yt
	);
	expect(rec).toMatchObject({
		id: 'dQw4w9WgXcQ',
		referrerPolicy: 'strict-origin-when-cross-origin',
		origin: stack.origin,
		start: 1,
		enablejsapi: '1',
		volume: 50,
		destroyed: true
	});
	const played = finishesOf(stack, item.order_id)[0].t - startsOf(stack, item.order_id)[0].t;
	expect(played).toBeGreaterThanOrEqual(3000 - 300);
	expect(stack.calls('POST', releasePath)).toEqual([]);
});

test('a YouTube video that may not be embedded is released with the reason, and the queue goes on', async ({
	page,
	stack
}) => {
	await fakeYoutube(page, { aaaaaaaaaaa: { error: 150 }, bbbbbbbbbbb: { duration: 2 } });
	await page.goto(stack.url('/widget/media', { debug: 1 }));
	await ready(page);
	const blocked = stack.sim.control.model.enqueueMedia(
		{ url: 'https://youtu.be/aaaaaaaaaaa', title: 'Blocked' },
		'A'
	);
	const fine = stack.sim.control.model.enqueueMedia(
		{ url: 'https://www.youtube.com/shorts/bbbbbbbbbbb', title: 'Fine' },
		'B'
	);
	await eventually(() => finishesOf(stack, fine.order_id).length === 1, 30_000);
	expect(startsOf(stack, blocked.order_id)).toHaveLength(1);
	expect(releasesOf(stack, blocked.order_id).filter(ok)).toHaveLength(1);
	expect(finishesOf(stack, blocked.order_id)).toEqual([]);
	expect(await textOf(page, '[data-testid=media-debug]')).toContain('YouTube error 150');
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

/** Whether any script the page loaded contains the YouTube adapter (the media player's code). */
function watchScripts(page: Page): () => Promise<boolean> {
	const bodies: Promise<string>[] = [];
	page.on('response', (r) => {
		if (r.url().endsWith('.js')) bodies.push(r.text().catch(() => ''));
	});
	return async () => (await Promise.all(bodies)).some((b) => b.includes('youtube.com/iframe_api'));
}

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
