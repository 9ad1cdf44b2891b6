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
		for (const l of this.#listeners) {
			try {
				l.event?.(event);
			} catch (err) {
				// One widget's bug must not starve the others of events.
				console.error('[events] a widget failed to apply', event.type, err);
			}
		}
	}

	resync(): void {
		for (const l of this.#listeners) l.resync?.();
	}

	live(message: LiveMessage): void {
		for (const l of this.#listeners) {
			try {
				l.live?.(message);
			} catch (err) {
				console.error('[live] a widget failed to apply', message.type, err);
			}
		}
	}
}
