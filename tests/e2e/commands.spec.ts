// Chat commands in real Chromium engines against the simulator: the kit's commands turned on
// through /control/commands (the dock's Commands section's call), then typed in the demo preview's
// chat box. A moderator's !skip stops the tip the TTS widget is reading, once; a viewer's skips
// nothing (the upstream refuses it); a moderator's !approve plays the held tip of that name once.
import type { Page } from '@playwright/test';
import {
	fast,
	LONG,
	ttsFinishesOf,
	ttsReady,
	ttsStartsOf,
	wasRead,
	watchPlayback
} from './dock.helpers.ts';
import { eventually, expect, test, textOf, type Stack } from './fixtures.ts';
import { saveRules } from './moderation.helpers.ts';

async function turnOn(stack: Stack, command: string): Promise<void> {
	const res = await fetch(`${stack.origin}/control/commands/${command}`, {
		method: 'POST',
		headers: { 'x-control-key': stack.controlKey, 'content-type': 'application/json' },
		body: JSON.stringify({ on: true })
	});
	expect(res.status).toBe(200);
}

/**
 * The preview's chat box: a line typed as `as`, sent, and what the chat made of it. Set and sent in
 * the page, as typing does (Chromium 103's Playwright cannot fill or click: no checkVisibility).
 */
async function type(preview: Page, line: string, as: 'viewer' | 'moderator'): Promise<string> {
	const answered = preview.waitForResponse((r) => r.url().includes('/demo/chat-line'));
	await preview.evaluate(
		([line, as]) => {
			const box = document.querySelector<HTMLFormElement>('[data-testid=demo-chat-line]')!;
			const input = box.querySelector<HTMLInputElement>('[data-testid=demo-chat-input]')!;
			const who = box.querySelector<HTMLSelectElement>('[data-testid=demo-chat-as]')!;
			input.value = line;
			input.dispatchEvent(new Event('input', { bubbles: true }));
			who.value = as;
			who.dispatchEvent(new Event('change', { bubbles: true }));
			box.requestSubmit();
		},
		[line, as] as const
	);
	await answered;
	// The box shows the answer once it is read (a frame after it came).
	await preview.waitForTimeout(200);
	await expect.poll(() => textOf(preview, '[data-testid=demo-chat-typed]')).not.toBe('');
	return textOf(preview, '[data-testid=demo-chat-typed]');
}

/** A long tip the TTS widget reads now. */
async function reading(page: Page, stack: Stack): Promise<string> {
	await watchPlayback(page);
	await page.goto(stack.url('/widget/tts', fast));
	await ttsReady(page);
	const tip = stack.sim.control.createTip({ name: 'Ada', amount: 5, message: LONG, paid: true });
	await expect
		.poll(() => stack.sim.control.tenant().tts.current, { timeout: 20_000 })
		.toBe(tip.order_id);
	return tip.order_id;
}

async function openPreview(page: Page, stack: Stack): Promise<Page> {
	const preview = await page.context().newPage();
	await preview.goto(stack.url('/preview'));
	await expect(preview.locator('[data-testid=demo-chat-line]')).toHaveCount(1, { timeout: 20_000 });
	return preview;
}

const skipped = (stack: Stack) => stack.sim.control.log.events('queue.tts.skipped').length;

test("a moderator's !skip in the demo's chat box stops the tip being read, once", async ({
	page,
	stack
}) => {
	await turnOn(stack, 'skip');
	const preview = await openPreview(page, stack);
	const tip = await reading(page, stack);
	expect(await type(preview, '!skip', 'moderator')).toBe('a command ran');
	await expect.poll(() => stack.sim.control.tenant().tts.current).not.toBe(tip);
	expect(skipped(stack)).toBe(1);
	await page.waitForTimeout(1500);
	expect(skipped(stack)).toBe(1);
});

test("a viewer's !skip does nothing", async ({ page, stack }) => {
	await turnOn(stack, 'skip');
	const preview = await openPreview(page, stack);
	await reading(page, stack);
	expect(await type(preview, '!skip', 'viewer')).toBe('no command ran (permission)');
	await page.waitForTimeout(1500);
	expect(skipped(stack)).toBe(0);
});

test("a moderator's !approve plays the held tip of that name once", async ({ page, stack }) => {
	await turnOn(stack, 'approve');
	await saveRules(stack, { fromAmount: { amount: 50, outcome: 'hold' } });
	const preview = await openPreview(page, stack);
	await watchPlayback(page);
	await page.goto(stack.url('/widget/tts', fast));
	await ttsReady(page);
	const held = stack.sim.control.createTip({ name: 'Big Spender', amount: 100, message: 'Wait.' });
	const next = stack.sim.control.createTip({ name: 'Small', amount: 1, message: 'Me first.' });
	await eventually(() => ttsFinishesOf(stack, next.order_id).length === 1);
	expect(ttsFinishesOf(stack, held.order_id)).toEqual([]);
	// A start before its decision was known may have been granted and given straight back.
	const startsBefore = ttsStartsOf(stack, held.order_id).length;
	expect(await type(preview, '!approve big spender', 'moderator')).toBe('a command ran');
	await wasRead(page, held.order_id);
	await eventually(() => ttsFinishesOf(stack, held.order_id).length === 1);
	expect(ttsStartsOf(stack, held.order_id).length - startsBefore).toBe(1);
	// Run again, it finds nothing held: the tip is not played twice.
	expect(await type(preview, '!approve big spender', 'moderator')).toBe('a command ran');
	await page.waitForTimeout(1500);
	expect(ttsFinishesOf(stack, held.order_id)).toHaveLength(1);
});
