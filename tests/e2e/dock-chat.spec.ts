// Thanks in chat and Send to chat in real Chromium engines (current, OBS 30's 103, OBS 31/32's 127)
// against the simulator: thanks turned on in the dock, a tip read to its end by the TTS widget an
// OBS source runs is thanked in chat once and listed in the dock; a thanks whose answer is lost is
// listed as may not have gone (at every dock size) until Send again posts it once more or It went
// takes it off the list, posting nothing; the dock's own message reaches chat and the preview's
// Chat panel. Pressed and typed into through evaluate (Chromium 103).
import type { Page } from '@playwright/test';
import {
	atEverySize,
	fast,
	openDock,
	press,
	settled,
	ttsFinishesOf,
	ttsReady,
	watchPlayback
} from './dock.helpers.ts';
import { attrOf, expect, test, textOf, type Stack } from './fixtures.ts';

/** Sets a form field as a user does: its value (or checked), then the event Svelte listens to. */
async function set(page: Page, selector: string, value: string | boolean): Promise<void> {
	await page.evaluate(
		([sel, v]) => {
			const input = document.querySelector<HTMLInputElement>(sel)!;
			if (typeof v === 'boolean') {
				input.checked = v;
				input.dispatchEvent(new Event('change', { bubbles: true }));
			} else {
				input.value = v;
				input.dispatchEvent(new Event('input', { bubbles: true }));
			}
		},
		[selector, value] as const
	);
}

/** The preview in a second page, its Chat panel read. */
async function preview(page: Page, stack: Stack): Promise<Page> {
	const p = await page.context().newPage();
	await p.goto(stack.url('/preview'));
	await expect
		.poll(
			() =>
				p.evaluate(
					() => !!document.querySelector('[data-testid=demo-chat-empty], [data-testid=demo-chat]')
				),
			{
				timeout: 20_000
			}
		)
		.toBe(true);
	return p;
}

const chatLines = (p: Page) =>
	p.evaluate(() =>
		[...document.querySelectorAll('[data-testid=demo-chat] li span[dir=auto]')].map(
			(s) => s.textContent ?? ''
		)
	);

test('a tip read by the TTS widget is thanked in chat once, and the dock lists it', async ({
	page,
	stack
}) => {
	const widget = await page.context().newPage();
	await watchPlayback(widget);
	await widget.goto(stack.url('/widget/tts', fast));
	await ttsReady(widget);
	await openDock(page, stack);

	await expect.poll(() => textOf(page, '[data-testid=chat-waiting]')).toContain('No tips waiting');
	await set(page, '[data-field=thanks-enabled]', true);
	await press(page, 'button[data-action=save-thanks]');
	await expect
		.poll(() => attrOf(page, '[data-testid=thanks-status]', 'data-kind'), { timeout: 15_000 })
		.toBe('done');

	const tip = stack.sim.control.createTip({
		name: 'Ada',
		amount: 5,
		message: 'hello there',
		paid: true
	});
	await expect.poll(() => ttsFinishesOf(stack, tip.order_id).length, { timeout: 30_000 }).toBe(1);
	const thanked = () =>
		stack.sim.control
			.chat()
			.log()
			.map((m) => m.text);
	await expect.poll(thanked, { timeout: 20_000 }).toEqual(['Thank you Ada for the $5.00 tip!']);
	await expect
		.poll(() => textOf(page, '[data-testid=chat-recent]'), { timeout: 10_000 })
		.toContain('Thank you Ada for the $5.00 tip!');
	await page.waitForTimeout(2000);
	expect(stack.sim.control.chat().log()).toHaveLength(1);
});

test('a thanks whose answer was lost may not have gone, until Send again posts it once more or It went takes it off', async ({
	page,
	stack
}, info) => {
	const widget = await page.context().newPage();
	await watchPlayback(widget);
	await widget.goto(stack.url('/widget/tts', fast));
	await ttsReady(widget);
	await openDock(page, stack);
	await set(page, '[data-field=thanks-enabled]', true);
	await press(page, 'button[data-action=save-thanks]');
	await expect
		.poll(() => attrOf(page, '[data-testid=thanks-status]', 'data-kind'), { timeout: 15_000 })
		.toBe('done');
	// The chat posts the thanks, and a proxy in front of it answers 504 without a body.
	stack.sim.control.chat().switches.lose = { mode: '504', count: 1, delayMs: 0 };
	stack.sim.control.createTip({ name: 'Ashby', amount: 4, message: 'hi', paid: true });
	/** What the bot said, oldest first. */
	const said = () =>
		stack.sim.control
			.chat()
			.log()
			.map((m) => m.text)
			.reverse();
	const thanks = 'Thank you Ashby for the $4.00 tip!';
	const listed = () => page.evaluate(() => !!document.querySelector('[data-testid=chat-unsure]'));
	await expect
		.poll(() => textOf(page, '[data-testid=chat-unsure]'), { timeout: 30_000 })
		.toContain(thanks);
	expect(await textOf(page, '[data-testid=chat-unsure]')).toContain('Ashby');
	expect(said()).toEqual([thanks]);
	expect(await atEverySize(page, 'dock with a thanks that may not have gone')).toEqual([]);
	if (info.project.name === 'chromium') {
		await page.setViewportSize({ width: 300, height: 900 });
		await settled(page);
		await page.evaluate(() =>
			document.querySelector('[data-testid=chat-unsure]')!.scrollIntoView()
		);
		const name = 'dock-chat-unsure-300x900.png';
		await page.screenshot({ path: info.outputPath(name), animations: 'disabled' });
		await info.attach(name, { path: info.outputPath(name), contentType: 'image/png' });
	}

	await press(page, 'button[data-action=resend-chat]');
	await expect.poll(said, { timeout: 10_000 }).toEqual([thanks, thanks]);
	await expect.poll(listed).toBe(false);
	await expect.poll(() => textOf(page, '[data-testid=chat-recent]')).toContain('may not have gone');

	// Lost again: the streamer sees it in chat and presses It went; nothing more is posted.
	stack.sim.control.chat().switches.lose = { mode: '504', count: 1, delayMs: 0 };
	stack.sim.control.createTip({ name: 'Bree', amount: 3, message: 'yo', paid: true });
	const second = 'Thank you Bree for the $3.00 tip!';
	await expect
		.poll(() => textOf(page, '[data-testid=chat-unsure]'), { timeout: 30_000 })
		.toContain(second);
	await press(page, 'button[data-action=seen-chat]');
	await expect.poll(listed).toBe(false);
	await expect
		.poll(() => textOf(page, '[data-testid=chat-recent] li:first-child'))
		.toContain('sent (seen in chat)');
	expect(said()).toEqual([thanks, thanks, second]);
});

test("the dock's Send to chat reaches the chat, and a command is refused before sending", async ({
	page,
	stack
}) => {
	await openDock(page, stack);
	const shown = await preview(page, stack);
	await set(page, '[data-field=chat-message]', '!so someone');
	await press(page, 'button[data-action=send-chat]');
	await expect
		.poll(() => attrOf(page, '[data-testid=chat-send-status]', 'data-kind'))
		.toBe('refused');
	await set(page, '[data-field=chat-message]', 'BRB, getting water');
	await press(page, 'button[data-action=send-chat]');
	await expect.poll(() => attrOf(page, '[data-testid=chat-send-status]', 'data-kind')).toBe('done');
	await expect.poll(() => chatLines(shown), { timeout: 10_000 }).toEqual(['BRB, getting water']);
	expect(
		stack.sim.control
			.chat()
			.log()
			.map((m) => m.text)
	).toEqual(['BRB, getting water']);
});

test('the dock with its Chat section fits every size', async ({ page, stack }) => {
	await openDock(page, stack);
	await page.evaluate(() => document.querySelector('[data-testid=chat]')!.scrollIntoView());
	expect(await atEverySize(page, 'dock with the Chat section')).toEqual([]);
});

test('screenshots of the Chat section and the preview panel, to look at', async ({
	page,
	stack
}, info) => {
	test.skip(info.project.name !== 'chromium', 'looked at in current Chromium');
	await openDock(page, stack);
	const shown = await preview(page, stack);
	await set(page, '[data-field=chat-message]', 'Hello chat, welcome in!');
	await press(page, 'button[data-action=send-chat]');
	await expect.poll(() => chatLines(shown), { timeout: 10_000 }).toHaveLength(1);
	for (const width of [300, 500]) {
		await page.setViewportSize({ width, height: 900 });
		await settled(page);
		await page.evaluate(() => document.querySelector('[data-testid=chat]')!.scrollIntoView());
		const name = `dock-chat-${width}x900.png`;
		await page.screenshot({ path: info.outputPath(name), animations: 'disabled' });
		await info.attach(name, { path: info.outputPath(name), contentType: 'image/png' });
	}
	await shown.setViewportSize({ width: 1280, height: 900 });
	await shown.evaluate(() => document.querySelector('[data-testid=demo-chat]')!.scrollIntoView());
	await shown.screenshot({ path: info.outputPath('preview-chat.png') });
	await info.attach('preview-chat.png', {
		path: info.outputPath('preview-chat.png'),
		contentType: 'image/png'
	});
});
