// Moderation as the media widget obeys it, in the three engines: the rules are saved as the dock
// saves them (PUT /control/moderation with the control key) while the widget pages stay open. A
// held tip's video is never played, and nothing of it (its title) reaches a page's screen, while
// the next video plays; after Approve it plays once. A video whose title has a blocked word is
// held by itself, and a removed one never shows.
import type { Page } from '@playwright/test';
import { eventually, expect, test, type Stack } from './fixtures.ts';
import { finishesOf, ready, startsOf } from './media.helpers.ts';
import { control, saveRules, tipWithVideo } from './moderation.helpers.ts';

/** A media widget page that records every text it ever rendered and every video it loaded. */
async function widget(page: Page, stack: Stack, params: Record<string, string> = {}) {
	await page.addInitScript(() => {
		const w = window as unknown as { __text: string; __videos: string[] };
		w.__text = '';
		w.__videos = [];
		new MutationObserver(() => {
			w.__text += '\n' + (document.body?.textContent ?? '');
			for (const v of document.querySelectorAll('video'))
				if (v.src && !w.__videos.includes(v.src)) w.__videos.push(v.src);
		}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
	});
	await page.goto(stack.url('/widget/media', params));
	await ready(page);
	return page;
}
const everShown = (page: Page) =>
	page.evaluate(() => (window as unknown as { __text: string }).__text);
const everLoaded = (page: Page) =>
	page.evaluate(() => (window as unknown as { __videos: string[] }).__videos);

test('a held tip’s video never plays in any copy while the next one does, and plays once after Approve', async ({
	page,
	stack
}) => {
	await saveRules(stack, { fromAmount: { amount: 50, outcome: 'hold' } });
	const player = await widget(page, stack);
	const spectator = await widget(await page.context().newPage(), stack, { claim: 'never' });
	const held = tipWithVideo(stack, { name: 'Big', amount: 100 }, 'countdown');
	const next = tipWithVideo(stack, { name: 'Small', amount: 5 }, 'bars');
	await eventually(() => finishesOf(stack, next.order_id).length === 1, 40_000);
	expect(finishesOf(stack, held.order_id)).toEqual([]);
	for (const p of [player, spectator]) {
		expect(await everShown(p)).not.toContain('Countdown 5 to 0');
		expect((await everLoaded(p)).some((src) => src.includes('countdown'))).toBe(false);
	}
	expect(await everShown(player)).toContain('Bars and tone');

	// A first start, before anyone had read it, may have been granted and given straight back.
	const startsBefore = startsOf(stack, held.order_id).length;
	expect(
		(await control(stack, 'POST', '/moderation/approve', { order_id: held.order_id })).outcome
	).toBe('done');
	await eventually(() => finishesOf(stack, held.order_id).length === 1, 40_000);
	expect(startsOf(stack, held.order_id).length - startsBefore).toBe(1);
	expect(await everShown(player)).toContain('Countdown 5 to 0');
});

test('a blocked word in a title holds the video by itself; a removed video never shows', async ({
	page,
	stack
}) => {
	await saveRules(stack, {
		videos: {
			words: [{ text: 'countdown', outcome: 'hold' }],
			links: [{ text: `${new URL(stack.sim.origin).host}/demo/bounce.webm`, outcome: 'remove' }]
		}
	});
	const player = await widget(page, stack);
	const titled = tipWithVideo(stack, { name: 'Ada', amount: 5 }, 'countdown');
	const removed = tipWithVideo(stack, { name: 'Bob', amount: 5 }, 'bounce');
	const fine = tipWithVideo(stack, { name: 'Cy', amount: 5 }, 'bars');
	await eventually(() => finishesOf(stack, fine.order_id).length === 1, 40_000);
	await eventually(() => stack.sim.control.model.media.find(removed.order_id) === undefined);
	const shown = await everShown(player);
	expect(shown).not.toContain('Countdown 5 to 0');
	expect(shown).not.toContain('Bouncing ball');
	expect(finishesOf(stack, titled.order_id)).toEqual([]);
	// Approving the tip leaves a video held by its own rule held; approving the video plays it.
	await control(stack, 'POST', '/moderation/approve', { order_id: titled.order_id });
	await control(stack, 'POST', '/moderation/approve', {
		order_id: titled.order_id,
		queue: 'media'
	});
	await eventually(() => finishesOf(stack, titled.order_id).length === 1, 40_000);
});
