// What the media widget's e2e tests (media*.spec.ts) share: the claim calls seen by the
// simulator, queueing a demo video, and reading the player's state in the page.
import type { Page } from '@playwright/test';
import { demoVideos } from '../../src/sim/demo-videos.ts';
import { attrOf, expect, type Stack } from './fixtures.ts';

export const startPath = /^\/media\/[^/]+\/start$/;

export const finishPath = /^\/media\/[^/]+\/finish$/;

export const releasePath = /^\/media\/[^/]+\/release$/;

export const idOf = (path: string) => path.split('/')[2];

export const ok = (e: { status: number }) => e.status === 200;

/** The widget connected and may claim (autoplay allowed, as in OBS). */
export async function ready(page: Page): Promise<void> {
	await expect
		.poll(() => attrOf(page, '[data-testid=media-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
}

export function queueVideo(stack: Stack, name: string, file: string, startTime = 0) {
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

export const startsOf = (stack: Stack, id: string) =>
	stack.calls('POST', startPath).filter((e) => ok(e) && idOf(e.path) === id);

export const finishesOf = (stack: Stack, id: string) =>
	stack.calls('POST', finishPath).filter((e) => ok(e) && idOf(e.path) === id);

export const releasesOf = (stack: Stack, id: string) =>
	stack.calls('POST', releasePath).filter((e) => idOf(e.path) === id);

/** Position of the playing <video> in seconds (null when none). */
export const videoTime = (page: Page) =>
	page.evaluate(() => {
		const v = document.querySelector('video');
		return v ? v.currentTime : null;
	});

/**
 * A local stand-in of YouTube's IFrame Player API (YouTube cannot be reached here): `YT.Player`
 * takes the page's iframe, records what it was given, and plays a clock from the embed URL's
 * `start` to the video's length, or reports an error code, as the real API's events do.
 */
export const FAKE_IFRAME_API = `

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

export async function fakeYoutube(
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

/** Whether any script the page loaded contains the YouTube adapter (the media player's code). */
export function watchScripts(page: Page): () => Promise<boolean> {
	const bodies: Promise<string>[] = [];
	page.on('response', (r) => {
		if (r.url().endsWith('.js')) bodies.push(r.text().catch(() => ''));
	});
	return async () => (await Promise.all(bodies)).some((b) => b.includes('youtube.com/iframe_api'));
}
