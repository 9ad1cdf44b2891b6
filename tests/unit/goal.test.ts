import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TipGoal } from '../../src/contract/index.ts';
import {
	applyAdd,
	applyTip,
	barFraction,
	countdownParts,
	crossesGoal,
	formatCountdown,
	GoalTally,
	goalPercent,
	goalState,
	inWindow,
	nextChangeMs,
	reachedKey,
	type GoalTip
} from '../../src/core/goal.ts';

const goal = (patch: Partial<TipGoal> = {}): TipGoal => ({
	enabled: true,
	title: 'Mic',
	amount: 100,
	starts_at: null,
	ends_at: null,
	current: 0,
	...patch
});

let n = 0;
const tip = (patch: Partial<GoalTip> = {}): GoalTip => ({
	order_id: `tip_${++n}_x`,
	amount: 10,
	is_paid: true,
	queued_at: '2024-05-01T12:00:00Z',
	...patch
});

const at = (iso: string) => Date.parse(iso);

describe('applyTip', () => {
	const window = { starts_at: '2024-05-01T10:00:00Z', ends_at: '2024-05-01T14:00:00Z' };
	it.each([
		['a paid tip inside the window counts', {}, 10],
		['an unpaid tip does not count', { is_paid: false }, 0],
		['a tip without an amount does not count', { amount: null }, 0],
		['a tip before the start does not count', { queued_at: '2024-05-01T09:59:59.999Z' }, 0],
		['a tip exactly at the start counts', { queued_at: '2024-05-01T10:00:00Z' }, 10],
		['a tip exactly at the end counts', { queued_at: '2024-05-01T14:00:00Z' }, 10],
		['a tip after the end does not count', { queued_at: '2024-05-01T14:00:00.001Z' }, 0],
		[
			'+09:00: 19:00 in Tokyo is 10:00 UTC, the start',
			{ queued_at: '2024-05-01T19:00:00+09:00' },
			10
		],
		['+09:00: 18:59 in Tokyo is before the start', { queued_at: '2024-05-01T18:59:00+09:00' }, 0],
		[
			'-05:00: 09:00 in New York is 14:00 UTC, the end',
			{ queued_at: '2024-05-01T09:00:00-05:00' },
			10
		],
		['-05:00: 09:01 in New York is after the end', { queued_at: '2024-05-01T09:01:00-05:00' }, 0],
		['a paid tip of 0.1 adds cents exactly', { amount: 0.1 }, 0.1]
	] as const)('%s', (_name, patch, added) => {
		const g = goal({ ...window, current: 0.2 });
		expect(applyTip(g, tip(patch)).current).toBe(Math.round((0.2 + added) * 100) / 100);
	});

	it('a window given in other zones compares instants', () => {
		const g = goal({
			starts_at: '2024-05-01T19:00:00+09:00',
			ends_at: '2024-05-01T09:00:00-05:00'
		});
		expect(inWindow(g, at('2024-05-01T10:00:00Z'))).toBe(true);
		expect(inWindow(g, at('2024-05-01T14:00:00Z'))).toBe(true);
		expect(inWindow(g, at('2024-05-01T09:59:59Z'))).toBe(false);
		expect(inWindow(g, at('2024-05-01T14:00:01Z'))).toBe(false);
	});

	it('open bounds count everything', () => {
		expect(applyTip(goal(), tip({ queued_at: '1999-01-01T00:00:00Z' })).current).toBe(10);
	});

	it('a tip that does not count returns the same goal object', () => {
		const g = goal();
		expect(applyTip(g, tip({ is_paid: false }))).toBe(g);
	});

	it('adds move the goal, negative adds too', () => {
		expect(applyAdd(goal({ current: 5 }), 20).current).toBe(25);
		expect(applyAdd(goal({ current: 5 }), -2.5).current).toBe(2.5);
	});
});

describe('percentage and state', () => {
	it.each([
		[0, 100, 0, 0],
		[50, 100, 50, 0.5],
		[100, 100, 100, 1],
		[250, 100, 250, 1],
		[10, 0, 0, 0],
		[-5, 100, 0, 0]
	])('%d of %d is %d%% with the bar at %d', (current, amount, percent, fraction) => {
		expect(goalPercent({ current, amount })).toBe(percent);
		expect(barFraction({ current, amount })).toBe(fraction);
	});

	const g = goal({ starts_at: '2024-05-01T10:00:00+02:00', ends_at: '2024-05-02T10:00:00+02:00' });
	it.each([
		['2024-05-01T07:59:59Z', 'not-started'],
		['2024-05-01T08:00:00Z', 'running'],
		['2024-05-02T08:00:00Z', 'running'],
		['2024-05-02T08:00:00.001Z', 'ended']
	])('at %s the goal is %s', (now, state) => {
		expect(goalState(g, at(now))).toBe(state);
	});

	it('a disabled goal is disabled whatever the time', () => {
		expect(goalState({ ...g, enabled: false }, at('2024-05-01T09:00:00Z'))).toBe('disabled');
	});
});

describe('countdown', () => {
	const end = '2024-05-01T12:00:00Z';
	it.each([
		['2024-04-29T08:59:30Z', '2d 3h 00m'],
		['2024-05-01T08:55:00Z', '3h 05m'],
		['2024-05-01T11:55:59Z', '4m'],
		['2024-05-01T11:59:00Z', '60s'],
		['2024-05-01T11:59:15Z', '45s'],
		['2024-05-01T11:59:59.5Z', '1s'],
		['2024-05-01T12:00:00Z', '0s'],
		['2024-05-01T13:00:00Z', '0s']
	])('at %s it shows %s', (now, text) => {
		expect(formatCountdown(countdownParts(end, at(now))!)).toBe(text);
	});

	it('no end, no countdown', () => {
		expect(countdownParts(null, 0)).toBeNull();
	});

	it.each([
		['a minute step', '2024-05-01T11:50:30Z', 30_001],
		['the switch to seconds', '2024-05-01T11:58:59.5Z', 500],
		['a second step', '2024-05-01T11:59:30.25Z', 750],
		['the end', '2024-05-01T12:00:00Z', 1]
	])('the next change is %s', (_name, now, ms) => {
		expect(nextChangeMs(goal({ ends_at: end }), at(now))).toBe(ms);
	});

	it('nothing changes with time when running without an end, ended or disabled', () => {
		expect(nextChangeMs(goal(), 0)).toBeNull();
		expect(nextChangeMs(goal({ ends_at: end }), at('2024-05-01T12:00:01Z'))).toBeNull();
		expect(nextChangeMs(goal({ enabled: false, ends_at: end }), 0)).toBeNull();
	});

	it('a goal not started yet wakes at its start', () => {
		expect(nextChangeMs(goal({ starts_at: end }), at('2024-05-01T11:00:00Z'))).toBe(3_600_000);
	});

	it('property: the display does not change before the next change, and changes at it', () => {
		const endMs = at(end);
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 3 * 24 * 3600_000 }), (before) => {
				const now = endMs - before;
				const g = goal({ ends_at: end });
				const show = (t: number) =>
					`${goalState(g, t)} ${formatCountdown(countdownParts(end, t)!)}`;
				const delay = nextChangeMs(g, now)!;
				expect(delay).toBeGreaterThan(0);
				expect(show(now + delay - 1)).toBe(show(now));
				expect(show(now + delay)).not.toBe(show(now));
			})
		);
	});
});

describe('GoalTally: each tip counted once', () => {
	const read = (t: GoalTally, g: TipGoal, now: number) => {
		t.beginRead(now);
		t.endRead(g, now + 10);
	};

	it('a paid tip after a settled read counts at once', () => {
		const t = new GoalTally();
		read(t, goal({ current: 40 }), 0);
		const v = t.tip(tip({ queued_at: new Date(5000).toISOString() }), 5000);
		expect(v).toEqual({ kind: 'applied', goal: goal({ current: 50 }) });
	});

	it('a duplicate tip.created (same order id) never counts twice', () => {
		const t = new GoalTally();
		read(t, goal(), 0);
		const x = tip({ queued_at: new Date(5000).toISOString() });
		expect(t.tip(x, 5000).kind).toBe('applied');
		expect(t.tip({ ...x }, 5100).kind).toBe('duplicate');
		expect(t.goal!.current).toBe(10);
	});

	it('a tip seen before a read is not counted again after it', () => {
		const t = new GoalTally();
		read(t, goal(), 0);
		const x = tip({ queued_at: new Date(5000).toISOString() });
		t.tip(x, 5000);
		read(t, goal({ current: 10 }), 6000); // the read includes it
		expect(t.tip(x, 9000).kind).toBe('duplicate');
		expect(t.goal!.current).toBe(10);
	});

	it('a tip arriving while a read is in flight is a doubt (re-read)', () => {
		const t = new GoalTally();
		read(t, goal(), 0);
		t.beginRead(5000);
		expect(t.tip(tip({ queued_at: new Date(5001).toISOString() }), 5002).kind).toBe('doubt');
		expect(t.goal!.current).toBe(0);
	});

	it('a tip arriving just after a read landed is a doubt', () => {
		const t = new GoalTally({ doubtMs: 1000 });
		read(t, goal(), 5000);
		expect(t.tip(tip({ queued_at: new Date(5500).toISOString() }), 5500).kind).toBe('doubt');
	});

	it('a late event for a tip queued before the last read started is a doubt', () => {
		const t = new GoalTally();
		read(t, goal(), 5000);
		expect(t.tip(tip({ queued_at: new Date(4999).toISOString() }), 9000).kind).toBe('doubt');
	});

	it('unpaid, amountless and out-of-window tips are not counted; before a read all is doubt', () => {
		const t = new GoalTally();
		expect(t.tip(tip(), 0).kind).toBe('doubt');
		read(t, goal({ starts_at: '2024-05-01T00:00:00Z' }), 0);
		const later = new Date(9000).toISOString();
		expect(t.tip(tip({ is_paid: false, queued_at: later }), 9000).kind).toBe('not-counted');
		expect(t.tip(tip({ amount: null, queued_at: later }), 9000).kind).toBe('not-counted');
		expect(t.tip(tip({ queued_at: '2023-01-01T00:00:00Z' }), 9000).kind).toBe('not-counted');
	});

	it('a goal event is the truth and opens a doubt window', () => {
		const t = new GoalTally();
		read(t, goal(), 0);
		t.takeTruth(goal({ current: 70 }), 5000);
		expect(t.goal!.current).toBe(70);
		expect(t.tip(tip({ queued_at: new Date(5100).toISOString() }), 5100).kind).toBe('doubt');
	});

	it('a read that was in flight when a goal event landed does not bring back the older goal', () => {
		const t = new GoalTally();
		read(t, goal({ title: 'Old' }), 0);
		t.beginRead(1000);
		t.takeTruth(goal({ title: 'New', current: 70 }), 1005);
		t.endRead(goal({ title: 'Old', current: 40 }), 1010);
		expect(t.goal).toMatchObject({ title: 'New', current: 70 });
		// The read after it (nothing landed meanwhile) is taken as it answers.
		read(t, goal({ title: 'Newer', current: 75 }), 2000);
		expect(t.goal).toMatchObject({ title: 'Newer', current: 75 });
	});

	it('property: whatever the order and repeats of events, a settled tally equals the sum', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.record({
						amount: fc.option(fc.integer({ min: 1, max: 500 }), { nil: null }),
						paid: fc.boolean(),
						repeats: fc.integer({ min: 1, max: 3 })
					}),
					{ maxLength: 30 }
				),
				(specs) => {
					const t = new GoalTally({ doubtMs: 0 });
					read(t, goal({ amount: 1000 }), 0);
					let expected = 0;
					let now = 1000;
					const tips = specs.map((s, i) => {
						if (s.paid && s.amount !== null) expected += s.amount;
						return {
							t: tip({
								order_id: `tip_${i}_p`,
								amount: s.amount,
								is_paid: s.paid,
								queued_at: new Date(now + i).toISOString()
							}),
							repeats: s.repeats
						};
					});
					for (const { t: x, repeats } of tips)
						for (let r = 0; r < repeats; r++) t.tip(x, now++ + 100);
					expect(t.goal!.current).toBe(expected);
				}
			)
		);
	});
});

describe('reaching the goal', () => {
	it.each([
		['crossing from below fires', { current: 90 }, { current: 100 }, true],
		['passing well over fires', { current: 90 }, { current: 250 }, true],
		['staying below does not', { current: 10 }, { current: 99.99 }, false],
		['already reached does not fire again', { current: 100 }, { current: 120 }, false],
		['first seen already reached does not fire', null, { current: 120 }, false]
	] as const)('%s', (_n, before, after, fires) => {
		expect(crossesGoal(before, { ...goal(), ...after })).toBe(fires);
	});

	it('a goal of 0 is never reached, a disabled goal never fires', () => {
		expect(crossesGoal({ current: 0 }, goal({ amount: 0, current: 5 }))).toBe(false);
		expect(crossesGoal({ current: 0 }, goal({ enabled: false, current: 100 }))).toBe(false);
	});

	it('the memory key names the overlay, the amount and the start', () => {
		expect(reachedKey('o_1a2b3c4d', goal({ starts_at: '2024-05-01T00:00:00Z' }))).toBe(
			'tok:goal-reached:o_1a2b3c4d:100:2024-05-01T00:00:00Z'
		);
	});
});
