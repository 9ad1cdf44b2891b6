// The upstream's limits as budgets (docs/upstream.md, rate limits and budgets): what
// the RateLimit-* headers of an answer hold back, claims before reads, the claims' share of a
// window kept from reads, and the reset honoured.
import { describe, expect, it } from 'vitest';
import {
	BudgetBook,
	readRateLimitHeaders,
	type RateLimitHeaders,
	type Ticket
} from '../../src/core/rate-budget.ts';

/** Only the reserve kept (no share over time): the rules that hold whatever the share. */
const POLICY = { perIp: 240, perAuthorization: 120, reserve: 0.1, claimShare: 0, windowMs: 60_000 };
const SHARED = { ...POLICY, claimShare: 0.5 };
const h = (limit: number, remaining: number, resetS: number): RateLimitHeaders => ({
	limit,
	remaining,
	resetS
});

describe('the rate-limit budgets', () => {
	it('an unknown budget holds nothing back', () => {
		const book = new BudgetBook(POLICY);
		expect(book.sendAt('oa_a', 'read', 1000)).toBe(1000);
		expect(book.sendAt('oa_a', 'claim', 1000)).toBe(1000);
		expect(book.snapshot(1000)).toMatchObject({ ip: null, saturated: false });
	});

	it('once only the reserve is left reads wait for the reset while claims still go', () => {
		const book = new BudgetBook(POLICY);
		// 12 of 120 left (the reserve is 10 %), the window resets in 30 s.
		book.observe('oa_a', h(120, 12, 30), 200, 0);
		expect(book.sendAt('oa_a', 'read', 0)).toBe(30_000);
		expect(book.sendAt('oa_a', 'claim', 0)).toBe(0);
		// Another streamer's authorization has its own budget.
		expect(book.sendAt('oa_b', 'read', 0)).toBe(0);
		expect(book.snapshot(0)).toMatchObject({
			authorizations: { known: 1, nearlySpent: 1, spent: 0 },
			saturated: true
		});
	});

	it('a spent budget holds claims too, until its reset; after it, a whole window', () => {
		const book = new BudgetBook(POLICY);
		book.observe('oa_a', h(120, 2, 10), 200, 0);
		book.spend('oa_a', 0);
		expect(book.sendAt('oa_a', 'claim', 0)).toBe(0);
		book.spend('oa_a', 0);
		// Our own two sends used what was left: the third waits for the reset.
		expect(book.sendAt('oa_a', 'claim', 5000)).toBe(10_000);
		expect(book.snapshot(5000).authorizations.spent).toBe(1);
		expect(book.sendAt('oa_a', 'claim', 10_000)).toBe(10_000);
		expect(book.sendAt('oa_a', 'read', 10_000)).toBe(10_000);
		expect(book.snapshot(10_000)).toMatchObject({
			authorizations: { known: 1, nearlySpent: 0, spent: 0 },
			saturated: false
		});
		// That window (guessed from the reset, when a call was asked for) ended, and a whole window
		// after it went by without a call: the budget is unknown again.
		expect(book.snapshot(129_999)).toMatchObject({ authorizations: { known: 1 } });
		expect(book.snapshot(130_000)).toMatchObject({ authorizations: { known: 0 } });
	});

	it('after a reset the next window is counted down by our sends until an answer tells its count', () => {
		const book = new BudgetBook(SHARED);
		book.observe('oa_a', h(120, 12, 5), 200, 0);
		// The reads held for the reset do not all go at it: the new window's claim share holds.
		let reads = 0;
		while (book.sendAt('oa_a', 'read', 5000) <= 5000 && reads < 200) {
			book.spend('oa_a', 5000);
			reads += 1;
		}
		expect(reads).toBe(120 - 12 - 60);
		expect(book.sendAt('oa_a', 'claim', 5000)).toBe(5000);
		// An answer of the new window replaces the guess (its reset, and the lower count)...
		book.observe('oa_a', h(120, 20, 15), 200, 6000);
		expect(book.snapshot(6000)).toMatchObject({ authorizations: { known: 1, nearlySpent: 1 } });
		// 20 left, 15 s to go: the floor (12 + 60 x 15/60) falls to 19 at 7 s before the reset.
		expect(book.sendAt('oa_a', 'read', 6000)).toBe(14_000);
		// ...and the upstream's window (15 s here) is the one that resets.
		expect(book.sendAt('oa_a', 'read', 21_000)).toBe(21_000);
	});

	it('a 429 means spent until its reset, whatever Remaining says', () => {
		const book = new BudgetBook(POLICY);
		book.observe('oa_a', h(120, 50, 20), 429, 1000);
		expect(book.sendAt('oa_a', 'claim', 1000)).toBe(21_000);
		expect(book.holdingLimit('oa_a', 'claim', 1000)).toBe(120);
	});

	it('the per-IP budget (its Limit) holds back every authorization of this address', () => {
		const book = new BudgetBook(POLICY);
		book.observe('oa_a', h(240, 20, 40), 200, 0);
		expect(book.sendAt('oa_b', 'read', 0)).toBe(40_000);
		expect(book.sendAt('oa_b', 'claim', 0)).toBe(0);
		expect(book.snapshot(0)).toMatchObject({
			ip: { limit: 240, remaining: 20, resetInMs: 40_000, nearlySpent: true, spent: false },
			authorizations: { known: 0 },
			saturated: true
		});
	});

	it('a Limit matching neither policy counts for both budgets (it only ever waits longer)', () => {
		const book = new BudgetBook(POLICY);
		book.observe('oa_a', h(1000, 0, 5), 200, 0);
		expect(book.sendAt('oa_a', 'claim', 0)).toBe(5000);
		expect(book.sendAt('oa_b', 'claim', 0)).toBe(5000);
	});

	it('answers of one window that overtake each other keep the lower count; an older window is ignored', () => {
		const book = new BudgetBook(POLICY);
		book.observe('oa_a', h(120, 10, 30), 200, 0);
		// A slower answer from earlier in the same window (Reset is rounded up to whole seconds).
		book.observe('oa_a', h(120, 40, 30), 200, 200);
		expect(book.sendAt('oa_a', 'read', 200)).toBe(30_200);
		// An answer from the window before this one.
		book.observe('oa_a', h(120, 100, 1), 200, 300);
		expect(book.sendAt('oa_a', 'read', 300)).toBe(30_200);
		// A later window replaces the known one.
		book.observe('oa_a', h(120, 119, 60), 200, 29_000);
		expect(book.sendAt('oa_a', 'read', 29_000)).toBe(29_000);
	});

	it('reads keep the claims’ share of the time left: half a window’s calls at its start, none at its end', () => {
		const book = new BudgetBook(SHARED);
		// A minute's window just began: 12 (the reserve) + 60 (half of 120, a whole window ahead).
		book.observe('oa_a', h(120, 73, 60), 200, 0);
		expect(book.sendAt('oa_a', 'read', 0)).toBe(0);
		book.spend('oa_a', 0);
		// 72 left is the floor: the next read waits until the floor falls to 71, a second later (the
		// share falls by one call a second), and claims go at once.
		expect(book.sendAt('oa_a', 'read', 0)).toBe(1000);
		expect(book.sendAt('oa_a', 'claim', 0)).toBe(0);
		expect(book.snapshot(0)).toMatchObject({
			authorizations: { nearlySpent: 1, spent: 0 },
			saturated: true
		});
		// Half-way through, 42 is the floor; 10 s before the reset, 22.
		expect(book.sendAt('oa_a', 'read', 30_000)).toBe(30_000);
		book.observe('oa_a', h(120, 22, 10), 200, 50_000);
		expect(book.sendAt('oa_a', 'read', 50_000)).toBe(51_000);
		expect(book.sendAt('oa_a', 'claim', 50_000)).toBe(50_000);
		// Down to the reserve: reads wait for the reset itself.
		book.observe('oa_a', h(120, 12, 5), 200, 55_000);
		expect(book.sendAt('oa_a', 'read', 55_000)).toBe(60_000);
	});

	it('a flood of reads leaves the claims of the rest of the window their share', () => {
		const book = new BudgetBook(SHARED);
		book.observe('oa_a', h(120, 119, 60), 200, 0);
		let claimsHeld = 0;
		let reads = 0;
		// Every 100 ms for a minute a read is asked for; every 2 s a claim (a tip's start or
		// finish: 30 a minute) must go at once.
		for (let t = 0; t < 60_000; t += 100) {
			if (t % 2000 === 0) {
				if (book.sendAt('oa_a', 'claim', t) > t) claimsHeld += 1;
				book.spend('oa_a', t);
			}
			if (book.sendAt('oa_a', 'read', t) <= t) {
				book.spend('oa_a', t);
				reads += 1;
			}
		}
		expect(claimsHeld).toBe(0);
		// Reads had the rest (less the reserve), spread over the window.
		expect(reads).toBeGreaterThan(60);
		expect(book.snapshot(59_900).authorizations.spent).toBe(0);
	});

	it('two instances reading at once keep the claims’ share between them: each reads blind only its part', () => {
		// One streamer's 40 calls a 10-second window, read through two instances; the upstream
		// answers each call 50 ms after it was sent, with the count left as it processed the call.
		const policy = { ...SHARED, perAuthorization: 40, windowMs: 10_000 };
		const run = (instances: number) => {
			const books = [0, 1].map(() => new BudgetBook(policy, () => instances));
			let left = 40;
			for (const book of books) book.observe('oa_a', h(40, left, 10), 200, 0);
			const answers: { at: number; book: BudgetBook; left: number; ticket: Ticket }[] = [];
			let lowest = left;
			for (let t = 0; t <= 1000; t += 10) {
				for (const a of answers.filter((a) => a.at === t))
					a.book.observe('oa_a', h(40, a.left, 10), 200, t, a.ticket);
				// Each instance has reads waiting (a flood of them): it sends what its book allows.
				for (const book of books)
					while (book.sendAt('oa_a', 'read', t) <= t) {
						left -= 1;
						answers.push({ at: t + 50, book, left, ticket: book.spend('oa_a', t) });
					}
				lowest = Math.min(lowest, left);
			}
			return lowest;
		};
		// The floor in the first second: 4 (the reserve) and 20 (half of 40) over the time left, 24
		// to 22. Each instance reads blind 8 of the 16 above it. Here every call of the first
		// instance reaches the upstream before the other's, so its answers show none of the
		// other's reads, and it reads a part of what it believes is left once more (4 of 8): the
		// worst case, a quarter of the room above the floor taken from the claims' share.
		expect(run(2)).toBeGreaterThanOrEqual(24 - 16 / 4 - 1);
		// Had each counted itself alone, together they would have read the claims' share away.
		expect(run(1)).toBeLessThan(12);
	});

	it('reads the three headers as whole numbers, or not at all', () => {
		const headers = (o: Record<string, string>) => new Headers(o);
		expect(
			readRateLimitHeaders(
				headers({ 'RateLimit-Limit': '120', 'RateLimit-Remaining': '7', 'RateLimit-Reset': '30' })
			)
		).toEqual({ limit: 120, remaining: 7, resetS: 30 });
		expect(
			readRateLimitHeaders(headers({ 'RateLimit-Limit': '120', 'RateLimit-Remaining': '7' }))
		).toBeNull();
		expect(
			readRateLimitHeaders(
				headers({ 'RateLimit-Limit': '120', 'RateLimit-Remaining': '-1', 'RateLimit-Reset': '3' })
			)
		).toBeNull();
	});
});
