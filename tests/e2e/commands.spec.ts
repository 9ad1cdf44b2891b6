// Chat commands in a real Chromium against the simulator: the kit's !skip turned on from the
// dock's Commands, then typed in the demo preview's chat box. A moderator's stops the tip the TTS
// widget is reading, once; a viewer's skips nothing (the upstream refuses it).
import type { Page } from '@playwright/test';
import { fast, LONG, ttsReady, watchPlayback } from './dock.helpers.ts';
import { expect, test, textOf, type Stack } from './fixtures.ts';

async function turnOn(stack: Stack, command: string): Promise<void> {
	const res = await fetch(`${stack.origin}/control/commands/${command}`, {
		method: 'POST',
		headers: { 'x-control-key': stack.controlKey, 'content-type': 'application/json' },
		body: JSON.stringify({ on: true })
	});
	expect(res.status).toBe(200);
}

/** The preview's chat box: a line typed as `as`, sent, and what the chat made of it. */
async function type(preview: Page, line: string, as: 'viewer' | 'moderator'): Promise<string> {
	await preview.fill('[data-testid=demo-chat-input]', line);
	await preview.selectOption('[data-testid=demo-chat-as]', as);
	await preview.click('[data-testid=demo-chat-line] button[type=submit]');
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
	await expect(preview.locator('[data-testid=demo-chat-line]')).toBeVisible({ timeout: 20_000 });
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
