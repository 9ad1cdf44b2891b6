// The push channel's listeners in this process, per streamer: the single-mode store publishes to
// it directly; the hosted store publishes what PostgreSQL's LISTEN hears from every instance.
import type { LiveMessage } from '../../contract/index.ts';

export class LocalHub {
	readonly #listeners = new Map<string, Set<(m: LiveMessage) => void>>();

	subscribe(streamer: string, listener: (m: LiveMessage) => void): () => void {
		let set = this.#listeners.get(streamer);
		if (!set) this.#listeners.set(streamer, (set = new Set()));
		set.add(listener);
		return () => {
			set.delete(listener);
			if (set.size === 0 && this.#listeners.get(streamer) === set) this.#listeners.delete(streamer);
		};
	}

	publish(streamer: string, message: LiveMessage): void {
		for (const listener of this.#listeners.get(streamer) ?? []) listener(message);
	}

	/** Every listener of every streamer (after the listening connection came back). */
	publishAll(message: LiveMessage): void {
		for (const set of this.#listeners.values()) for (const listener of set) listener(message);
	}
}
