// A reader over its allowance: when the token endpoint answers reads of a page's key from its
// address 429 (the address spent its reads: here the test's own flood from the same machine, as a
// broken extension beside OBS would), a page's plain reads wait out Retry-After, while the queue
// read a TTS page needs in order to claim carries its read ticket and is never refused, so the tip
// plays as soon as it is ready; the flood's own reads of the queue are answered from the server's
// live view, at no cost to the upstream.
import type { Page } from '@playwright/test';
import { DEFAULT_READ_LIMITS } from '../../src/core/read-allowance.ts';
import { attrOf, eventually, expect, test, textOf, type Stack } from './fixtures.ts';

/**
 * Spends the reads this machine's address may make with the key, as a flood would: reads the
 * server's live view cannot answer (deeper than the rows it keeps), so each goes upstream; `spent`:
 * some of them are refused (the allowance is spent).
 */
async function flood(stack: Stack, spent = true): Promise<void> {
	const statuses = await Promise.all(
		Array.from({ length: DEFAULT_READ_LIMITS.address.burst + 5 }, async () => {
			const res = await fetch(`${stack.origin}/api/tts/history?limit=50`, {
				headers: { 'x-overlay-key': stack.key }
			});
			await res.arrayBuffer();
			return res.status;
		})
	);
	if (spent) expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
}

/** The statuses of the page's reads of `path` (`/api/tts/queue`), as they come. */
function answersTo(page: Page, path: string): number[] {
	const statuses: number[] = [];
	page.on('response', (res) => {
		if (new URL(res.url()).pathname === path) statuses.push(res.status());
	});
	return statuses;
}

test('a TTS page whose address spent its reads still reads its queue with its ticket and plays the tip', async ({
	page,
	stack
}) => {
	const snapshots = answersTo(page, '/api/tts/queue');
	await flood(stack);
	await page.goto(stack.url('/widget/tts', { min_display: 0, gap: 0, debug: 1 }));
	await expect
		.poll(() => attrOf(page, '[data-testid=tts-widget]', 'data-status'), { timeout: 30_000 })
		.toBe('ready');
	await eventually(() => snapshots.includes(200));
	const tip = stack.sim.control.createTip({ name: 'Viewer', amount: 5, message: 'hi', paid: true });
	await eventually(
		() => stack.calls('POST', new RegExp(`^/tts/${tip.order_id}/finish$`)).length === 1,
		30_000
	);
	expect(snapshots).not.toContain(429);
	await expect.poll(() => textOf(page, '[data-testid=tts-debug]')).toMatch(/429 0/);
	// The same read without the page's ticket, as anything else on the machine makes it: answered
	// from the server's live view (the address's spent allowance counts only reads that go
	// upstream), at no cost to the upstream, and never given a ticket.
	const upstreamReads = stack.calls('GET', /^\/tts\/queue$/).length;
	const replays = await Promise.all(
		Array.from({ length: 10 }, () =>
			fetch(`${stack.origin}/api/tts/queue`, { headers: { 'x-overlay-key': stack.key } })
		)
	);
	expect(replays.map((r) => r.status)).toEqual(Array(10).fill(200));
	expect(replays.filter((r) => r.headers.get('x-read-ticket') !== null)).toEqual([]);
	expect(stack.calls('GET', /^\/tts\/queue$/)).toHaveLength(upstreamReads);
});

test('an overlay page whose first read is refused waits it out and shows its widgets', async ({
	page,
	stack
}) => {
	const overlayReads = answersTo(page, '/api/overlays/o_1a2b3c4d');
	await flood(stack);
	// The overlay record is not part of the live view: its read goes upstream, on the allowance.
	// The flood goes on while the page loads (the allowance refills), until the page is refused.
	let flooding = true;
	const floods = (async () => {
		while (flooding && !overlayReads.includes(429)) await flood(stack, false);
	})();
	await page.goto(stack.url('/overlay/o_1a2b3c4d'));
	await eventually(() => overlayReads.includes(429), 30_000).finally(() => (flooding = false));
	await floods;
	await eventually(() => overlayReads.includes(200), 30_000);
	await expect.poll(() => page.locator('[data-testid=overlay]').count()).toBe(1);
	expect(await page.locator('[data-testid=error-card]').count()).toBe(0);
});
