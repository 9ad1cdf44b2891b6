// The live view's small memories of ids (src/core/view/recent-ids.ts): the same answers as the
// realtime client's dedupe (src/core/dedupe.ts), a FIFO of the last `capacity` ids recorded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventDeduper } from '../../src/core/dedupe.ts';
import { RecentIds } from '../../src/core/view/recent-ids.ts';

describe('RecentIds', () => {
	it('an id is new the first time and seen after; has() looks without recording', () => {
		const ids = new RecentIds(4);
		expect(ids.has('evt_1')).toBe(false);
		expect(ids.seen('evt_1')).toBe(false);
		expect(ids.seen('evt_1')).toBe(true);
		expect(ids.has('evt_1')).toBe(true);
		expect(ids.has('evt_2')).toBe(false);
	});

	it('past its capacity it forgets the oldest id first, and a repeat does not refresh one', () => {
		const ids = new RecentIds(2);
		for (const id of ['a', 'b', 'a', 'c']) ids.seen(id);
		expect(ids.has('a')).toBe(false);
		expect(ids.has('b') && ids.has('c')).toBe(true);
		expect(ids.seen('a')).toBe(false);
		expect(ids.has('b')).toBe(false);
	});

	it('refuses a capacity that is not a positive integer', () => {
		expect(() => new RecentIds(0)).toThrow(RangeError);
		expect(() => new RecentIds(2.5)).toThrow(RangeError);
	});

	it('answers as the event dedupe does, for any capacity and ids', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 40 }),
				fc.array(fc.string({ maxLength: 2 }), { maxLength: 300 }),
				(capacity, stream) => {
					const ids = new RecentIds(capacity);
					const reference = new EventDeduper(capacity);
					for (const id of stream) {
						expect(ids.has(id)).toBe(reference.has(id));
						expect(ids.seen(id)).toBe(reference.seen(id));
					}
				}
			)
		);
	});
});
