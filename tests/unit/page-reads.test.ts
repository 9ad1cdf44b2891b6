// A page's read answered from the live view (src/server/intake/page-reads.ts): at once when the
// view is sure; when it is not, the page waits for the answer on its way (the intake's read of the
// part) and is answered from it, but goes upstream at once when none is on its way, and past the
// wait when the read does not land.
import { describe, expect, it } from 'vitest';
import type { Counter } from '../../src/contract/index.ts';
import { answerFromIntake, type ViewSource } from '../../src/server/intake/page-reads.ts';
import { FakeIntake } from '../fixtures/view-source.ts';

const counter = (name: string, value: number): Counter => ({
	name,
	value,
	created_at: '2026-11-29T12:00:00Z',
	updated_at: '2026-11-29T12:00:00Z'
});

const countersRead = (source: ViewSource, waitMs?: number) =>
	answerFromIntake(source, 'countersList', {}, {}, waitMs);

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
