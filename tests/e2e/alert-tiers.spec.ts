// Alert tiers in real Chromium engines against the simulator: each tip gets its tier's
// look and sound, the sound before the speech and inside the claim (each tip started and finished
// once), a sound that fails or hangs never holds the speech or the queue, a celebrating tier fires
// the celebration source, and the preview builds the parameters with a live sample per tier.
import type { Page } from '@playwright/test';
import { attrOf, eventually, expect, test, textOf } from './fixtures.ts';

const fast = { min_display: 0, gap: 0 };
const startPath = /^\/tts\/[^/]+\/start$/;
const finishPath = /^\/tts\/[^/]+\/finish$/;
const idOf = (path: string) => path.split('/')[2];

/** Records every media play() (howler's <audio> elements) and every alert card shown. */
async function record(page: Page): Promise<void> {
	await page.addInitScript(() => {
		const w = window as unknown as {
			__plays: string[];
			__cards: Record<string, string>;
		};
		w.__plays = [];
		w.__cards = {};
		const play = HTMLMediaElement.prototype.play;
		HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
			w.__plays.push(this.currentSrc || this.src);
			return play.call(this);
		};
		new MutationObserver(() => {
			for (const card of document.querySelectorAll<HTMLElement>('[data-testid=tts-alert]'))
				w.__cards[card.dataset.alertId ?? '?'] = `${card.dataset.tier}/${card.dataset.look}`;
		}).observe(document, { subtree: true, childList: true, attributes: true });
	});
}

const plays = (page: Page) =>
	page.evaluate(() => (window as unknown as { __plays: string[] }).__plays);
const cards = (page: Page) =>
	page.evaluate(() => (window as unknown as { __cards: Record<string, string> }).__cards);

async function ready(page: Page, selector: string): Promise<void> {
	await expect.poll(() => attrOf(page, selector, 'data-status'), { timeout: 20_000 }).toBe('ready');
}

test('tips of 5, 25 and 150 get their tier: look, sound before speech, once each; 150 celebrates', async ({
	page,
	stack
}) => {
	await record(page);
	// A celebration source beside the TTS source, in the same browser (as in OBS).
	const party = await page.context().newPage();
	await party.goto(stack.url('/widget/celebration', { duration: 1 }));
	await page.goto(stack.url('/widget/tts', fast));
	await ready(page, '[data-testid=tts-widget]');
	await ready(party, '[data-testid=celebration-widget]');

	const tips = [5, 25, 150].map((amount) =>
		stack.sim.control.createTip({ name: `Tier ${amount}`, amount, message: `Tip of ${amount}.` })
	);
	await eventually(() => stack.calls('POST', finishPath).length === 3, 60_000);

	const ok = (e: { status: number }) => e.status === 200;
	expect(
		stack
			.calls('POST', startPath)
			.filter(ok)
			.map((e) => idOf(e.path))
	).toEqual(tips.map((t) => t.order_id));
	expect(
		stack
			.calls('POST', finishPath)
			.filter(ok)
			.map((e) => idOf(e.path))
	).toEqual(tips.map((t) => t.order_id));
	expect(stack.calls('POST', /\/release$/)).toEqual([]);

	// Each tier's sound, then that tip's speech, in order.
	const heard = (await plays(page))
		.map((src) => /\/sounds\/(\w+)\.wav$/.exec(src)?.[1] ?? /\/audio\/([^/.]+)\.wav/.exec(src)?.[1])
		.filter(Boolean);
	expect(heard).toEqual([
		'pop',
		tips[0].order_id,
		'coin',
		tips[1].order_id,
		'fanfare',
		tips[2].order_id
	]);
	expect(await cards(page)).toEqual({
		[tips[0].order_id]: 'base/classic',
		[tips[1].order_id]: 'tier1/gold',
		[tips[2].order_id]: 'tier3/ember'
	});
	// Only the 150 tip celebrates.
	await expect
		.poll(() => attrOf(party, '[data-testid=celebration-widget]', 'data-fired'))
		.toBe('1');
});

test('a sound that fails or hangs is skipped: the speech plays and the queue goes on', async ({
	page,
	stack
}) => {
	await record(page);
	await page.route('https://sounds.invalid/missing.wav', (route) => route.fulfill({ status: 404 }));
	await page.route('https://sounds.invalid/hang.wav', () => {
		// Never answered: a download that stalls.
	});
	await page.goto(
		stack.url('/widget/tts', {
			...fast,
			sound: 'https://sounds.invalid/missing.wav',
			tier1_from: 10,
			tier1_sound: 'https://sounds.invalid/hang.wav',
			debug: 1
		})
	);
	await ready(page, '[data-testid=tts-widget]');
	const tips = [5, 20].map((amount) =>
		stack.sim.control.createTip({ name: `Broken ${amount}`, amount, message: 'Still heard.' })
	);
	await eventually(() => stack.calls('POST', finishPath).length === 2, 60_000);
	expect(stack.calls('POST', /\/release$/)).toEqual([]);
	const speech = (await plays(page)).filter((src) => src.includes('/audio/'));
	expect(speech.map((src) => /\/audio\/([^/.]+)\.wav/.exec(src)?.[1])).toEqual(
		tips.map((t) => t.order_id)
	);
	expect(await textOf(page, '[data-testid=tts-debug]')).toContain('alert sound skipped');
});

test('a tier URL that cannot work shows a card naming the parameter', async ({ page, stack }) => {
	await page.goto(
		stack.url('/widget/tts', { tier2_look: 'gold', tier1_from: 5, tier1_sound: 'boom' })
	);
	const text = await textOf(page, '[data-testid=tts-widget]');
	expect(text).toContain('This overlay URL needs fixing');
	expect(text).toContain('tier1_sound');
});

test('the preview builds tier parameters with a live sample of each tier', async ({
	page,
	stack
}) => {
	await page.goto(stack.url('/preview'));
	const section = '[data-testid=alert-tiers]';
	await expect
		.poll(() => page.evaluate(() => document.querySelectorAll('[data-testid=tier-row]').length))
		.toBe(4);
	const params = await textOf(page, '[data-testid=tier-params]');
	expect(params).toContain('tier1_from=10');
	expect(params).toContain('tier3_celebrate=1');
	// Each row's frame is the TTS page showing that tier's sample.
	const looks = async () => {
		const out: string[] = [];
		for (const frame of page.frames()) {
			const url = frame.url();
			if (!url.includes('sample_') || !url.includes('tier1_from')) continue;
			out.push(
				await frame
					.evaluate(
						() => document.querySelector<HTMLElement>('[data-testid=tts-alert]')?.dataset.look ?? ''
					)
					.catch(() => '')
			);
		}
		return out.sort();
	};
	await page.evaluate((s) => document.querySelector(s)?.scrollIntoView(), section);
	await expect.poll(looks, { timeout: 20_000 }).toEqual(['classic', 'ember', 'gold', 'neon']);

	// Emptying a tier's amount is refused by the widget's own rules, named.
	await page.evaluate(() => {
		const input = document.querySelector<HTMLInputElement>('input[name=tier2_from]')!;
		input.value = '';
		input.dispatchEvent(new Event('input', { bubbles: true }));
	});
	await expect
		.poll(() => textOf(page, '[data-testid=tier-errors]'))
		.toContain('tier2 needs tier2_from');
});
