// The dock's tip goal form (widgets/dock/goal-form.ts): what Save sends, and what it refuses before
// sending, as the upstream would.
import { describe, expect, it } from 'vitest';
import type { TipGoal } from '../../src/contract/index.ts';
import { formOf, formProblems, goalEdit, isoOf, localInput } from '../../widgets/dock/goal-form.ts';

const GOAL: TipGoal = {
	enabled: true,
	title: 'New microphone',
	amount: 250,
	starts_at: '2026-11-28T00:00:00.000Z',
	ends_at: null,
	current: 40
};

describe('the tip goal form', () => {
	it('sends nothing for a form as it was read, and only the fields changed', () => {
		expect(goalEdit(GOAL, formOf(GOAL))).toEqual({});
		expect(goalEdit(GOAL, { ...formOf(GOAL), title: 'Chair', amount: '400' })).toEqual({
			title: 'Chair',
			amount: 400
		});
		expect(goalEdit(GOAL, { ...formOf(GOAL), enabled: false })).toEqual({ enabled: false });
	});

	it('reads and writes dates in local time, and an emptied date clears it', () => {
		const local = localInput(GOAL.starts_at);
		expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
		expect(isoOf(local)).toBe(GOAL.starts_at);
		expect(goalEdit(GOAL, { ...formOf(GOAL), starts: '' })).toEqual({ starts_at: null });
		const ends = goalEdit(GOAL, { ...formOf(GOAL), ends: '2026-12-24T18:30' });
		expect(new Date(ends.ends_at!).getHours()).toBe(18);
	});

	it('refuses, by field, what the upstream would refuse', () => {
		expect(formProblems(formOf(GOAL))).toEqual({});
		expect(formProblems({ ...formOf(GOAL), amount: '2000000' })).toHaveProperty('amount');
		expect(formProblems({ ...formOf(GOAL), amount: '' })).toHaveProperty('amount');
		expect(formProblems({ ...formOf(GOAL), title: 'x'.repeat(81) })).toHaveProperty('title');
		expect(formProblems({ ...formOf(GOAL), ends: '2026-11-27T10:00' })).toEqual({
			ends_at: 'must come after the start'
		});
	});
});
