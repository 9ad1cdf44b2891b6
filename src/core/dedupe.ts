// Which event ids have been seen (CONTRACT.md, Realtime WebSocket: delivery is at-least-once, so
// consumers dedupe by `id`). Bounded, because an overlay may stay open for days: a ring of the last
// `capacity` ids plus a Set for O(1) lookups. Duplicates arrive within seconds of the original, so
// forgetting ids thousands of events old costs nothing.

export const DEFAULT_DEDUPE_CAPACITY = 2000;

export class EventDeduper {
	readonly #ids = new Set<string>();
	/** Insertion order; `next` is the slot of the oldest id once the ring is full. */
	readonly #ring: string[] = [];
	#next = 0;

	constructor(readonly capacity = DEFAULT_DEDUPE_CAPACITY) {
		if (!Number.isInteger(capacity) || capacity < 1)
			throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
	}

	/** Whether `id` was seen before; records it if not (evicting the oldest id when full). */
	seen(id: string): boolean {
		if (this.#ids.has(id)) return true;
		if (this.#ring.length < this.capacity) {
			this.#ring.push(id);
		} else {
			this.#ids.delete(this.#ring[this.#next]);
			this.#ring[this.#next] = id;
			this.#next = (this.#next + 1) % this.capacity;
		}
		this.#ids.add(id);
		return false;
	}

	/** Whether `id` is remembered, without recording it. */
	has(id: string): boolean {
		return this.#ids.has(id);
	}

	get size(): number {
		return this.#ids.size;
	}

	clear(): void {
		this.#ids.clear();
		this.#ring.length = 0;
		this.#next = 0;
	}
}
