// Which event ids have been seen (docs/upstream.md, realtime WebSocket: delivery is at-least-once,
// so consumers dedupe by `id`). Bounded, because an overlay may stay open for days: a ring of the
// last `capacity` ids plus a Set for O(1) lookups. Duplicates arrive within seconds of the
// original, so forgetting ids thousands of events old costs nothing.
import { Ring } from './ring.ts';

export const DEFAULT_DEDUPE_CAPACITY = 2000;

export class EventDeduper {
	readonly #ids = new Set<string>();
	/** Insertion order: the id to forget when a new one comes and the ring is full. */
	readonly #ring: Ring<string>;

	constructor(readonly capacity = DEFAULT_DEDUPE_CAPACITY) {
		if (!Number.isInteger(capacity) || capacity < 1)
			throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
		this.#ring = new Ring(capacity);
	}

	/** Whether `id` was seen before; records it if not (evicting the oldest id when full). */
	seen(id: string): boolean {
		if (this.#ids.has(id)) return true;
		const oldest = this.#ring.push(id);
		if (oldest !== undefined) this.#ids.delete(oldest);
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
		this.#ring.clear();
	}
}
