// Single mode's moderation store: the rules and the decisions in one JSON file beside the overlay
// key (MODERATION_FILE, default .moderation.json), held in memory and written durably before any
// change is answered, so a decision survives a crash of the server. `where` null: memory only
// (tests, and the demo's throwaway store). One process serves one streamer, so the streamer
// argument is only a key of the push channel.
import { z } from 'zod';
import {
	DecisionRecord,
	describeIssues,
	ModerationRules,
	type StoredRules
} from '../../contract/index.ts';
import type { Decision } from '../../core/moderation/decision.ts';
import { decisionMessage } from '../../core/moderation/video.ts';
import { readStored, writeDurably } from '../durable-file.ts';
import { MemoryPushChannel } from '../live/push-channel.ts';
import type { ModerationStore } from './store.ts';

/** Decisions older than this are dropped: their tips have long been played or removed. */
const KEEP_DECISIONS_MS = 30 * 24 * 3600_000;
const MAX_DECISIONS = 20_000;

const FileShape = z.object({
	version: z.number().int(),
	rules: z.unknown(),
	decisions: z.array(z.unknown())
});

export class ModerationFileError extends Error {}

export class FileModerationStore implements ModerationStore {
	readonly #where: string | null;
	#stored: StoredRules = { rules: ModerationRules.parse({}), version: 0 };
	readonly #decisions = new Map<string, Decision>();
	/** Writes run one after another, each with the state of its moment. */
	#writing: Promise<void> = Promise.resolve();

	/** `push`: the channel it publishes on (the app's, shared with the settings store). */
	constructor(
		where: string | null,
		readonly push = new MemoryPushChannel()
	) {
		this.#where = where;
		if (where !== null) this.#load(where);
	}

	async rules(): Promise<StoredRules> {
		return this.#stored;
	}

	async saveRules(streamer: string, rules: ModerationRules): Promise<StoredRules> {
		this.#stored = { rules: ModerationRules.parse(rules), version: this.#stored.version + 1 };
		await this.#persist();
		this.push.publish(streamer, { type: 'rules', version: this.#stored.version });
		return this.#stored;
	}

	async get(_streamer: string, orderIds: readonly string[]): Promise<Map<string, Decision>> {
		const found = new Map<string, Decision>();
		for (const id of orderIds) {
			const d = this.#decisions.get(id);
			if (d) found.set(id, d);
		}
		return found;
	}

	async decide(_streamer: string, proposals: readonly Decision[]): Promise<Map<string, Decision>> {
		const stored = new Map<string, Decision>();
		let added = false;
		for (const p of proposals) {
			const had = this.#decisions.get(p.orderId);
			if (!had) {
				this.#decisions.set(p.orderId, p);
				added = true;
			}
			stored.set(p.orderId, had ?? p);
		}
		if (added) await this.#persist();
		return stored;
	}

	async settle(streamer: string, orderId: string, to: Decision): Promise<Decision | null> {
		if (this.#decisions.get(orderId)?.outcome !== 'hold') return null;
		this.#decisions.set(orderId, to);
		await this.#persist();
		this.push.publish(streamer, decisionMessage(orderId));
		return to;
	}

	/** A file that cannot be read or parsed stops the server with its name: nothing is lost silently. */
	#load(where: string): void {
		const text = readStored(where, ModerationFileError);
		if (text === null) return;
		let file: z.infer<typeof FileShape>;
		try {
			file = FileShape.parse(JSON.parse(text));
		} catch {
			throw new ModerationFileError(
				`${where} is not a moderation file (fix it, or move it away to start with no rules)`
			);
		}
		const rules = ModerationRules.safeParse(file.rules);
		if (!rules.success)
			throw new ModerationFileError(
				`${where}: the rules are not valid (${describeIssues(rules.error, ['rules'])})`
			);
		this.#stored = { rules: rules.data, version: file.version };
		for (const row of file.decisions) {
			const orderId = (row as { orderId?: unknown } | null)?.orderId;
			const d = DecisionRecord.safeParse(row);
			if (d.success && typeof orderId === 'string')
				this.#decisions.set(orderId, { ...d.data, orderId });
		}
	}

	#persist(): Promise<void> {
		const where = this.#where;
		if (where === null) return Promise.resolve();
		this.#prune();
		const text =
			JSON.stringify({
				version: this.#stored.version,
				rules: this.#stored.rules,
				decisions: [...this.#decisions.values()]
			}) + '\n';
		const write = this.#writing.then(() => writeDurably(where, text));
		this.#writing = write.catch(() => {});
		return write;
	}

	#prune(): void {
		const oldest = Date.now() - KEEP_DECISIONS_MS;
		for (const [id, d] of this.#decisions)
			if (Date.parse(d.decidedAt) < oldest || this.#decisions.size > MAX_DECISIONS)
				this.#decisions.delete(id);
			else break;
	}
}
