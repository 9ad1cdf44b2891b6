// Moderation as the TTS widget obeys it, in the three engines: the rules are saved as
// the dock saves them (PUT /control/moderation with the control key) while the widget pages stay
// open. A tip with a blocked word shows in every copy without any sound and with the word masked,
// and the word never reaches a page's screen; a held tip is passed over, the next one plays, and
// it is read once after Approve; a rule saved while a source is open applies to its next tip.
import type { Page } from '@playwright/test';
import {
	cards,
	fast,
	sounding,
	ttsFinishesOf,
	ttsReady,
	ttsStartsOf,
	wasRead,
	watchPlayback
} from './dock.helpers.ts';
import { eventually, expect, test, type Stack } from './fixtures.ts';
import { control, saveRules } from './moderation.helpers.ts';

/** A TTS widget page whose every played sound, shown card and seen text is recorded. */
async function widget(page: Page, stack: Stack, params: Record<string, string | number> = {}) {
	await watchPlayback(page);
	// Everything ever rendered as text, so a word shown even for one frame is caught.
	await page.addInitScript(() => {
		const w = window as unknown as { __text: string; __played: string[] };
		w.__text = '';
		w.__played = [];
		const play = HTMLMediaElement.prototype.play;
		HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
			w.__played.push(this.currentSrc || this.src);
			return play.call(this);
		};
		new MutationObserver(() => {
			w.__text += '\n' + (document.body?.textContent ?? '');
		}).observe(document, { subtree: true, childList: true, characterData: true });
	});
	await page.goto(stack.url('/widget/tts', { ...fast, ...params }));
	await ttsReady(page);
	return page;
}
/** Every source the page ever started to play. */
const everPlayed = (page: Page) =>
	page.evaluate(() => (window as unknown as { __played: string[] }).__played);
const everShown = (page: Page) =>
	page.evaluate(() => (window as unknown as { __text: string }).__text);

test('a blocked word: the card shows without a sound and the word masked, in every copy', async ({
	page,
	stack
}) => {
	await saveRules(stack, { words: [{ text: 'rude', outcome: 'no_voice' }] });
	const reader = await widget(page, stack, { claim: 'always' });
	const spectator = await widget(await page.context().newPage(), stack, { claim: 'never' });
	const tip = stack.sim.control.createTip({
		name: 'Masked',
		amount: 3,
		message: 'you are R.U.D.E today'
	});
	await eventually(() => ttsFinishesOf(stack, tip.order_id).length === 1);
	expect(await cards(reader)).toContain(tip.order_id);
	for (const p of [reader, spectator]) {
		const seen = await everShown(p);
		expect(seen).toContain('Masked');
		expect(seen).not.toMatch(/R\.U\.D\.E/);
		// (An element with no source is the audio unlock's, not a sound.)
		expect((await sounding(p)).filter(Boolean)).toEqual([]);
	}
	expect(await everShown(reader)).toMatch(/you are •+ today/);
	// Not a sound: neither its voice nor an alert sound was started in any copy.
	for (const p of [reader, spectator]) expect((await everPlayed(p)).filter(Boolean)).toEqual([]);
});

test('a held tip lets the next one play, and is read once after Approve', async ({
	page,
	stack
}) => {
	await saveRules(stack, { fromAmount: { amount: 50, outcome: 'hold' } });
	const reader = await widget(page, stack);
	const held = stack.sim.control.createTip({ name: 'Big', amount: 100, message: 'Held back.' });
	const next = stack.sim.control.createTip({ name: 'Small', amount: 1, message: 'Me first.' });
	await eventually(() => ttsFinishesOf(stack, next.order_id).length === 1);
	expect(await cards(reader)).not.toContain(held.order_id);
	expect(await everShown(reader)).not.toContain('Held back.');

	expect(ttsFinishesOf(stack, held.order_id)).toEqual([]);
	// Its first start, before anyone had read it, may have been granted and given straight back
	// (the token endpoint decides from the start's answer): it was never played.
	const startsBefore = ttsStartsOf(stack, held.order_id).length;
	const approved = await control(stack, 'POST', '/moderation/approve', {
		order_id: held.order_id
	});
	expect(approved.outcome).toBe('done');
	await wasRead(reader, held.order_id);
	await eventually(() => ttsFinishesOf(stack, held.order_id).length === 1);
	expect(ttsStartsOf(stack, held.order_id).length - startsBefore).toBe(1);
});

test('a rule saved while the source is open applies to its next tip, without a reload', async ({
	page,
	stack
}) => {
	const reader = await widget(page, stack);
	const before = stack.sim.control.createTip({ name: 'One', amount: 2, message: 'hello friend' });
	await wasRead(reader, before.order_id);
	await eventually(() => ttsFinishesOf(stack, before.order_id).length === 1);
	await saveRules(stack, { words: [{ text: 'friend', outcome: 'no_voice' }] });
	const after = stack.sim.control.createTip({ name: 'Two', amount: 2, message: 'bye friend' });
	await eventually(() => ttsFinishesOf(stack, after.order_id).length === 1);
	expect(await cards(reader)).toContain(after.order_id);
	expect(await everShown(reader)).toMatch(/bye •+/);
	expect((await everPlayed(reader)).filter((src) => src.includes(after.order_id))).toEqual([]);
});
