// The last `capacity` items in the order they came, in fixed memory: once full, each new item
// takes the slot of the oldest. The realtime client's event-id dedupe and the simulator's log.

export class Ring<T> {
	readonly items: T[] = [];
	/** The slot of the oldest item once the ring is full. */
	next = 0;

	constructor(readonly capacity: number) {}

	/** Adds `item`; returns the oldest item it replaced when the ring was full. */
	push(item: T): T | undefined {
		if (this.items.length < this.capacity) {
			this.items.push(item);
			return undefined;
		}
		const oldest = this.items[this.next];
		this.items[this.next] = item;
		this.next = (this.next + 1) % this.capacity;
		return oldest;
	}

	clear(): void {
		this.items.length = 0;
		this.next = 0;
	}
}

/**
 * A ring's items, oldest first (a function, so that pages that never list them do not ship it):
 * the ring's own array until it has wrapped around (no copy), a new one after.
 */
export function oldestFirst<T>(ring: Ring<T>): readonly T[] {
	return ring.next === 0
		? ring.items
		: ring.items.slice(ring.next).concat(ring.items.slice(0, ring.next));
}
