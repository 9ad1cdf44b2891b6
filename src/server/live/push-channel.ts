// The push channel's publish/subscribe (docs/push-channel.md): what the stores
// publish for a streamer (a decision, saved rules, saved settings) and what each open socket of
// that streamer's pages (sockets.ts) hears. One interface for every store and both modes: in
// memory here (single mode, one process), over PostgreSQL's NOTIFY in hosted mode
// (src/hosted/push-channel.ts), where `publish` takes the transaction the change is made in.
import type { LiveMessage } from '../../contract/index.ts';

export type LiveListener = (message: LiveMessage) => void;

export interface PushChannel<Tx = void> {
	/**
	 * Tells every page of `streamer` (on every instance); `tx`, hosted: the transaction of the
	 * change, whose commit sends it.
	 */
	publish(streamer: string, message: LiveMessage, tx: Tx): void | Promise<void>;
	/** Hands the streamer's messages to `listener` until the returned unsubscribe is called. */
	subscribe(streamer: string, listener: LiveListener): () => void;
}

/** A page's side of the channel: what the sockets and the stores' readers need. */
export type PushSubscriptions = Pick<PushChannel<never>, 'subscribe'>;

/** The channel in this process: single mode's, and the listeners of hosted mode's. */
export class MemoryPushChannel implements PushChannel {
	readonly #listeners = new Map<string, Set<LiveListener>>();

	subscribe(streamer: string, listener: LiveListener): () => void {
		let set = this.#listeners.get(streamer);
		if (!set) this.#listeners.set(streamer, (set = new Set()));
		// Its own entry: the same function subscribed twice is two subscriptions.
		const entry: LiveListener = (m) => listener(m);
		set.add(entry);
		return () => {
			set.delete(entry);
			if (set.size === 0 && this.#listeners.get(streamer) === set) this.#listeners.delete(streamer);
		};
	}

	publish(streamer: string, message: LiveMessage): void {
		for (const listener of [...(this.#listeners.get(streamer) ?? [])]) call(listener, message);
	}

	/** Every listener of every streamer, once each (hosted: after LISTEN came back). */
	publishAll(message: LiveMessage): void {
		for (const set of [...this.#listeners.values()])
			for (const listener of [...set]) call(listener, message);
	}
}

/** One listener's failure reaches neither the publisher nor the other listeners. */
function call(listener: LiveListener, message: LiveMessage): void {
	try {
		listener(message);
	} catch (err) {
		console.error('[live] a listener failed:', (err as Error).message);
	}
}
