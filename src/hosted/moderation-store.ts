// Hosted mode's moderation store (src/server/moderation/store.ts): each streamer's rules
// and the decision made for each of their tips, in PostgreSQL (migration 004), shared by every
// instance.
// - A tip is decided once: the first instance to store a decision wins (INSERT ... ON CONFLICT DO
//   NOTHING, then the stored one is read back), and every instance hands out that one.
// - A held tip is settled once: the update applies only while the row is still `hold`, so of two
//   docks pressing Approve and Reject at once, on any instances, exactly one changes it.
// - Every change the pages hear of (saved rules, a settled tip) is published on the push channel
//   (push-channel.ts) in the change's own transaction: heard only once committed, on every
//   instance, by that streamer's pages only.
// - The rules are read for every tip decided, so each instance keeps them in memory, while (and
//   only while) it listens: a `rules` message, from whichever instance saved, drops them.
// Decisions older than KEEP_DECISIONS_MS are pruned, at most once per PRUNE_EVERY_MS, by a decide().
import { sql, type Selectable } from 'kysely';
import { DecisionRecord, ModerationRules, type StoredRules } from '../contract/index.ts';
import { decisionMessage } from '../core/moderation/video.ts';
import type { Decision, ModerationStore } from '../server/moderation/store.ts';
import { jsonColumn, type Db, type ModerationDecisionsTable } from './db.ts';
import { HostedPushChannel } from './push-channel.ts';

/** A decision is kept this long after it was made (or settled), then pruned. */
const KEEP_DECISIONS_MS = 30 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
/** Streamers whose rules an instance keeps in memory at most (the least recently read go). */
const RULES_CACHED_MAX = 1000;
/** Proposals stored per statement. */
const DECIDE_BATCH = 500;

type DecisionRow = Pick<
	Selectable<ModerationDecisionsTable>,
	'order_id' | 'decision' | 'outcome' | 'decided_at'
>;

export interface HostedModerationOptions {
	/** The clock of pruning (tests); decisions carry their own decidedAt. */
	now?: () => Date;
	/** The instance's push channel (serve.ts: one for every store); absent: the store makes its own. */
	push?: HostedPushChannel;
}

export class HostedModerationStore implements ModerationStore {
	private readonly now: () => Date;
	readonly push: HostedPushChannel;
	/** The push channel when this store made it (and so closes it). */
	private readonly ownPush: HostedPushChannel | null;
	private readonly leave: () => void;
	/** True while LISTEN is in place: only then may rules be kept in memory. */
	private heard = false;
	private readonly cached = new Map<string, StoredRules>();
	/** Bumped whenever what is in memory may be stale: a read begun before is not kept. */
	private epoch = 0;
	private prunedAt = -Infinity;
	private pruning: Promise<void> | null = null;
	private closed: Promise<void> | null = null;

	/** Listens at once: on the instance's LISTEN, or on one of its own (pg or PGlite). */
	constructor(
		private readonly db: Db,
		opts: HostedModerationOptions = {}
	) {
		this.now = opts.now ?? (() => new Date());
		this.ownPush = opts.push ? null : new HostedPushChannel(db);
		this.push = opts.push ?? this.ownPush!;
		this.leave = this.push.watch({
			// Saved on any instance: the rules kept in memory are stale.
			heard: (streamer, m) => m.type === 'rules' && this.dropRules(streamer),
			listening: () => {
				this.forget();
				this.heard = true;
			},
			lost: () => this.forget()
		});
	}

	/** The streamer's rules; kept for later reads on this instance, so not to be changed. */
	async rules(streamer: string): Promise<StoredRules> {
		const hit = this.cached.get(streamer);
		if (hit) {
			// Least recently read last: the first is the one to drop.
			this.cached.delete(streamer);
			this.cached.set(streamer, hit);
			return hit;
		}
		const epoch = this.epoch;
		const row = await this.db
			.selectFrom('moderation_rules')
			.select(['rules', 'version'])
			.where('streamer_id', '=', streamer)
			.executeTakeFirst();
		const stored = row
			? { rules: readRules(streamer, row.rules), version: row.version }
			: { rules: ModerationRules.parse({}), version: 0 };
		if (this.heard && epoch === this.epoch) {
			this.cached.set(streamer, stored);
			if (this.cached.size > RULES_CACHED_MAX) this.cached.delete(this.cached.keys().next().value!);
		}
		return stored;
	}

	async saveRules(streamer: string, rules: ModerationRules): Promise<StoredRules> {
		const version = await this.db.transaction().execute(async (tx) => {
			const row = await tx
				.insertInto('moderation_rules')
				.values({
					streamer_id: streamer,
					rules: JSON.stringify(rules),
					version: 1,
					updated_at: this.now()
				})
				.onConflict((oc) =>
					oc.column('streamer_id').doUpdateSet((eb) => ({
						rules: eb.ref('excluded.rules'),
						version: eb(eb.ref('moderation_rules.version'), '+', 1),
						updated_at: eb.ref('excluded.updated_at')
					}))
				)
				.returning('version')
				.executeTakeFirstOrThrow();
			await this.push.publish(streamer, { type: 'rules', version: row.version }, tx);
			return row.version;
		});
		this.dropRules(streamer);
		return { rules, version };
	}

	async get(streamer: string, orderIds: readonly string[]): Promise<Map<string, Decision>> {
		if (orderIds.length === 0) return new Map();
		const rows = await this.db
			.selectFrom('moderation_decisions')
			.select(['order_id', 'decision', 'outcome', 'decided_at'])
			.where('streamer_id', '=', streamer)
			.where((eb) => eb('order_id', '=', eb.fn.any(eb.val([...orderIds]))))
			.execute();
		return new Map(rows.map((row) => [row.order_id, toDecision(streamer, row)]));
	}

	async decide(streamer: string, proposals: readonly Decision[]): Promise<Map<string, Decision>> {
		// One proposal per order: the first.
		const first = new Map<string, Decision>();
		for (const p of proposals) if (!first.has(p.orderId)) first.set(p.orderId, p);
		if (first.size === 0) return new Map();
		const all = [...first.values()];
		for (let i = 0; i < all.length; i += DECIDE_BATCH)
			await this.store(streamer, all.slice(i, i + DECIDE_BATCH));
		this.pruneNowAndThen();
		return this.get(streamer, [...first.keys()]);
	}

	async settle(streamer: string, orderId: string, to: Decision): Promise<Decision | null> {
		const decision = { ...to, orderId };
		return this.db.transaction().execute(async (tx) => {
			const row = await tx
				.updateTable('moderation_decisions')
				.set({
					decision: JSON.stringify(decision),
					outcome: decision.outcome,
					decided_at: decision.decidedAt
				})
				.where('streamer_id', '=', streamer)
				.where('order_id', '=', orderId)
				.where('outcome', '=', 'hold')
				.returning(['order_id', 'decision', 'outcome', 'decided_at'])
				.executeTakeFirst();
			if (!row) return null;
			await this.push.publish(streamer, decisionMessage(orderId), tx);
			return toDecision(streamer, row);
		});
	}

	/** Stops listening and waits for a prune under way; call before the database is destroyed. */
	close(): Promise<void> {
		return (this.closed ??= (async () => {
			this.leave();
			await this.ownPush?.close();
			await this.pruning;
			this.forget();
		})());
	}

	/** Stores proposals for orders without a decision; the others' stay as they are. */
	private async store(streamer: string, proposals: readonly Decision[]): Promise<void> {
		// Arrays, not a row of parameters each: one statement text (db.ts names each) for any count.
		const column = <T>(f: (d: Decision) => T) => proposals.map(f);
		await sql`insert into moderation_decisions
			(streamer_id, order_id, decision, outcome, decided_at)
			select ${streamer}, d.order_id, d.decision::jsonb, d.outcome, d.decided_at::timestamptz
			from unnest(
				${column((d) => d.orderId)}::text[], ${column((d) => JSON.stringify(d))}::text[],
				${column((d) => d.outcome)}::text[], ${column((d) => d.decidedAt)}::text[]
			) as d(order_id, decision, outcome, decided_at)
			on conflict (streamer_id, order_id) do nothing`.execute(this.db);
	}

	/** Deletes the decisions past keeping, in the background, at most once per PRUNE_EVERY_MS. */
	private pruneNowAndThen(): void {
		const now = this.now().getTime();
		if (this.pruning || this.closed || now - this.prunedAt < PRUNE_EVERY_MS) return;
		this.prunedAt = now;
		this.pruning = this.db
			.deleteFrom('moderation_decisions')
			.where('decided_at', '<', new Date(now - KEEP_DECISIONS_MS))
			.execute()
			.then(
				() => {},
				(err: Error) => console.error('[moderation] pruning old decisions failed:', err.message)
			)
			.finally(() => (this.pruning = null));
	}

	/** Nothing in memory can be trusted any more (not listening, or changes may be missed). */
	private forget(): void {
		this.heard = false;
		this.cached.clear();
		this.epoch++;
	}

	private dropRules(streamer: string): void {
		this.cached.delete(streamer);
		this.epoch++;
	}
}

/** Stored rules, read with the contract's schema; unreadable ones are no rule (and logged). */
function readRules(streamer: string, stored: unknown): ModerationRules {
	const parsed = ModerationRules.safeParse(jsonColumn(stored));
	if (parsed.success) return parsed.data;
	// The fields only, never the rules' text (the blocked words).
	const fields = parsed.error.issues.map((i) => i.path.join('.') || '(rules)').join(', ');
	console.error(`[moderation] the stored rules of ${streamer} are unreadable (${fields}): no rule`);
	return ModerationRules.parse({});
}

function toDecision(streamer: string, row: DecisionRow): Decision {
	const parsed = DecisionRecord.safeParse(jsonColumn(row.decision));
	if (parsed.success) return { orderId: row.order_id, ...parsed.data };
	// Never thrown (every read of the queue would fail): the row's own columns, and a person
	// decides a tip whose outcome is unreadable too.
	console.error(`[moderation] the stored decision of ${streamer} ${row.order_id} is unreadable`);
	const outcome = DecisionRecord.shape.outcome.safeParse(row.outcome);
	return {
		orderId: row.order_id,
		outcome: outcome.success ? outcome.data : 'hold',
		rule: null,
		spans: [],
		by: 'rules',
		decidedAt: new Date(row.decided_at).toISOString()
	};
}
