// The kit's one limiter (src/core/window-limit.ts): at most so many events in any window, what is
// refused and until when, the Retry-After it implies, and counts kept by second (as the address
// budget's are, in memory and in PostgreSQL) decided the same way as single events.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, recent, type WindowLimit } from '../../src/core/window-limit.ts';

const CHAT: WindowLimit = { limit: 20, windowMs: 30_000 };

/** Events tried at these times: those allowed are counted, the refused are not. */
function run(w: WindowLimit, tries: number[]): { allowed: number[]; refused: number[] } {
	const allowed: number[] = [];
	const refused: number[] = [];
	for (const t of tries) (decide(w, allowed, t).ok ? allowed : refused).push(t);
	return { allowed, refused };
}

describe('a window limit', () => {
	it('lets 20 messages through in 30 s, refuses the 21st, and allows it when the first leaves', () => {
		const tries = Array.from({ length: 25 }, (_, i) => 1000 + i * 100);
		const { allowed, refused } = run(CHAT, tries);
		expect(allowed).toHaveLength(20);
		expect(refused).toHaveLength(5);
		const v = decide(CHAT, allowed, 3500);
		expect(v).toEqual({ ok: false, counted: 20, nextAt: 31_000, retryAfterS: 28 });
		expect(decide(CHAT, allowed, 30_999.9).ok).toBe(false);
		expect(decide(CHAT, allowed, 31_000)).toEqual({
			ok: true,
			counted: 19,
			nextAt: 31_000,
			retryAfterS: 0
		});
	});

	it('a smaller share of the same events: 15 of them leave room once 6 have left', () => {
		const sent = Array.from({ length: 20 }, (_, i) => i * 1000);
		const thanks = { ...CHAT, limit: 15 };
		expect(decide(thanks, sent, 20_000).nextAt).toBe(5000 + 30_000);
		expect(decide(CHAT, sent, 20_000).nextAt).toBe(30_000);
	});

	it('says Retry-After in whole seconds, at least one', () => {
		const w = { limit: 1, windowMs: 60_000 };
		expect(decide(w, [0], 59_999).retryAfterS).toBe(1);
		expect(decide(w, [0], 1).retryAfterS).toBe(60);
		expect(decide(w, [0], 0.5 * 60_000 + 200).retryAfterS).toBe(30);
	});

	it('counts kept by second decide as the single events they count', () => {
		const w = { limit: 10, windowMs: 60_000 };
		const bySecond = [
			{ at: 0, n: 4 },
			{ at: 1000, n: 3 },
			{ at: 2000, n: 3 }
		];
		const single = [0, 0, 0, 0, 1000, 1000, 1000, 2000, 2000, 2000];
		expect(decide(w, bySecond, 5000)).toEqual(decide(w, single, 5000));
		// Five more need the first and second seconds gone: at 61 s.
		expect(decide(w, bySecond, 5000, 5)).toMatchObject({ ok: false, nextAt: 61_000 });
		expect(decide(w, bySecond, 61_000, 5).ok).toBe(true);
		// More at once than the limit is never allowed.
		expect(decide(w, [], 0, 11)).toMatchObject({ ok: false, nextAt: Infinity });
	});

	it('never lets more than its limit through in any window, and refuses only when full', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 8 }),
				fc.integer({ min: 1, max: 5000 }),
				fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 60 }),
				(limit, windowMs, gaps) => {
					const w = { limit, windowMs };
					let t = 0;
					const tries = gaps.map((g) => (t += g));
					const { allowed, refused } = run(w, tries);
					for (const at of allowed)
						expect(allowed.filter((x) => x >= at && x < at + windowMs).length).toBeLessThanOrEqual(
							limit
						);
					for (const at of refused) {
						const before = allowed.filter((x) => x <= at);
						expect(recent(w, before, at)).toHaveLength(limit);
					}
				}
			)
		);
	});
});
