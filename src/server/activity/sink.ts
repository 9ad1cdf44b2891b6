// Where every event the kit hears of a streamer's stream is handed to be recorded once for the
// dock's Activity (docs/activity.md): the server's realtime intake (src/server/intake/intake.ts), the
// recovery after a reconnect or a takeover, and in hosted mode the upstream's signed webhooks. A
// leaf module, so that the intakes and the recorder need not import each other.
import type { EventEnvelope } from '../../contract/index.ts';

/** How the event reached the kit. */
export type HeardVia = 'realtime' | 'webhook' | 'recovered';

export interface ActivitySink {
	/**
	 * Records the event once per envelope id (delivery is at-least-once, and the same event may
	 * come by realtime and by webhook). Resolves once it is stored; never rejects into the caller's
	 * path (a store that fails is logged and the event tried again by the recorder).
	 */
	record(streamer: string, event: EventEnvelope, via: HeardVia): Promise<void>;
}
