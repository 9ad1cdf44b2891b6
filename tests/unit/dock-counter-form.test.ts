// The dock's counter boxes (widgets/dock/counter-form.ts): what Set and Create send for what the
// streamer typed, and the reason shown beside a button that cannot send it.
import { describe, expect, it } from 'vitest';
import {
	NAME_PROBLEM,
	nameProblem,
	typedValue,
	VALUE_PROBLEM
} from '../../widgets/dock/counter-form.ts';

describe('the counter boxes', () => {
	it('read a whole number, with a minus, as typed around spaces', () => {
		expect(typedValue('12')).toEqual({ value: 12 });
		expect(typedValue(' -3 ')).toEqual({ value: -3 });
		expect(typedValue('−7')).toEqual({ value: -7 });
		expect(typedValue('0')).toEqual({ value: 0 });
		expect(typedValue('1000000000')).toEqual({ value: 1_000_000_000 });
	});

	it('say nothing for an empty box (nothing to send: Set is off, Create starts at 0)', () => {
		expect(typedValue('')).toEqual({ empty: true });
		expect(typedValue('  ')).toEqual({ empty: true });
		expect(typedValue(undefined)).toEqual({ empty: true });
	});

	it('give the reason for what is not a whole number the upstream takes', () => {
		for (const bad of ['abc', '2.5', '1e3', '0x10', '--1', '5 5', '1000000001', '-99999999999'])
			expect(typedValue(bad), bad).toEqual({ problem: VALUE_PROBLEM });
	});

	it("check a new counter's name as the upstream does, and say nothing before it is typed", () => {
		expect(nameProblem('')).toBeNull();
		expect(nameProblem('boss-fights_2')).toBeNull();
		expect(nameProblem('Boss Fights')).toBe(NAME_PROBLEM);
		expect(nameProblem('x'.repeat(65))).toBe(NAME_PROBLEM);
	});
});
