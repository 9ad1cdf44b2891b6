// A reader over its allowance (issue 41): when the token endpoint answers a page's reads 429 (its
// address spent its reads: here the test's own flood from the same machine, as a broken extension
// beside OBS would), the page waits out Retry-After and comes up, its debug panel counts the reads
// refused, and its claims, never limited, play the tip.
import type { Page } from '@playwright/test';
import { DEFAULT_READ_LIMITS } from '../../src/core/read-allowance.ts';
import { attrOf, eventually, expect, test, textOf, type Stack } from './fixtures.ts';

/** Spends the reads this machine's address may make with the key, as a flood would. */
async function flood(stack: Stack): Promise<void> {
	const statuses = await Promise.all(
		Array.from({ length: DEFAULT_READ_LIMITS.address.burst + 5 }, async () => {
			const res = await fetch(`${stack.origin}/api/me`, {
				headers: { 'x-overlay-key': stack.key }
			});
			await res.arrayBuffer();
			return res.status;
		})
	);
	expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
}

/** The statuses of the page's reads of `path` (`/api/tts/queue`), as they come. */
function answersTo(page: Page, path: string): number[] {
	const statuses: number[] = [];
	page.on('response', (res) => {
		if (new URL(res.url()).pathname === path) statuses.push(res.status());
	});
	return statuses;
}

test('a TTS page refused its reads waits them out, counts them in its debug panel, and plays the tip', async ({
	page,
	stack
}) => {
	const snapshots = answersTo(page, '/api/tts/queue');
	await flood(stack);
	await page.goto(stack.url('/widget/tts', { min_display: 0, gap: 0, debug: 1 }));
	await eventually(() => snapshots.includes(429));
	await expect
		.poll(() => textOf(page, '[data-testid=tts-debug]'), { timeout: 20_000 })
		.toMatch(/429 [1-9]/);
	await expect
		.poll(() => attrOf(page, '[data-testid=tts-widget]', 'data-status'), { timeout: 30_000 })
		.toBe('ready');
	await eventually(() => snapshots.includes(200), 30_000);
	const tip = stack.sim.control.createTip({ name: 'Viewer', amount: 5, message: 'hi', paid: true });
	await eventually(
		() => stack.calls('POST', new RegExp(`^/tts/${tip.order_id}/finish$`)).length === 1,
		30_000
	);
});

test('an overlay page whose first read is refused waits it out and shows its widgets', async ({
	page,
	stack
}) => {
	const overlayReads = answersTo(page, '/api/overlays/o_1a2b3c4d');
	await flood(stack);
	await page.goto(stack.url('/overlay/o_1a2b3c4d'));
	await eventually(() => overlayReads.includes(429));
	await eventually(() => overlayReads.includes(200), 30_000);
	await expect.poll(() => page.locator('[data-testid=overlay]').count()).toBe(1);
	expect(await page.locator('[data-testid=error-card]').count()).toBe(0);
});
