// The decisions this process knows: every decision the moderation store answered with (read,
// stored, settled) is kept in memory, so that when the store does not answer within the alert's
// deadline (src/server/deadline.ts) a tip decided or approved before keeps that decision rather
// than being decided again (moderator.ts). A decision changes only from `hold` to a person's
// outcome, so what is kept is at worst a `hold` settled on another instance: held a while longer,
// never played on a guess. Everything else passes through to the store.
import { LRUCache } from 'lru-cache';
import type { ModerationRules, StoredRules } from '../../contract/index.ts';
import type { Decision, ModerationStore } from './store.ts';

/** Decisions kept at most (hosted mode: every streamer's); past it the oldest go first. */
const KNOWN_MAX = 20_000;

export class KnownDecisions implements ModerationStore {
	readonly #store: ModerationStore;
	readonly #known = new LRUCache<string, Decision>({ max: KNOWN_MAX });
	readonly push: ModerationStore['push'];

	constructor(store: ModerationStore) {
		this.#store = store;
		this.push = store.push;
	}

	/** The decision of `key` (an order id, or a video's key) this process last knew of. */
	known(streamer: string, key: string): Decision | undefined {
		return this.#known.peek(`${streamer}\n${key}`);
	}

	rules(streamer: string): Promise<StoredRules> {
		return this.#store.rules(streamer);
	}

	saveRules(streamer: string, rules: ModerationRules): Promise<StoredRules> {
		return this.#store.saveRules(streamer, rules);
	}

	async get(streamer: string, orderIds: readonly string[]): Promise<Map<string, Decision>> {
		return this.#remember(streamer, await this.#store.get(streamer, orderIds));
	}

	async decide(streamer: string, proposals: readonly Decision[]): Promise<Map<string, Decision>> {
		return this.#remember(streamer, await this.#store.decide(streamer, proposals));
	}

	async settle(streamer: string, orderId: string, to: Decision): Promise<Decision | null> {
		const done = await this.#store.settle(streamer, orderId, to);
		if (done) this.#remember(streamer, new Map([[orderId, done]]));
		return done;
	}

	async close(): Promise<void> {
		await this.#store.close?.();
	}

	#remember(streamer: string, decisions: Map<string, Decision>): Map<string, Decision> {
		for (const [key, d] of decisions) this.#known.set(`${streamer}\n${key}`, d);
		return decisions;
	}
}
