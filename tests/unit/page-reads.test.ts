// A page's read answered from the live view (src/server/intake/page-reads.ts): at once when the
// view is sure; when it is not, the page waits for the answer on its way (the intake's read of the
// part) and is answered from it, but goes upstream at once when none is on its way, and past the
// wait when the read does not land. A tip goal of an overlay the view does not hold has the goals
// read again, shared by the pages that ask meanwhile and bounded for overlays that are not there.
// A read that names events the page's socket brought is answered once the view has them too, and
// goes upstream past the wait when it never does (an event waited for in vain is not waited for
// again).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Counter } from '../../src/contract/index.ts';
import {
	answerFromIntake,
	GOAL_MISS_MS,
	GOAL_REREAD_MS,
	seenEvents,
	type ViewSource
} from '../../src/server/intake/page-reads.ts';
import { FakeIntake } from '../fixtures/view-source.ts';

const counter = (name: string, value: number): Counter => ({
	name,
	value,
	created_at: '2026-11-29T12:00:00Z',
	updated_at: '2026-11-29T12:00:00Z'
});

/** The reads under way have come to their waits. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

const countersRead = (source: ViewSource, waitMs?: number) =>
	answerFromIntake(source, 'countersList', {}, {}, { waitMs });

describe('a page’s read from the view', () => {
	it('is answered at once when the view is sure, and not for a read the view does not keep', async () => {
		const intake = new FakeIntake();
		intake.read('counters');
		intake.land('counters', { counters: [counter('deaths', 3)] });
		expect(await countersRead(intake)).toEqual({ counters: [counter('deaths', 3)] });
		expect(await answerFromIntake(intake, 'me', {}, {})).toBeNull();
		expect(await answerFromIntake(intake, 'counterRead', { name: 'wins' }, {})).toBeNull();
	});

	it('waits for the read on its way and is answered from it, however many pages ask', async () => {
		const intake = new FakeIntake();
		intake.read('counters');
		const pages = Array.from({ length: 5 }, () => countersRead(intake, 60_000));
		intake.land('counters', { counters: [counter('wins', 1)] });
		for (const answer of await Promise.all(pages))
			expect(answer).toEqual({ counters: [counter('wins', 1)] });
	});

	it('goes upstream at once when no answer is on its way, and when the read on its way failed', async () => {
		const intake = new FakeIntake();
		expect(await countersRead(intake, 60_000)).toBeNull();
		intake.read('counters');
		const page = countersRead(intake, 60_000);
		intake.fail('counters');
		expect(await page).toBeNull();
	});

	it('goes upstream past the wait when the read does not land', async () => {
		const intake = new FakeIntake();
		intake.read('counters');
		expect(await countersRead(intake, 20)).toBeNull();
	});
});

describe('a page’s read naming the events its socket brought', () => {
	const counterEvent = (id: string, value: number) => ({
		id,
		type: 'counter.updated',
		created_at: '2026-11-29T12:00:01Z',
		data: { counter: counter('wins', value), previous: value - 1 }
	});
	/** An intake whose view is sure of the counters, the wins at 1. */
	function intakeWithWins(): FakeIntake {
		const intake = new FakeIntake();
		intake.read('counters');
		intake.land('counters', { counters: [counter('wins', 1)] });
		return intake;
	}
	const named = (source: ViewSource, seen: string[], waitMs = 60_000) =>
		answerFromIntake(source, 'countersList', {}, {}, { seen, waitMs });

	it('waits until the view has them, and is answered holding them', async () => {
		const intake = intakeWithWins();
		intake.hear(counterEvent('evt_a1', 2));
		const page = named(intake, ['evt_a1', 'evt_b2']);
		await settled();
		expect(intake.waiting).toBe(1);
		intake.hear(counterEvent('evt_b2', 3));
		expect(await page).toEqual({ counters: [expect.objectContaining({ value: 3 })] });
		// Had already: answered at once.
		expect(await named(intake, ['evt_b2'], 0)).toEqual({
			counters: [expect.objectContaining({ value: 3 })]
		});
	});

	it('goes upstream past the wait when the view never has one of them, and waits for it once', async () => {
		const intake = intakeWithWins();
		expect(await named(intake, ['evt_never'], 20)).toBeNull();
		// Named again (a read replayed long after, an event the view forgot): not waited for.
		expect(await named(intake, ['evt_never'])).toEqual({ counters: [counter('wins', 1)] });
	});

	it('takes only event ids from the header: anything else is ignored', () => {
		expect(seenEvents(undefined)).toEqual([]);
		expect(seenEvents('evt_a1, evt_b-2,tip_3,evt_,evt_x y,' + 'evt_' + 'z'.repeat(200))).toEqual([
			'evt_a1',
			'evt_b-2'
		]);
		const many = Array.from({ length: 40 }, (_, i) => `evt_${i}`).join(',');
		expect(seenEvents(many)).toHaveLength(16);
	});
});

describe('a page’s read of a tip goal the view does not hold', () => {
	const goal = (title: string) => ({
		enabled: true,
		title,
		amount: 100,
		starts_at: null,
		ends_at: null,
		current: 0
	});
	const goalRead = (source: ViewSource, overlayId: string) =>
		answerFromIntake(source, 'tipGoalRead', { overlayId }, {}, { waitMs: 60_000 });
	/** An intake whose view is sure of the goals of `ids`. */
	function intakeWith(...ids: string[]): FakeIntake {
		const intake = new FakeIntake();
		intake.read('goals');
		intake.land('goals', Object.fromEntries(ids.map((id) => [id, goal(id)])));
		intake.asked.length = 0;
		return intake;
	}

	afterEach(() => vi.useRealTimers());

	it('has the goals read again, once for every page that asks meanwhile, and is answered from it', async () => {
		const intake = intakeWith('o_1a2b3c4d');
		const pages = Array.from({ length: 5 }, () => goalRead(intake, 'o_0badc0de'));
		await settled();
		expect(intake.waiting).toBe(5);
		expect(intake.asked).toEqual(['goals']);
		intake.land('goals', { o_1a2b3c4d: goal('a'), o_0badc0de: goal('made later') });
		for (const answer of await Promise.all(pages))
			expect(answer).toEqual({ tip_goal: goal('made later') });
		expect(await goalRead(intake, 'o_0badc0de')).toEqual({ tip_goal: goal('made later') });
		expect(intake.asked).toEqual(['goals']);
	});

	it('for an overlay that is not there, reads the goals once for it and once in a while for any', async () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		const intake = intakeWith('o_1a2b3c4d');
		const missing = goalRead(intake, 'o_00000000');
		intake.land('goals', { o_1a2b3c4d: goal('a') });
		expect(await missing).toBeNull();
		// The same overlay again, even later: upstream at once, no read of the goals.
		vi.setSystemTime(Date.now() + GOAL_REREAD_MS);
		expect(await goalRead(intake, 'o_00000000')).toBeNull();
		expect(intake.asked).toEqual(['goals']);
		// Another one: one read of the goals, then none for a third this soon.
		const other = goalRead(intake, 'o_11111111');
		intake.land('goals', { o_1a2b3c4d: goal('a') });
		expect(await other).toBeNull();
		expect(await goalRead(intake, 'o_22222222')).toBeNull();
		expect(intake.asked).toEqual(['goals', 'goals']);
		// Long after, the first one may have the goals read again.
		vi.setSystemTime(Date.now() + GOAL_MISS_MS);
		const again = goalRead(intake, 'o_00000000');
		expect(intake.asked).toHaveLength(3);
		intake.land('goals', { o_1a2b3c4d: goal('a') });
		expect(await again).toBeNull();
	});

	it('a read the view never answers does not wait for a read of its part on its way', async () => {
		const intake = new FakeIntake();
		intake.read('ttsHistory');
		intake.land('ttsHistory', { tips: [], has_more: false });
		intake.read('ttsHistory');
		expect(
			await answerFromIntake(intake, 'ttsHistory', {}, { before: 'x' }, { waitMs: 60_000 })
		).toBeNull();
	});
});
