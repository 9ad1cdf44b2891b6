// The widgets' still samples (sample=1): what they show follows the URL's parameters as the live
// widget does (the named counter with its label, a list's `limit`), and the goal's figures agree.
import { describe, expect, it } from 'vitest';
import { sampleCountersModel } from '../../widgets/counters/sample.ts';
import { parseCountersParams } from '../../widgets/counters/params.ts';
import { sampleSupporters } from '../../widgets/leaderboard/sample.ts';
import { sampleRecent } from '../../widgets/recent/sample.ts';
import { sampleGoalView } from '../../widgets/tip-goal/sample.ts';
import { barFraction, countdownParts, formatCountdown, goalPercent } from '../../src/core/goal.ts';

const KEY = 'abcdefghijklmnop1234';

function counters(query: string) {
	const r = parseCountersParams(`?key=${KEY}&sample=1${query}`);
	if (!r.ok) throw new Error(r.errors.join('; '));
	return sampleCountersModel(r.value);
}

describe('the counters sample', () => {
	it('shows a few counters, read and ready, under the label as a heading', () => {
		const m = counters('&label=Tonight');
		expect(m.status).toBe('ready');
		expect(m.shown.length).toBeGreaterThan(1);
		expect(m.shown.map((c) => m.labelOf(c.name))).toEqual(m.shown.map((c) => c.name));
	});

	it('shows the named counter alone, with its label', () => {
		const m = counters('&name=Deaths&label=Deaths%20today');
		expect(m.shown.map((c) => [m.labelOf(c.name), c.value])).toEqual([['Deaths today', 12345]]);
	});

	it('shows every counter when an overlay widget would pick one: a sample reads no overlay', () => {
		const m = counters('&overlay=o_1a2b3c4d&widget=w_main_counters');
		expect(m.shown.length).toBeGreaterThan(1);
	});
});

describe('the list samples', () => {
	it.each([
		['recent events', sampleRecent],
		['top supporters', sampleSupporters]
	] as const)('%s: as many rows as `limit` says, each once', (_, sample) => {
		expect(sample(2).rows).toHaveLength(2);
		const all = sample(50);
		expect(all.rows.length).toBeGreaterThanOrEqual(4);
		expect(new Set(all.rows.map((r) => r.key)).size).toBe(all.rows.length);
		expect(all).toMatchObject({ status: 'ready', loaded: true });
	});

	it('the board ranks the supporters by their totals', () => {
		const rows = sampleSupporters(25).rows;
		expect(rows.map((r) => r.rank)).toEqual(rows.map((_, i) => i + 1));
		expect(rows.map((r) => r.total)).toEqual(rows.map((r) => r.total).sort((a, b) => b - a));
	});
});

it('the goal sample is 60 % raised, its bar and countdown as the live widget computes them', () => {
	const goal = sampleGoalView().goal!;
	expect(goal.percent).toBe(60);
	expect(goalPercent(goal)).toBe(goal.percent);
	expect(barFraction(goal)).toBe(goal.fraction);
	const inTwoHours = new Date(Date.UTC(2025, 0, 1, 2, 15)).toISOString();
	const parts = countdownParts(inTwoHours, Date.UTC(2025, 0, 1))!;
	expect(formatCountdown(parts)).toBe(goal.countdown);
});
