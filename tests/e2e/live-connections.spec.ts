// Every page that obeys moderation holds the token endpoint's push channel open (GET /live). A
// browser keeps at most six HTTP/1.1 connections to one origin for all its pages together (OBS's
// browser sources and docks share one browser), so the channel is a WebSocket, outside that pool:
// with eight such pages open, another request of the origin is still answered.
import { expect, test } from './fixtures.ts';

test('eight pages holding the push channel leave the origin free for reads', async ({
	page,
	stack
}) => {
	test.setTimeout(60_000);
	const pages = [page, ...(await Promise.all([...Array(7)].map(() => page.context().newPage())))];
	await Promise.all(pages.map((p) => p.goto(stack.url('/widget/recent'))));
	// Each page's channel is open (its first read follows the channel's hello).
	for (const p of pages)
		await expect
			.poll(() => p.evaluate(() => performance.getEntriesByType('resource').length), {
				timeout: 20_000
			})
			.toBeGreaterThan(0);
	// A page of the same origin is served with no upstream call: only a free connection counts.
	const plain = stack.url('/widget/counters');
	const answered = await page.evaluate(async (url) => {
		const abort = new AbortController();
		// With six streams held open it would never be answered; the pages' first reads may delay it.
		const timer = setTimeout(() => abort.abort(), 15_000);
		try {
			return (await fetch(url, { signal: abort.signal, cache: 'no-store' })).status;
		} catch {
			return 0;
		} finally {
			clearTimeout(timer);
		}
	}, plain);
	expect(answered).toBe(200);
});
