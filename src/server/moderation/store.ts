// Where the token endpoint keeps the streamer's moderation rules and its decisions: a kind of kept
// state (src/server/store/kept.ts), its meta the rules and their version, its entries the decision
// of each tip by order id (none open: a decision is read when named), each kept KEEP_DECISIONS_MS.
// A decision is made once per tip and then never changes, except that a person settles a held tip
// (approve, reject): so every copy of a widget, on any instance, gets the same outcome. Every rules
// change tells `rules`, so hosted instances keep the rules in memory (they are read for every tip
// decided) until any instance saves. Single mode keeps them in MODERATION_FILE (default
// .moderation.json, beside the overlay key); a line of it that cannot be read stops the server with
// the file's name: it decides what is read aloud.
import { z } from 'zod/mini';
import { DecisionRecord, ModerationRules, type StoredRules } from '../../contract/index.ts';
import type { Decision } from '../../core/moderation/decision.ts';
import { decisionMessage } from '../../core/moderation/video.ts';
import { HttpError } from '../http-error.ts';
import type { MemoryPushChannel, PushSubscriptions } from '../live/push-channel.ts';
import { FileKeptStore } from '../store/file-kept.ts';
import type { KeptStore, Kind } from '../store/kept.ts';

export type { Decision } from '../../core/moderation/decision.ts';

/** A decision is kept this long after it was made (or settled): its tip has long been played. */
const KEEP_DECISIONS_MS = 30 * 24 * 3600_000;

const Rules = z.object({ rules: ModerationRules, version: z.int() });
const StoredDecision = z.extend(DecisionRecord, { orderId: z.string() });

export const MODERATION: Kind<StoredRules, Decision> = {
	name: 'moderation',
	meta: Rules,
	entry: StoredDecision,
	empty: () => ({ rules: ModerationRules.parse({}), version: 0 }),
	dropAt: (d) => Date.parse(d.decidedAt) + KEEP_DECISIONS_MS,
	// No rule, at the version stored: the next save is a version later.
	unreadable: (stored) => {
		const version = z.object({ version: z.int() }).safeParse(stored);
		return { rules: ModerationRules.parse({}), version: version.data?.version ?? 0 };
	},
	metaTold: 'rules'
};

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

/** The rules and decisions kept in `kept` (hosted: src/hosted/kept-store.ts). */
export const moderationStore = (
	kept: KeptStore<StoredRules, Decision>
): Required<ModerationStore> => ({
	push: kept.push,
	rules: async (streamer) => {
		const { rules, version } = await kept.read(streamer);
		return { rules, version };
	},
	saveRules: (streamer, rules) =>
		kept.update(streamer, (s, tell) => {
			s.rules = rules;
			s.version++;
			tell({ type: 'rules', version: s.version });
			return { rules, version: s.version };
		}),
	get: async (streamer, orderIds) =>
		new Map(Object.entries((await kept.read(streamer, orderIds)).entries)),
	decide: async (streamer, proposals) => {
		// One proposal per order: the first.
		const first = new Map<string, Decision>();
		for (const p of proposals) if (!first.has(p.orderId)) first.set(p.orderId, p);
		return new Map(Object.entries(await kept.add(streamer, [...first])));
	},
	settle: (streamer, orderId, to) =>
		kept.update(
			streamer,
			(s, tell) => {
				if (s.entries[orderId]?.outcome !== 'hold') return null;
				s.entries[orderId] = { ...to, orderId };
				tell(decisionMessage(orderId));
				return s.entries[orderId];
			},
			[orderId]
		),
	close: async () => kept.close?.()
});

/**
 * Single mode's: the journal `where` (null: memory only, tests and the demo). The earlier whole
 * file `{ version, rules, decisions: [...] }` reads as is (a decision that cannot be read skipped).
 */
export const moderationFile = (where: string | null, push?: MemoryPushChannel) =>
	moderationStore(
		new FileKeptStore(MODERATION, {
			where,
			variable: 'MODERATION_FILE',
			unreadable: 'stop',
			push,
			upgrade: (json) => {
				const { decisions, ...rest } = json as { decisions?: unknown };
				if (!Array.isArray(decisions)) return json;
				const read = decisions.filter((d) => StoredDecision.safeParse(d).success);
				return { ...rest, entries: Object.fromEntries(read.map((d) => [d.orderId, d])) };
			}
		})
	);

/** The answer when the decisions cannot be read (the store is out of reach): nothing is played. */
export const unavailable = () =>
	new HttpError(503, 'moderation_unavailable', 'the moderation decisions cannot be read now');
