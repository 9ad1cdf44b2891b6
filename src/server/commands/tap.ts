// Where the intakes (src/server/intake/intake.ts; hosted: src/hosted/intakes.ts) hand the events
// they hear to the command runner (runner.ts), which the app makes (src/server/app.ts) after the
// intakes exist. A leaf, so that the intakes and the app need not import each other.
import type { EventEnvelope } from '../../contract/index.ts';

export type EventListener = (streamer: string, event: EventEnvelope) => void;

export class EventTap {
	#listener: EventListener | null = null;

	/** The one listener (the app's command runner). */
	listen(listener: EventListener): void {
		this.#listener = listener;
	}

	heard(streamer: string, event: EventEnvelope): void {
		this.#listener?.(streamer, event);
	}
}
