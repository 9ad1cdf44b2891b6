// What the dock's e2e tests share (dock.spec.ts: the dock page; dock-effects.spec.ts: the actions'
// effects on the widgets): the playback a widget page shows and sounds, the simulator's claim log,
// a dock action from the test process, and the dock page read and pressed through evaluate (in
// Chromium 103 Playwright's click() and toBeVisible() fail on the missing checkVisibility).
import type { Page } from '@playwright/test';
import { LONG_MESSAGE_UNBROKEN, LONG_NAME, queueVideo as queueLongVideo } from './content.ts';
import { attrOf, eventually, expect, REACT_MS, test, type Stack } from './fixtures.ts';
import { layoutProblems } from './layout.ts';
import { queueVideo } from './media.helpers.ts';

/** TTS widget parameters: no minimum display, no gap between alerts. */
export const fast = { min_display: 0, gap: 0 };

/** docs/dock.md's bound: a skip stops the playing widget within half a second. */
export const SKIP_DEADLINE_MS = 500;

/** Long enough to be still reading when the dock acts (spoken by espeak-ng, or a tone as long). */
export const LONG =
	'This message is long on purpose: it is still being read aloud when the streamer presses a ' +
	'button in the dock, a good while after it started.';

const ttsStart = /^\/tts\/[^/]+\/start$/;
const ttsFinish = /^\/tts\/[^/]+\/finish$/;
const idOf = (path: string) => path.split('/')[2];
const ok = (e: { status: number }) => e.status === 200;

/** Every TTS claim asked of the simulator (POST /tts/:id/start), granted or refused. */
export const ttsStarts = (stack: Stack) => stack.calls('POST', ttsStart);
/** Every TTS finish asked of the simulator (POST /tts/:id/finish). */
export const ttsFinishes = (stack: Stack) => stack.calls('POST', ttsFinish);
/** The granted claims of one tip. */
export const ttsStartsOf = (stack: Stack, id: string) =>
	ttsStarts(stack).filter((e) => ok(e) && idOf(e.path) === id);
/** The accepted finishes of one tip: it played to its end. */
export const ttsFinishesOf = (stack: Stack, id: string) =>
	ttsFinishes(stack).filter((e) => ok(e) && idOf(e.path) === id);

export interface ActionAnswer {
	status: number;
	body: { outcome?: string; code?: string; message?: string; error?: string };
}

/** A dock action from the test process: POST /control/actions/:action with the control key. */
export async function controlAction(
	stack: Stack,
	action: string,
	orderId?: string
): Promise<ActionAnswer> {
	const res = await fetch(`${stack.origin}/control/actions/${action}`, {
		method: 'POST',
		headers: { 'x-control-key': stack.controlKey, 'content-type': 'application/json' },
		body: orderId === undefined ? undefined : JSON.stringify({ order_id: orderId })
	});
	return { status: res.status, body: (await res.json()) as ActionAnswer['body'] };
}

/**
 * The one replay the simulator made (`queue.tts.replayed`) played exactly once: a tip after it
 * closes the window, so once that has played, the replay had every chance to repeat. Answers the
 * replay's order id and the later tip's.
 */
export async function replayedOnce(stack: Stack): Promise<{ replay: string; after: string }> {
	const replays = stack.sim.control.log.events('queue.tts.replayed');
	expect(replays).toHaveLength(1);
	const replay = replays[0].order_id!;
	const after = stack.sim.control.createTip({ name: 'After', amount: 1, message: 'After it.' });
	await eventually(() => ttsFinishesOf(stack, after.order_id).length === 1, 60_000);
	expect(ttsStartsOf(stack, replay)).toHaveLength(1);
	expect(ttsFinishesOf(stack, replay)).toHaveLength(1);
	return { replay, after: after.order_id };
}

// --- a widget page's playback ---

/**
 * Before the page's first script: remembers every media element the page plays (howler's <audio>,
 * the media widget's <video>, attached or not) and every TTS alert card shown, so the test can ask
 * what sounds now (`__sounding`), what ever sounded (`__heard`) and which tips were ever on screen
 * (`__cards`).
 */
export async function watchPlayback(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const w = window as unknown as {
			__sounding: () => string[];
			__heard: string[];
			__cards: string[];
		};
		const played = new Set<HTMLMediaElement>();
		w.__heard = [];
		const play = HTMLMediaElement.prototype.play;
		HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
			if (!played.has(this))
				this.addEventListener('playing', () => w.__heard.push(this.currentSrc || this.src));
			played.add(this);
			return play.call(this);
		};
		w.__sounding = () =>
			[...played].filter((el) => !el.paused && !el.ended).map((el) => el.currentSrc || el.src);
		w.__cards = [];
		new MutationObserver(() => {
			for (const card of document.querySelectorAll<HTMLElement>('[data-testid=tts-alert]')) {
				const id = card.dataset.alertId ?? '?';
				if (!w.__cards.includes(id)) w.__cards.push(id);
			}
		}).observe(document, { subtree: true, childList: true, attributes: true });
	});
}

export const sounding = (page: Page) =>
	page.evaluate(() => (window as unknown as { __sounding: () => string[] }).__sounding());

export const cards = (page: Page) =>
	page.evaluate(() => (window as unknown as { __cards: string[] }).__cards);

export async function ttsReady(page: Page): Promise<void> {
	await expect
		.poll(() => attrOf(page, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
}

/** The page reads this tip's own audio now (not only its alert sound). */
export async function reading(page: Page, orderId: string): Promise<void> {
	await expect
		.poll(async () => (await sounding(page)).some((src) => src.includes(`/audio/${orderId}`)), {
			timeout: 20_000
		})
		.toBe(true);
}

/**
 * The page has read this tip's own audio, now or at any moment since it loaded: for a tip whose
 * short message may be over before the test looks (`reading` asks for the moment itself).
 */
export async function wasRead(page: Page, orderId: string): Promise<void> {
	await expect
		.poll(
			() =>
				page.evaluate(
					(id) =>
						(window as unknown as { __heard: string[] }).__heard.some((src) =>
							src.includes(`/audio/${id}`)
						),
					orderId
				),
			{ timeout: 20_000 }
		)
		.toBe(true);
}

/**
 * Starts watching, in the widget's page, for the moment (Date.now(), the browser's clock) no media
 * element playing `src` sounds any more; `silentAt` reads it (null until then). Throws unless
 * `src` sounds when the watch starts, so a moment found is always after it.
 */
async function watchSilence(page: Page, src: string): Promise<void> {
	const armed = await page.evaluate((src) => {
		const w = window as unknown as { __sounding: () => string[]; __silentAt: number | null };
		const sounds = () => w.__sounding().some((playing) => playing.includes(src));
		w.__silentAt = null;
		if (!sounds()) return false;
		const tick = () => {
			if (sounds()) setTimeout(tick, 5);
			else w.__silentAt = Date.now();
		};
		tick();
		return true;
	}, src);
	if (!armed) throw new Error(`${src} does not sound: nothing to watch`);
}

const silentAt = (page: Page) =>
	page.evaluate(() => (window as unknown as { __silentAt: number | null }).__silentAt);

// --- the dock page ---

/** A TTS widget (fast alerts, its playback watched) in a second page of the browser, ready, and
 *  the dock open in `page`: what the tests of the dock's effect on a widget start from. */
export async function ttsBesideDock(page: Page, stack: Stack): Promise<Page> {
	const widget = await page.context().newPage();
	await watchPlayback(widget);
	await widget.goto(stack.url('/widget/tts', fast));
	await ttsReady(widget);
	await openDock(page, stack);
	return widget;
}

export const dockUrl = (stack: Stack, key = stack.controlKey) =>
	`${stack.origin}/dock?key=${encodeURIComponent(key)}`;

/** Opens the dock and waits until it is connected and has read every state it shows. */
export async function openDock(page: Page, stack: Stack): Promise<void> {
	await page.goto(dockUrl(stack));
	await expect
		.poll(() => attrOf(page, '[data-testid=dock]', 'data-connection'), { timeout: 20_000 })
		.toBe('open');
	await expect.poll(() => page.evaluate(everyStateRead), { timeout: REACT_MS }).toBe(true);
}

/** In the page: the controls show their states and Recent has been read. */
function everyStateRead(): boolean {
	const controls = [...document.querySelectorAll('[data-testid=control]')];
	const recent = document.querySelector('[data-testid=recent]')?.textContent ?? '';
	return (
		controls.length === 4 &&
		controls.every((c) => c.hasAttribute('data-state')) &&
		!/^\s*Recent\s*…\s*$/.test(recent)
	);
}

/** Buttons of the dock by what they act on. */
export const BUTTON = {
	skip: (q: 'tts' | 'media') => `[data-testid=now-${q}] button[data-action=${q}-skip]`,
	control: (id: string) => `[data-control="${id}"] button`,
	remove: (id: string) => `[data-testid=up-next] li[data-order="${id}"] button`,
	replay: (id: string) => `[data-testid=recent] li[data-order="${id}"] button`
};

/**
 * Presses a dock button as a user does, once it is there and enabled (a click() in the page: no
 * checkVisibility in Chromium 103). Answers the moment of the press (Date.now(), the browser's
 * clock). `times`: clicks in one go, as a double click lands before the page can react.
 */
export async function press(page: Page, selector: string, times = 1): Promise<number> {
	const enabled = () =>
		page.evaluate((sel) => {
			const b = document.querySelector<HTMLButtonElement>(sel);
			return b ? !b.disabled : null;
		}, selector);
	await expect.poll(enabled, { timeout: REACT_MS, message: `${selector} enabled` }).toBe(true);
	return page.evaluate(
		([sel, n]) => {
			const b = document.querySelector<HTMLButtonElement>(sel)!;
			const at = Date.now();
			for (let i = 0; i < n; i++) b.click();
			return at;
		},
		[selector, times] as const
	);
}

/** The outcome beside a button, as `kind: text` ('' when none shows). */
export const outcome = (page: Page, id: string) =>
	page.evaluate((id) => {
		const o = document.querySelector<HTMLElement>(`[data-testid=outcome][data-for="${id}"]`);
		const text = o?.textContent?.trim();
		return text ? `${o!.dataset.kind}: ${text}` : '';
	}, id);

/** A control's state and its button, as the streamer reads them: `Paused · Resume`. */
export const control = (page: Page, id: string) =>
	page.evaluate((id) => {
		const row = document.querySelector(`[data-control="${id}"]`);
		const state = row?.querySelector('.state')?.textContent?.trim();
		return `${state} · ${row?.querySelector('button')?.textContent?.trim()}`;
	}, id);

/** The order id Now playing shows for a queue (null when nothing plays). */
export const nowPlaying = (page: Page, q: 'tts' | 'media') =>
	attrOf(page, `[data-testid=now-${q}]`, 'data-order');

/** The order ids of a list's rows: Up next's tips or videos, or Recent's. */
export const rows = (page: Page, list: 'next-tips' | 'next-videos' | 'recent') =>
	page.evaluate(
		(sel) => [...document.querySelectorAll<HTMLElement>(sel)].map((li) => li.dataset.order!),
		list === 'recent' ? '[data-testid=recent] li' : `[data-testid=${list}] li`
	);

// --- a full dock ---

/** The dock's sizes: OBS docks narrow and tall, and a phone. */
export const SIZES = [
	{ width: 300, height: 600 },
	{ width: 500, height: 900 },
	{ width: 390, height: 844 } // a phone
] as const;
/** The dock's rules (layout.ts): it scrolls; text of 13 px at least, buttons of 32 px. */
const RULES = { scrolls: true, minTextPx: 13, minButtonPx: 32 };

/** Lets the page lay out after a change (two frames, then a moment). */
export async function settled(page: Page): Promise<void> {
	await page.evaluate(
		() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
	);
	await page.waitForTimeout(250);
}

/** What does not fit (or breaks RULES) at each of SIZES, labelled. */
export async function atEverySize(page: Page, label: string): Promise<string[]> {
	const problems: string[] = [];
	for (const size of SIZES) {
		await page.setViewportSize(size);
		await settled(page);
		for (const p of await layoutProblems(page, RULES))
			problems.push(`${label} at ${size.width}x${size.height}: ${p}`);
	}
	return problems;
}

/** A dock full of content, as fillDock made it, shown. */
export async function fullDock(page: Page, stack: Stack): Promise<void> {
	const { playingTip, playingVideo } = fillDock(stack);
	await openDock(page, stack);
	await expect.poll(() => nowPlaying(page, 'tts')).toBe(playingTip);
	await expect.poll(() => nowPlaying(page, 'media')).toBe(playingVideo);
	await expect.poll(async () => (await rows(page, 'next-tips')).length).toBe(15);
	await expect.poll(async () => (await rows(page, 'next-videos')).length).toBe(3);
	await expect.poll(async () => (await rows(page, 'recent')).length).toBe(3);
}

/** 500 characters, with a word no line can hold. */
const MESSAGE_500 = (LONG_MESSAGE_UNBROKEN + ' ' + LONG_MESSAGE_UNBROKEN).slice(0, 500);
/** Viewer text that looks like markup: the dock must show its characters. */
export const MARKUP = {
	name: '<img data-injected src=x>',
	message: '<b>x</b> & <i data-injected>y</i>'
};
const RTL = [
	{ name: 'مريم الحربي', message: 'شكرا على البث الرائع! هذه رسالة طويلة باللغة العربية للتجربة.' },
	{ name: 'נועה', message: 'תודה רבה על השידור, ממשיכים ככה!' }
];
const NAME_100 = 'Averyveryverylongname'.repeat(5).slice(0, 100);

/**
 * Fills the simulator as a busy stream would (nothing claims: the queues stay as made): history,
 * a tip and a video playing, and many tips and videos queued, with long names, a 500-character
 * message, right-to-left text and markup-looking text.
 */
function fillDock(stack: Stack): { playingTip: string; playingVideo: string } {
	const m = stack.sim.control.model;
	for (const [i, name] of ['Early bird', LONG_NAME].entries()) {
		const tip = m.createTip({ name, amount: 2 + i, message: i ? MESSAGE_500 : 'First!' });
		m.start('tts', tip.order_id);
		m.finish('tts', tip.order_id);
	}
	const played = queueVideo(stack, NAME_100, 'bars');
	m.start('media', played.order_id);
	m.finish('media', played.order_id);

	const playing = m.createTip({ name: NAME_100, amount: 1234.5, message: MESSAGE_500 });
	m.start('tts', playing.order_id);
	const video = queueLongVideo(
		stack,
		'An extremely long video title that keeps going well past any dozen characters, and then more'
	);
	m.start('media', video.order_id);

	m.createTip({ ...MARKUP, amount: 5 });
	for (const rtl of RTL) m.createTip({ ...rtl, amount: 7 });
	m.createTip({ name: NAME_100, amount: 99999.99, message: MESSAGE_500 });
	m.createTip({ name: 'Quiet', amount: null, message: null });
	for (let i = 1; i <= 10; i++)
		m.createTip({ name: `${LONG_NAME}${i}`, amount: i, message: `Tip number ${i}.` });
	for (const file of ['bounce', 'countdown', 'bars']) queueVideo(stack, NAME_100, file);
	return { playingTip: playing.order_id, playingVideo: video.order_id };
}

// --- Skip, pressed in the dock, heard in the widget ---

/** Records how long a press took to silence the widget (an annotation, for the reader). */
function note(what: string, ms: number): void {
	test.info().annotations.push({ type: what, description: `${ms} ms` });
}

/**
 * Presses Skip in the dock while the widget plays `src`: how many milliseconds after the press
 * the widget fell silent (both moments read on the browser's clock).
 */
export async function skipInDock(
	dock: Page,
	widget: Page,
	q: 'tts' | 'media',
	src: string
): Promise<number> {
	await watchSilence(widget, src);
	const pressedAt = await press(dock, BUTTON.skip(q));
	let silent: number | null = null;
	await expect
		.poll(async () => (silent = await silentAt(widget)), { timeout: REACT_MS })
		.not.toBeNull();
	const ms = silent! - pressedAt;
	note(`${q} skip to silence`, ms);
	return ms;
}
