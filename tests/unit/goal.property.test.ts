// Property tests of the goal arithmetic with hostile numbers (NaN, infinities, negative and huge
// amounts, unparseable dates): the bar and the percentage stay finite and in range, a total is the
// sum of the tips that count (to the cent, in any order), and reaching the goal celebrates once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TipGoal } from '../../src/contract/index.ts';
import {
	applyAdd,
	applyTip,
	barFraction,
	countsToward,
	crossesGoal,
	goalPercent,
	roundCents,
	type GoalTip
} from '../../src/core/goal.ts';

const anyNumber = fc.oneof(
	fc.double(),
	fc.integer(),
	fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, Number.MAX_VALUE, -Number.MAX_VALUE, 1e-300)
);
const anyDate = fc.oneof(
	fc.constant(null),
	fc
		.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
		.map((d) => d.toISOString()),
	fc.constantFrom('not a date', '', '2024-13-45T99:99:99Z', '0000-00-00')
);
const goalArb = fc.record({
	enabled: fc.boolean(),
	title: fc.string(),
	amount: anyNumber,
	starts_at: anyDate,
	ends_at: anyDate,
	current: anyNumber
}) as fc.Arbitrary<TipGoal>;
let n = 0;
const tipArb = fc
	.record({
		amount: fc.oneof(fc.constant(null), anyNumber),
		is_paid: fc.boolean(),
		queued_at: fc.oneof(
			anyDate.map((d) => d ?? ''),
			fc.string()
		)
	})
	.map((t): GoalTip => ({ order_id: `tip_${++n}_p`, ...t }) as GoalTip);

describe('goal arithmetic against hostile numbers', () => {
	it('the percentage is a finite number from 0 up, the bar a fraction from 0 to 1', () => {
		fc.assert(
			fc.property(goalArb, (g) => {
				const p = goalPercent(g);
				const f = barFraction(g);
				expect(p >= 0 && p <= Infinity && !Number.isNaN(p)).toBe(true);
				expect(f >= 0 && f <= 1).toBe(true);
			}),
			{ numRuns: 1000 }
		);
	});

	it('a tip that does not count (unpaid, no amount, NaN, outside the window, bad date) leaves the goal as it was', () => {
		fc.assert(
			fc.property(goalArb, tipArb, (g, t) => {
				const after = applyTip(g, t);
				if (!countsToward(g, t)) expect(after).toBe(g);
				else expect(Number.isFinite(t.amount)).toBe(true);
			}),
			{ numRuns: 1000 }
		);
	});

	it('a total of cent amounts is their sum to the cent, whatever the order', () => {
		const cents = fc.array(fc.integer({ min: -100_000, max: 100_000 }), { maxLength: 40 });
		fc.assert(
			fc.property(cents, (cs) => {
				const start: TipGoal = {
					enabled: true,
					title: 't',
					amount: 100,
					starts_at: null,
					ends_at: null,
					current: 0
				};
				const forward = cs.reduce((g, c) => applyAdd(g, c / 100), start);
				const backward = [...cs].reverse().reduce((g, c) => applyAdd(g, c / 100), start);
				const exact = cs.reduce((a, c) => a + c, 0) / 100;
				expect(forward.current).toBe(roundCents(exact));
				expect(backward.current).toBe(forward.current);
			})
		);
	});

	it('NaN and infinite adds are ignored', () => {
		fc.assert(
			fc.property(goalArb, fc.constantFrom(NaN, Infinity, -Infinity), (g, x) => {
				expect(applyAdd(g, x)).toBe(g);
			})
		);
	});

	it('a growing total crosses the goal at most once', () => {
		fc.assert(
			fc.property(
				fc.double({ min: 0.01, max: 1e6, noNaN: true }),
				fc.array(fc.double({ min: 0, max: 1e5, noNaN: true }), { maxLength: 30 }),
				(amount, adds) => {
					let g: TipGoal = {
						enabled: true,
						title: 't',
						amount,
						starts_at: null,
						ends_at: null,
						current: 0
					};
					let crossings = 0;
					for (const a of adds) {
						const next = applyAdd(g, a);
						if (crossesGoal(g, next)) crossings += 1;
						g = next;
					}
					expect(crossings).toBeLessThanOrEqual(1);
					if (g.current >= amount) expect(crossings).toBe(1);
				}
			)
		);
	});
});
