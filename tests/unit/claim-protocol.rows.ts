// The claim protocol reducer as a table (src/core/claim-protocol.ts; docs/claim-protocol.md;
// docs/upstream.md, the TTS and media calls and the open details), shared
// by the claim-protocol.*.test.ts files. Each row feeds inputs at explicit times. `fx` is the
// exact list of what a user notices in that step (start, play, finish, release, stop); `has` is
// an ordered subsequence of all its effects (remember, snapshot, wakeAt ...); `lacks` names
// effects that must not appear. A `timer` step fires the timer that the last `wakeAt` effect
// armed, at that time.
import { expect, it } from 'vitest';
import { type ClaimConfig } from '../../src/core/claim-protocol.ts';
import { Driver, input as I, show, tip, userVisible, type In } from './claim-harness.ts';

export interface Step {
	/** Simulated time of the input, or 'timer' for a `wake` at the armed time. */
	at: number | 'timer';
	in: In;
	fx?: string[];
	has?: string[];
	lacks?: string[];
	/** For timer steps: the time the timer must have been armed for. */
	when?: number;
}

export interface Row {
	name: string;
	config?: Partial<ClaimConfig>;
	steps: Step[];
	/** Checks over the whole run. */
	after?: (d: Driver) => void;
}

export type More = Pick<Step, 'has' | 'lacks' | 'when'>;

export const at = (t: number, i: In, fx?: string[], more: More = {}): Step => ({
	at: t,
	in: i,
	fx,
	...more
});

export const timer = (fx?: string[], more: More = {}): Step => ({
	at: 'timer',
	in: I.wake(),
	fx,
	...more
});

export const a = tip('a');

export const b = tip('b');

export const c = tip('c');

export const x = tip('x');

export const y = tip('y');

/** Eligible, then the first snapshot: the head is claimed at `t`. */
export const boot = (items = [a, b], t = 0): Step[] => [
	at(t, I.eligible(), []),
	at(t, I.snapshot(items), [`start ${items[0].orderId}`], {
		has: [`remember ${items[0].orderId}`, `start ${items[0].orderId}`]
	})
];

/** Boot, then the head's start succeeds at `t` and it plays. */
export const playing = (items = [a, b], t = 10): Step[] => [
	...boot(items),
	at(t, I.started(items[0].orderId), [`play ${items[0].orderId}`])
];

export function runRow(row: Row): Driver {
	const d = new Driver(row.config);
	row.steps.forEach((s, n) => {
		const label = `step ${n + 1} (${s.in.kind} at ${s.at})`;
		let effects;
		if (s.at === 'timer') {
			if (s.when !== undefined) expect(d.timer, `${label}: armed time`).toBe(s.when);
			effects = d.wake();
		} else effects = d.feed(s.in, s.at);
		const all = effects.map(show);
		if (s.fx) expect(userVisible(effects), `${label}: ${all.join(', ')}`).toEqual(s.fx);
		if (s.has) {
			let from = 0;
			for (const want of s.has) {
				const found = all.indexOf(want, from);
				expect(
					found,
					`${label}: expected "${want}" in order in [${all.join(', ')}]`
				).toBeGreaterThanOrEqual(0);
				from = found + 1;
			}
		}
		for (const not of s.lacks ?? [])
			expect(all, `${label}: must not contain "${not}"`).not.toContain(not);
	});
	row.after?.(d);
	return d;
}

export const table = (rows: Row[]) =>
	it.each(rows.map((r) => [r.name, r] as const))('%s', (_, r) => {
		runRow(r);
	});
