// The last few ids the live view saw (docs/upstream.md: delivery is at-least-once and in any order):
// the events' ids for the dedupe, the order ids that left a queue. A few dozen at most, so one
// fixed array searched from end to end: a Set beside it for the lookups would cost as much again as
// the ids themselves, in every streamer's view (bench/view-memory.ts), to save a scan of a few
// dozen short strings per event.
export class RecentIds {
	readonly #ids: string[] = [];
	/** The slot of the oldest id once the array is full. */
	#next = 0;

	constructor(readonly capacity: number) {
		if (!Number.isInteger(capacity) || capacity < 1)
			throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
	}

	/** Whether `id` was seen before; records it if not (in the oldest id's slot when full). */
	seen(id: string): boolean {
		if (this.has(id)) return true;
		if (this.#ids.length < this.capacity) this.#ids.push(id);
		else {
			this.#ids[this.#next] = id;
			this.#next = (this.#next + 1) % this.capacity;
		}
		return false;
	}

	/** Whether `id` is remembered, without recording it. */
	has(id: string): boolean {
		return this.#ids.includes(id);
	}

	/** The ids remembered, oldest first. */
	list(): string[] {
		return [...this.#ids.slice(this.#next), ...this.#ids.slice(0, this.#next)];
	}
}
