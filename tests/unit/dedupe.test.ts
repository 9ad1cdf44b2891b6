import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DEDUPE_CAPACITY, EventDeduper } from '../../src/core/dedupe.ts';

describe('EventDeduper', () => {
	it('an id is new the first time and seen every time after', () => {
		const d = new EventDeduper();
		expect(d.seen('evt_1')).toBe(false);
		expect(d.seen('evt_1')).toBe(true);
		expect(d.seen('evt_1')).toBe(true);
		expect(d.seen('evt_2')).toBe(false);
		expect(d.size).toBe(2);
	});

	it('has() looks without recording', () => {
		const d = new EventDeduper();
		expect(d.has('evt_1')).toBe(false);
		expect(d.seen('evt_1')).toBe(false);
		expect(d.has('evt_1')).toBe(true);
	});

	it('remembers 2000 ids by default', () => {
		expect(new EventDeduper().capacity).toBe(DEFAULT_DEDUPE_CAPACITY);
		expect(DEFAULT_DEDUPE_CAPACITY).toBe(2000);
	});

	it('past its capacity it forgets the oldest id first', () => {
		const d = new EventDeduper(3);
		for (const id of ['a', 'b', 'c', 'd']) d.seen(id);
		expect(d.size).toBe(3);
		expect(d.has('a')).toBe(false);
		expect(['b', 'c', 'd'].every((id) => d.has(id))).toBe(true);
		// A forgotten id counts as new again, and evicts the next oldest.
		expect(d.seen('a')).toBe(false);
		expect(d.has('b')).toBe(false);
	});

	it('seeing a remembered id again does not refresh or duplicate it', () => {
		const d = new EventDeduper(2);
		d.seen('a');
		d.seen('b');
		d.seen('a');
		d.seen('c');
		expect(d.has('a')).toBe(false);
		expect(d.has('b')).toBe(true);
		expect(d.size).toBe(2);
	});

	it('clear forgets everything', () => {
		const d = new EventDeduper(2);
		d.seen('a');
		d.clear();
		expect(d.size).toBe(0);
		expect(d.seen('a')).toBe(false);
	});

	it('refuses a capacity that is not a positive integer', () => {
		expect(() => new EventDeduper(0)).toThrow(RangeError);
		expect(() => new EventDeduper(1.5)).toThrow(RangeError);
	});

	it('memory stays bounded and the most recent ids are always remembered', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 50 }),
				fc.array(fc.string({ maxLength: 3 }), { maxLength: 400 }),
				(capacity, ids) => {
					const d = new EventDeduper(capacity);
					// Reference model: a plain FIFO of the last `capacity` ids recorded.
					const fifo: string[] = [];
					for (const id of ids) {
						const expected = fifo.includes(id);
						if (!expected) {
							fifo.push(id);
							if (fifo.length > capacity) fifo.shift();
						}
						expect(d.seen(id)).toBe(expected);
						expect(d.size).toBeLessThanOrEqual(capacity);
					}
					for (const id of fifo) expect(d.has(id)).toBe(true);
				}
			)
		);
	});

	it('an id seen within the last capacity distinct ids is reported as a duplicate', () => {
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 200 }), (stream) => {
				const d = new EventDeduper(1000);
				const reference = new Set<number>();
				for (const n of stream) {
					expect(d.seen(`evt_${n}`)).toBe(reference.has(n));
					reference.add(n);
				}
			})
		);
	});
});
