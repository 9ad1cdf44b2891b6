// Where the token endpoint keeps the streamer's moderation rules and its decisions: a
// file in single mode (file-store.ts), PostgreSQL in hosted mode (src/hosted/moderation-store.ts).
// A decision is made once per tip and then never changes, except that a person settles a held
// tip (approve, reject): so every copy of a widget, on any instance, gets the same outcome.
import type { ModerationRules, StoredRules } from '../../contract/index.ts';
import type { Decision } from '../../core/moderation/decision.ts';
import { HttpError } from '../http-error.ts';
import type { PushSubscriptions } from '../live/push-channel.ts';

export type { Decision } from '../../core/moderation/decision.ts';

export interface ModerationStore {
	/** The streamer's rules; the defaults (no rule) at version 0 when none were saved. */
	rules(streamer: string): Promise<StoredRules>;
	/** Saves the rules as the next version and publishes `{ type: 'rules', version }`. */
	saveRules(streamer: string, rules: ModerationRules): Promise<StoredRules>;
	/** The stored decisions of these orders (an order with none is absent). */
	get(streamer: string, orderIds: readonly string[]): Promise<Map<string, Decision>>;
	/**
	 * Stores each proposal unless the order already has a decision, and returns the stored decision
	 * of every proposal: the first writer wins, on every instance.
	 */
	decide(streamer: string, proposals: readonly Decision[]): Promise<Map<string, Decision>>;
	/**
	 * A held tip's decision becomes `to` (approved or rejected) and `{ type: 'decision', order_id }`
	 * is published; null when the order is not held (any more): another dock settled it first.
	 */
	settle(streamer: string, orderId: string, to: Decision): Promise<Decision | null>;
	/**
	 * The push channel it publishes its changes on (src/server/live/push-channel.ts): the streamer's
	 * pages hear them, made on any instance.
	 */
	readonly push: PushSubscriptions;
	close?(): Promise<void>;
}

/** The answer when the decisions cannot be read (the store is out of reach): nothing is played. */
export const unavailable = () =>
	new HttpError(503, 'moderation_unavailable', 'the moderation decisions cannot be read now');
