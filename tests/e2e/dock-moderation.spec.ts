// Moderation in the dock against the real token endpoint and simulator, a TTS widget in
// a second page of the same browser where it matters: a word saved in the dock's Rules holds a tip
// with it (Held, masked, the rule named; the widget never plays it), Reveal shows it as written,
// Approve has the widget read it; a No voice word has the widget show the card masked and silent;
// another dock's save does not overwrite unsaved edits; /dock#rules opens the Rules; the dock with
// held tips fits at its sizes. Pressed and read through evaluate (dock.helpers.ts says why).
import type { Page } from '@playwright/test';
import {
	atEverySize,
	cards,
	dockUrl,
	openDock,
	outcome,
	press,
	rows,
	ttsBesideDock,
	ttsFinishesOf,
	ttsStartsOf,
	wasRead
} from './dock.helpers.ts';
import { LONG_MESSAGE_UNBROKEN, LONG_NAME } from './content.ts';
import { openRules, RULES, storedRules, type } from './moderation.helpers.ts';
import { attrOf, eventually, expect, REACT_MS, test, textOf } from './fixtures.ts';

const held = (id: string) => `[data-testid=held] li[data-order="${id}"]`;

/** An element's text, its edges' white space left out ('' when absent). */
const text = async (page: Page, selector: string) => (await textOf(page, selector)).trim();

const status = (page: Page) => text(page, '[data-testid=rules-status]');

/** One word in one of the Rules' lists, saved from the dock. */
async function saveWord(page: Page, list: 'no_voice' | 'hold', word: string): Promise<void> {
	await openRules(page);
	await type(page, `textarea[data-list="words-${list}"]`, word);
	await press(page, 'button[data-action=save-rules]');
	await expect.poll(() => status(page), { timeout: REACT_MS }).toBe('saved');
}

/** Every request a page makes for a tip's rendered audio, from now on. */
function audioRequests(page: Page): string[] {
	const seen: string[] = [];
	page.on('request', (r) => {
		if (r.url().includes('/audio/')) seen.push(r.url());
	});
	return seen;
}

test('a Hold word saved in the dock holds a tip with it; Approve has the TTS widget read it', async ({
	page,
	stack
}) => {
	test.setTimeout(90_000);
	const widget = await ttsBesideDock(page, stack);
	await saveWord(page, 'hold', 'pineapple');
	expect((await storedRules(stack)).rules.words).toEqual([{ text: 'pineapple', outcome: 'hold' }]);

	const message = 'Not a pineapple, promise: read me.';
	const tip = stack.sim.control.createTip({ name: 'Held one', amount: 3, message });
	await expect.poll(() => rows(page, 'next-tips'), { timeout: REACT_MS }).toEqual([tip.order_id]);
	await expect
		.poll(() => text(page, `${held(tip.order_id)} [data-testid=rule]`), { timeout: REACT_MS })
		.toBe('held by word: pineapple');
	const masked = await text(page, `${held(tip.order_id)} [data-testid=masked]`);
	expect(masked).not.toContain('pineapple');
	expect(masked).toContain('•');
	expect(await text(page, `[data-testid=next-tips] li[data-order="${tip.order_id}"] .chip`)).toBe(
		'held'
	);
	// A tip after it plays: the held one does not block the queue.
	const after = stack.sim.control.createTip({ name: 'After', amount: 1, message: 'Me first.' });
	await eventually(() => ttsFinishesOf(stack, after.order_id).length === 1, 30_000);
	// Never played: no card, no finish. Its first start, before anyone had read it, may have been
	// granted and given straight back (the token endpoint decides from the start's answer).
	expect(ttsFinishesOf(stack, tip.order_id)).toEqual([]);
	expect(await cards(widget)).toEqual([after.order_id]);
	const startsBefore = ttsStartsOf(stack, tip.order_id).length;

	// Reveal shows it as written, Hide masks it again.
	await press(page, `${held(tip.order_id)} button[data-action=reveal]`);
	await expect
		.poll(() => text(page, `${held(tip.order_id)} [data-testid=revealed]`), {
			timeout: REACT_MS
		})
		.toBe(message);
	await press(page, `${held(tip.order_id)} button[data-action=hide]`);
	expect(await text(page, `${held(tip.order_id)} [data-testid=masked]`)).toBe(masked);

	await press(page, `${held(tip.order_id)} button[data-action=approve]`);
	await expect
		.poll(() => outcome(page, 'held'), { timeout: REACT_MS })
		.toBe('done: approved: Held one’s tip will be read');
	await wasRead(widget, tip.order_id);
	await eventually(() => ttsFinishesOf(stack, tip.order_id).length === 1, 30_000);
	expect(ttsStartsOf(stack, tip.order_id).length - startsBefore).toBe(1);
	await expect
		.poll(() => page.evaluate(() => document.querySelectorAll('[data-testid=held] li').length))
		.toBe(0);
	await expect
		.poll(() => rows(page, 'recent'), { timeout: REACT_MS })
		.toEqual([tip.order_id, after.order_id]);
});

test('a No voice word: the widget shows the card with the word masked, and plays no audio of it', async ({
	page,
	stack
}) => {
	// Every message a TTS card ever showed, by alert id (the card may be up only briefly).
	await page.context().addInitScript(() => {
		const w = window as unknown as { __messages: Record<string, string> };
		w.__messages = {};
		new MutationObserver(() => {
			for (const card of document.querySelectorAll<HTMLElement>('[data-testid=tts-alert]')) {
				const text = card.querySelector('[data-testid=tts-message]')?.textContent?.trim();
				if (text) w.__messages[card.dataset.alertId ?? '?'] = text;
			}
		}).observe(document, { subtree: true, childList: true, characterData: true });
	});
	const widget = await ttsBesideDock(page, stack);
	await saveWord(page, 'no_voice', 'rude');
	const audio = audioRequests(widget);
	const tip = stack.sim.control.createTip({ name: 'Blunt', amount: 2, message: 'You are rude.' });

	const shown = () =>
		widget.evaluate(
			(id) => (window as unknown as { __messages: Record<string, string> }).__messages[id],
			tip.order_id
		);
	await expect.poll(shown, { timeout: 20_000 }).toContain('•');
	expect(await shown()).not.toContain('rude');
	await eventually(() => ttsFinishesOf(stack, tip.order_id).length === 1, 30_000);
	expect(audio.filter((url) => url.includes(tip.order_id))).toEqual([]);
	// The dock's Recent shows it as the widget did, masked.
	await expect.poll(() => rows(page, 'recent'), { timeout: REACT_MS }).toEqual([tip.order_id]);
	const recent = await text(page, '[data-testid=recent] .text');
	expect(recent).toContain('•');
	expect(recent).not.toContain('rude');
});

test('unsaved edits in one dock stay when another dock saves; Reload rules takes the saved ones', async ({
	page,
	stack
}) => {
	await openDock(page, stack);
	await openRules(page);
	await type(page, 'textarea[data-list="names-remove"]', 'Troll');
	await expect.poll(() => status(page)).toBe('unsaved changes');

	const other = await page.context().newPage();
	await openDock(other, stack);
	await saveWord(other, 'hold', 'pineapple');
	await expect
		.poll(() => text(page, '[data-testid=rules-elsewhere]'), { timeout: REACT_MS })
		.toMatch(/^Changed elsewhere/);
	expect(
		await page.evaluate(
			() => document.querySelector<HTMLTextAreaElement>('textarea[data-list="names-remove"]')!.value
		)
	).toBe('Troll');

	await press(page, 'button[data-action=reload-rules]');
	const lists = () =>
		page.evaluate(() =>
			['names-remove', 'words-hold'].map(
				(l) => document.querySelector<HTMLTextAreaElement>(`textarea[data-list="${l}"]`)!.value
			)
		);
	await expect.poll(lists).toEqual(['', 'pineapple']);
});

test('/dock#rules opens the Rules section; /dock keeps it closed', async ({ page, stack }) => {
	const expanded = () => attrOf(page, `${RULES} h2 button`, 'aria-expanded');
	await page.goto(`${dockUrl(stack)}#rules`);
	await expect.poll(expanded, { timeout: 20_000 }).toBe('true');
	await page.goto(dockUrl(stack));
	await expect.poll(expanded, { timeout: 20_000 }).toBe('false');
});

test('the dock fits at 300x600, 500x900 and on a phone with held tips and the Rules open', async ({
	page,
	stack
}) => {
	await openDock(page, stack);
	await openRules(page);
	await page.evaluate(() => {
		const box = document.querySelector<HTMLInputElement>('input[data-field=hold-every]')!;
		box.click();
	});
	await type(
		page,
		'textarea[data-list="words-no_voice"]',
		`averyveryveryverylongwordthatdoesnotwrapanywhereatallreally\nrude`
	);
	await press(page, 'button[data-action=save-rules]');
	await expect.poll(() => status(page), { timeout: REACT_MS }).toBe('saved');
	const NAME_100 = 'Averyveryverylongname'.repeat(5).slice(0, 100);
	const tips = [
		stack.sim.control.createTip({
			name: NAME_100,
			amount: 99999.99,
			message: `rude ${LONG_MESSAGE_UNBROKEN}`
		}),
		stack.sim.control.createTip({ name: LONG_NAME, amount: 5, message: 'Short one.' }),
		stack.sim.control.createTip({ name: 'Quiet', amount: null, message: null })
	];
	await expect
		.poll(() => page.evaluate(() => document.querySelectorAll('[data-testid=held] li').length), {
			timeout: REACT_MS
		})
		.toBe(3);
	await press(page, `${held(tips[0].order_id)} button[data-action=reveal]`);
	await expect
		.poll(() => text(page, `${held(tips[0].order_id)} [data-testid=revealed]`), {
			timeout: REACT_MS
		})
		.toContain('rude');
	expect(await atEverySize(page, 'held tips and rules')).toEqual([]);
});
