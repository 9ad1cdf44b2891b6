// Stored settings checked end to end in the three engines: a streamer
// changes the TTS look and adds a tier in the settings editor (/editor) while an OBS source
// (/widget/tts with its key only) is open in another page; Save changes that source without
// touching its URL or reloading it (its next alerts have the new look, and the new tier for a tip in
// it), and Undo brings the old look back. Fields are set and buttons pressed inside the page and
// read through evaluate (Chromium 103 has no checkVisibility for click() and toBeVisible()).
import type { Page } from '@playwright/test';
import { press } from './dock.helpers.ts';
import { attrOf, eventually, expect, REACT_MS, test, textOf, type Stack } from './fixtures.ts';
import { EDITOR, editorReady, setField } from './settings.helpers.ts';

const finishPath = /^\/tts\/[^/]+\/finish$/;

/** The source's debug-panel value for a parameter ('' when it is a default: no row). */
function debugRow(page: Page, label: string): Promise<string> {
	return page.evaluate((l) => {
		for (const dt of document.querySelectorAll('[data-testid=tts-debug] dt'))
			if (dt.textContent === l) return dt.nextElementSibling?.textContent ?? '';
		return '';
	}, label);
}

/** Plays one tip on the source and gives the look its card had. */
async function lookOfNextTip(page: Page, stack: Stack, amount: number): Promise<string | null> {
	const played = stack.calls('POST', finishPath).length;
	const tip = stack.sim.control.createTip({ name: `Tip of ${amount}`, amount, message: 'Hi!' });
	const selector = `[data-alert-id=${tip.order_id}]`;
	await expect
		.poll(() => attrOf(page, selector, 'data-look'), { timeout: REACT_MS })
		.not.toBeNull();
	const look = await attrOf(page, selector, 'data-look');
	await eventually(() => stack.calls('POST', finishPath).length === played + 1, 30_000);
	return look;
}

test('a look and a tier saved in the editor change an open OBS source without touching its URL; Undo brings it back', async ({
	page,
	context,
	stack
}) => {
	// The OBS source: its path and key (and, for this test's eyes, its debug panel).
	const source = await context.newPage();
	const sourceUrl = stack.url('/widget/tts', { debug: 1, min_display: 0, gap: 0 });
	await source.goto(sourceUrl);
	await expect
		.poll(() => attrOf(source, '[data-testid=tts-widget]', 'data-status'), { timeout: 20_000 })
		.toBe('ready');
	await source.evaluate(() => void ((window as unknown as { __mark: string }).__mark = 'same'));
	expect(await lookOfNextTip(source, stack, 5)).toBe('classic');

	await page.goto(`${stack.origin}/editor?key=${encodeURIComponent(stack.controlKey)}`);
	await editorReady(page);
	await setField(page, 'look', 'frost');
	await press(page, `${EDITOR} button[data-action=add-tier]`);
	await setField(page, 'tier1_from', '20');
	await setField(page, 'tier1_look', 'ember');
	await press(page, `${EDITOR} button[data-action=save]`);
	await expect.poll(() => textOf(page, '[data-testid=settings-notice]')).toContain('Saved');

	// The open source has the new settings, then shows them on its next alerts: every tip's look
	// below the new tier, the tier's look from its amount.
	await expect
		.poll(() => debugRow(source, 'look'), { timeout: REACT_MS })
		.toBe('frost (stored settings)');
	expect(await lookOfNextTip(source, stack, 5)).toBe('frost');
	expect(await lookOfNextTip(source, stack, 25)).toBe('ember');

	await press(page, `${EDITOR} button[data-action=undo]`);
	await expect.poll(() => textOf(page, '[data-testid=settings-notice]')).toContain('Undone');
	await expect.poll(() => debugRow(source, 'look'), { timeout: REACT_MS }).toBe('');
	expect(await lookOfNextTip(source, stack, 5)).toBe('classic');

	// The same page all along, at the same URL.
	expect(source.url()).toBe(sourceUrl);
	expect(await source.evaluate(() => (window as unknown as { __mark?: string }).__mark)).toBe(
		'same'
	);
});
