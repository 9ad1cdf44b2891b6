// One queue with the start/finish/release claim protocol (docs/claim-protocol.md, the
// upstream's protocol; docs/upstream.md, the TTS and media calls). The TTS and media queues are two
// instances of it.
import { notFound, SimError } from '../errors.ts';

/** What became of an order id this queue has seen: 404 for unknown ids, 409 for gone ones. */
export type Disposition = 'queued' | 'played' | 'skipped' | 'removed' | 'cleared';

const HISTORY_LIMIT = 5000;

export class ClaimQueue<Item extends { order_id: string }, Played extends Item> {
	paused = false;
	/** The claimed order id; the claimed item stays at its position in `items`. */
	current: string | null = null;
	/** Oldest first. */
	readonly items: Item[] = [];
	/** Most recent first. */
	readonly history: Played[] = [];
	private readonly seen = new Map<string, Disposition>();

	constructor(
		private readonly label: 'TTS item' | 'media item',
		private readonly toPlayed: (item: Item) => Played
	) {}

	enqueue(item: Item): void {
		this.items.push(item);
		this.seen.set(item.order_id, 'queued');
	}

	find(orderId: string): Item | undefined {
		return this.items.find((i) => i.order_id === orderId);
	}

	disposition(orderId: string): Disposition | undefined {
		return this.seen.get(orderId);
	}

	/** The item if it is queued; 404 if never seen; 409 `not_in_queue` if it is gone. */
	private queued(orderId: string): Item {
		const item = this.find(orderId);
		if (item) return item;
		if (!this.seen.has(orderId)) throw notFound(`${this.label} ${orderId}`);
		throw new SimError(409, 'not_in_queue', `${this.label} ${orderId} is not in the queue`);
	}

	start(orderId: string): Item {
		const item = this.queued(orderId);
		// docs/upstream.md: the claimed item started again answers already_playing with its own id,
		// also while paused (the queue_paused rule is for queued items): a reloaded consumer finds its
		// claim this way and releases it.
		if (this.current === orderId) throw this.alreadyPlaying('it already holds the playing slot');
		if (this.paused) throw new SimError(409, 'queue_paused', 'the queue is paused');
		if (this.current !== null) throw this.alreadyPlaying('another item holds the playing slot');
		this.current = orderId;
		return item;
	}

	private alreadyPlaying(message: string): SimError {
		return new SimError(409, 'already_playing', message, {
			current_order_id: this.current
		});
	}

	finish(orderId: string): Played {
		const item = this.queued(orderId);
		if (this.current !== orderId)
			throw new SimError(409, 'not_playing', `${this.label} ${orderId} is queued but not claimed`);
		this.drop(item, 'played');
		const played = this.toPlayed(item);
		this.history.unshift(played);
		if (this.history.length > HISTORY_LIMIT) this.history.length = HISTORY_LIMIT;
		return played;
	}

	/** Drops the claim only when it points at this order id; otherwise a safe no-op. */
	release(orderId: string): { released: boolean; item: Item | null } {
		if (!this.seen.has(orderId)) throw notFound(`${this.label} ${orderId}`);
		const item = this.find(orderId) ?? null;
		if (this.current !== orderId) return { released: false, item };
		this.current = null;
		return { released: true, item };
	}

	/** Skips the claimed item, else the head. A skipped item does not enter the history. */
	skip(): Item | null {
		const target = (this.current !== null ? this.find(this.current) : undefined) ?? this.items[0];
		if (!target) return null;
		this.drop(target, 'skipped');
		return target;
	}

	remove(orderId: string): Item {
		const item = this.find(orderId);
		if (!item) throw notFound(`${this.label} ${orderId} in the queue`);
		this.drop(item, 'removed');
		return item;
	}

	/** Deletes every queued item; returns the order id whose claim was dropped, if any. */
	clear(): string | null {
		const claimed = this.current;
		for (const item of this.items) this.seen.set(item.order_id, 'cleared');
		this.items.length = 0;
		this.current = null;
		return claimed;
	}

	/** Drops the claim without touching the items (used when another queue is cleared). */
	resetClaim(): string | null {
		const claimed = this.current;
		this.current = null;
		return claimed;
	}

	/** A page of history strictly older than `before` (an order id); 400 on an unknown cursor. */
	page(
		limit: number,
		before?: string
	): { rows: Played[]; has_more: boolean; next_cursor: string | null } {
		let start = 0;
		if (before !== undefined) {
			const at = this.history.findIndex((h) => h.order_id === before);
			if (at < 0) throw new SimError(400, 'bad_cursor', `unknown cursor ${before}`);
			start = at + 1;
		}
		const rows = this.history.slice(start, start + limit);
		const has_more = start + limit < this.history.length;
		return { rows, has_more, next_cursor: has_more ? rows[rows.length - 1].order_id : null };
	}

	private drop(item: Item, why: Disposition): void {
		const at = this.items.indexOf(item);
		if (at >= 0) this.items.splice(at, 1);
		if (this.current === item.order_id) this.current = null;
		this.seen.set(item.order_id, why);
	}
}
