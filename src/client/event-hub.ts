// One realtime connection per page feeds every widget on it: the hub fans events and resyncs out,
// and the messages of the page's push channel (live.ts), when the page opens one.
import type { KnownEvent, LiveMessage } from '../contract/index.ts';

export interface EventListener {
	/** A known, validated, deduplicated event. */
	event?(event: KnownEvent): void;
	/** The connection is (again) ready: re-read snapshots, events may have been missed. */
	resync?(): void;
	/** A message of the token endpoint's push channel (a decision or the rules changed). */
	live?(message: LiveMessage): void;
}

export class EventHub {
	readonly #listeners = new Set<EventListener>();

	subscribe(listener: EventListener): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	emit(event: KnownEvent): void {
		this.#each('events', event.type, (l) => l.event?.(event));
	}

	resync(): void {
		for (const l of this.#listeners) l.resync?.();
	}

	live(message: LiveMessage): void {
		this.#each('live', message.type, (l) => l.live?.(message));
	}

	/** One widget's bug must not starve the others: a listener that throws is logged, and skipped. */
	#each(channel: string, type: string, deliver: (l: EventListener) => void): void {
		for (const l of this.#listeners) {
			try {
				deliver(l);
			} catch (err) {
				console.error(`[${channel}] a widget failed to apply`, type, err);
			}
		}
	}
}
