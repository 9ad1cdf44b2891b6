// The stage's shrink-to-fit (widgets/shared/fit.ts): the factor it tries next from what the content
// needs and the room its box has.
import { describe, expect, it } from 'vitest';
import { MIN_FIT, nextFit } from '../../widgets/shared/fit.ts';

const room = { roomW: 400, roomH: 100 };

describe('nextFit', () => {
	it('leaves content that fits as it is', () => {
		expect(nextFit(1, { ...room, needW: 380, needH: 90 })).toBeNull();
	});

	it('shrinks content that is too tall or too wide, by the larger overshoot', () => {
		expect(nextFit(1, { ...room, needW: 300, needH: 200 })).toBeCloseTo(0.5, 3);
		expect(nextFit(1, { ...room, needW: 800, needH: 50 })).toBeCloseTo(0.5, 3);
	});

	it('always shrinks a little when it overflows at all, so the loop ends inside', () => {
		const next = nextFit(1, { ...room, needW: 401, needH: 50 })!;
		expect(next).toBeLessThan(0.99);
	});

	it('grows shrunk content back toward its full size when there is room again', () => {
		expect(nextFit(0.5, { ...room, needW: 200, needH: 25 })).toBe(1);
		expect(nextFit(0.5, { ...room, needW: 300, needH: 80 })).toBeCloseTo(0.625, 3);
		// A little room is not worth a step (wrapping would swing it back).
		expect(nextFit(0.5, { ...room, needW: 395, needH: 98 })).toBeNull();
	});

	it('never goes below the smallest factor', () => {
		expect(nextFit(1, { ...room, needW: 40_000, needH: 100 })).toBe(MIN_FIT);
		expect(nextFit(MIN_FIT, { ...room, needW: 40_000, needH: 100 })).toBeNull();
	});
});
