// One upstream claim queue (TTS or media) as the live view keeps it (docs/upstream.md, which event
// keeps which part of the view): the items oldest first, the pause, the one claim. Each change
// says whether it was certain; one that is not ('reread') asks the caller to read the queue again.
import { RecentIds } from './recent-ids.ts';

/** What a change made of the queue: applied for sure, or the queue must be read again. */
export type Certainty = 'ok' | 'reread';

/** GET /tts/queue and GET /media/queue without the media's `visible`. */
export interface QueueBody<Item> {
	is_paused: boolean;
	currently_playing: boolean;
	current_order_id: string | null;
	items: Item[];
}

/**
 * Order ids that left the queue lately. Events come in any order (docs/upstream.md): a late
 * `tip.created` of a tip already finished must not queue it again. Duplicates and late events come
 * within seconds, so a short memory is enough, and it keeps the view small.
 */
const GONE_CAPACITY = 32;

export class QueueView<Item extends { order_id: string }> {
	paused = false;
	playing = false;
	current: string | null = null;
	items: Item[] = [];
	readonly #gone = new RecentIds(GONE_CAPACITY);

	snapshot(body: QueueBody<Item>): void {
		this.paused = body.is_paused;
		this.playing = body.currently_playing;
		this.current = body.current_order_id;
		this.items = body.items.slice();
	}

	body(): QueueBody<Item> {
		return {
			is_paused: this.paused,
			currently_playing: this.playing,
			current_order_id: this.current,
			items: this.items.slice()
		};
	}

	#at(orderId: string): number {
		return this.items.findIndex((i) => i.order_id === orderId);
	}

	/** A new item (tip.created, queue.media.added, queue.tts.replayed) goes to the end. */
	add(item: Item): Certainty {
		if (this.#gone.has(item.order_id) || this.#at(item.order_id) >= 0) return 'ok';
		this.items.push(item);
		return 'ok';
	}

	/** The item, changed by `change` (tip.tts_ready); an item never seen is a gap. */
	update(orderId: string, change: (item: Item) => Item): Certainty {
		const at = this.#at(orderId);
		if (at < 0) return this.#gone.has(orderId) ? 'ok' : 'reread';
		this.items[at] = change(this.items[at]);
		return 'ok';
	}

	/**
	 * The item was claimed (queue.{tts,media}.started): it holds the slot, as the event has it. An
	 * item never seen, or a claim taken from another item with no release seen, is a gap.
	 */
	start(item: Item): Certainty {
		const orderId = item.order_id;
		if (this.#gone.has(orderId)) return 'ok';
		const at = this.#at(orderId);
		const other = this.current !== null && this.current !== orderId;
		this.current = orderId;
		this.playing = true;
		if (at < 0) return 'reread';
		this.items[at] = item;
		return other ? 'reread' : 'ok';
	}

	/** The claim on `orderId` was dropped (released): a claim of another item stays. */
	release(orderId: string): Certainty {
		if (this.current === orderId) this.#unclaim();
		return 'ok';
	}

	/** The item left the queue (finished, skipped, removed): its claim goes with it. */
	drop(orderId: string): Certainty {
		this.#gone.seen(orderId);
		const at = this.#at(orderId);
		if (at >= 0) this.items.splice(at, 1);
		if (this.current === orderId) this.#unclaim();
		return 'ok';
	}

	/**
	 * Every item deleted (queue.tts.cleared). None is remembered as gone: a clear that comes after a
	 * read's answer may be older than items the answer holds, whose own events follow it and add
	 * them again.
	 */
	clear(): Certainty {
		this.items = [];
		this.#unclaim();
		return 'ok';
	}

	/** The claim dropped, the items kept (the media's playback state, reset by a TTS clear). */
	resetClaim(): Certainty {
		this.#unclaim();
		return 'ok';
	}

	setPaused(paused: boolean): Certainty {
		this.paused = paused;
		return 'ok';
	}

	#unclaim(): void {
		this.current = null;
		this.playing = false;
	}
}
