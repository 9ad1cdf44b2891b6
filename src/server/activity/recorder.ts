// The Activity's recorder (docs/activity.md): the ActivitySink (sink.ts) every intake hands what it
// heard to, after its view has it. Each streamer's records are applied one at a time, in the order
// heard, by the store (store.ts), never awaited by the intake; a store that fails is tried again a
// few times, then logged. A tip recorded is decided by the moderation rules as a page's read would
// (the first decision stored wins), and a decision changed later (approved, rejected) is kept.
// What changed is told on the push channel as `{ type: 'activity', ids }`: hints, no viewer text.
import type { ActivityEntry } from '../../contract/activity.ts';
import type { EventEnvelope, LiveMessage, QueueTip, TipModeration } from '../../contract/index.ts';
import { moderationUpdate, thanksUpdate, tipKey } from '../../core/activity/entries.ts';
import { eventUpdates } from '../../core/activity/from-event.ts';
import type { ViewPart } from '../../core/view/parts.ts';
import type { ThanksPosted } from '../chat/thanker.ts';
import type { IntakeHeard } from '../intake/intake.ts';
import { MemoryPushChannel, type PushSubscriptions } from '../live/push-channel.ts';
import type { UpstreamClient } from '../upstream.ts';
import { pageBack, readHeard } from './recovery.ts';
import type { ActivitySink, HeardVia } from './sink.ts';
import type { ActivityStore, Heard } from './store.ts';

/** Waits before a failed store is tried again; past the last, the records are logged as lost. */
const AGAIN_MS = [1_000, 5_000, 30_000];
/** How often what is past the retention is dropped. */
const PRUNE_MS = 3_600_000;

/** What moderation gives the recorder: a tip's decision as the dock sees it, and its changes. */
export interface RecorderModeration {
	decide(streamer: string, tip: QueueTip): Promise<TipModeration | null>;
	/** Calls `changed(orderId)` when a decision of the streamer changes; returns the unsubscribe. */
	watch(streamer: string, changed: (orderId: string) => void): () => void;
}

export interface RecorderOptions {
	store: ActivityStore;
	retentionDays: number;
	/** Hosted: tells the message on every instance (NOTIFY); absent: this process's `push`. */
	publish?: (streamer: string, message: LiveMessage) => void | Promise<void>;
	log?: (line: string) => void;
	now?: () => number;
}

export class ActivityRecorder implements ActivitySink {
	/** Single mode's channel of the Activity's messages (the dock's sockets subscribe to it). */
	readonly push: PushSubscriptions;
	readonly store: ActivityStore;
	readonly #lines = new Map<string, Promise<unknown>>();
	readonly #watching = new Map<string, () => void>();
	readonly #publish: (streamer: string, message: LiveMessage) => void | Promise<void>;
	readonly #log: (line: string) => void;
	readonly #now: () => number;
	readonly #retentionMs: number;
	#moderation: RecorderModeration | null = null;
	#pruning: NodeJS.Timeout | null = null;

	constructor(o: RecorderOptions) {
		const channel = new MemoryPushChannel();
		this.push = channel;
		this.store = o.store;
		this.#publish = o.publish ?? ((s, m) => channel.publish(s, m));
		this.#log = o.log ?? ((line) => console.warn(line));
		this.#now = o.now ?? Date.now;
		this.#retentionMs = o.retentionDays * 86_400_000;
	}

	/** The app's moderation (app.ts makes it after the recorder). */
	useModeration(moderation: RecorderModeration): void {
		this.#moderation = moderation;
	}

	/** The retention's start now (ms). */
	get since(): number {
		return this.#now() - this.#retentionMs;
	}

	record(streamer: string, event: EventEnvelope, via: HeardVia): Promise<void> {
		const made = eventUpdates(event, via);
		if (!made.ok) {
			this.#log(`[activity] event ${event.type} dropped: ${made.error}`);
			return Promise.resolve();
		}
		return this.apply(streamer, [{ eventId: event.id, updates: made.updates }]).then(() => {});
	}

	/**
	 * A thanks the kit posted in chat (chat/thanker.ts): one entry per tip it thanked, recorded once
	 * per message (its id is the record's), whichever instance posted it.
	 */
	thanked(streamer: string, sent: ThanksPosted): Promise<void> {
		const at = new Date(sent.at).toISOString();
		const updates = sent.tips.map((t) => thanksUpdate(t.orderId, t.name, sent.text, at));
		return this.apply(streamer, [{ eventId: `thanks:${sent.msg}`, updates }]).then(() => {});
	}

	/** Applies `heard` after the streamer's earlier records; the entries it made or changed. */
	apply(streamer: string, heard: Heard[]): Promise<ActivityEntry[]> {
		const before = this.#lines.get(streamer) ?? Promise.resolve();
		const work = before.then(() => this.#applyNow(streamer, heard, 0));
		const line = work.catch(() => {});
		this.#lines.set(streamer, line);
		void line.then(() => {
			if (this.#lines.get(streamer) === line) this.#lines.delete(streamer);
		});
		return work;
	}

	async #applyNow(streamer: string, heard: Heard[], attempt: number): Promise<ActivityEntry[]> {
		let changed: ActivityEntry[];
		try {
			changed = await this.store.apply(streamer, heard, this.#now());
		} catch (err) {
			const wait = AGAIN_MS[attempt];
			if (wait === undefined) {
				this.#log(`[activity] ${heard.length} record(s) lost: ${(err as Error).message}`);
				return [];
			}
			await new Promise((resolve) => setTimeout(resolve, wait).unref());
			return this.#applyNow(streamer, heard, attempt + 1);
		}
		if (changed.length) this.#changed(streamer, changed);
		return changed;
	}

	#changed(streamer: string, changed: ActivityEntry[]): void {
		const ids = changed.map((e) => e.id);
		void Promise.resolve(this.#publish(streamer, { type: 'activity', ids })).catch((err: Error) =>
			this.#log(`[activity] telling the docks failed: ${err.message}`)
		);
		for (const e of changed)
			if (e.kind === 'tip' && e.moderation === null && e.outcome === 'queued')
				void this.#decide(streamer, e);
	}

	/** The tip's decision, stored by moderation and kept in its entry. */
	async #decide(streamer: string, e: Extract<ActivityEntry, { kind: 'tip' }>): Promise<void> {
		const moderation = this.#moderation;
		if (!moderation) return;
		if (!this.#watching.has(streamer))
			this.#watching.set(
				streamer,
				moderation.watch(streamer, (orderId) => void this.#decisionChanged(streamer, orderId))
			);
		const tip = { order_id: e.order_id, name: e.name, amount: e.amount, message: e.message };
		const decided = await moderation.decide(streamer, tip as QueueTip).catch(() => null);
		if (decided)
			await this.apply(streamer, [
				{
					eventId: null,
					updates: [moderationUpdate(e.id, decided, new Date(this.#now()).toISOString())]
				}
			]);
	}

	async #decisionChanged(streamer: string, orderId: string): Promise<void> {
		const e = (await this.store.get(streamer, [tipKey(orderId)]).catch(() => null))?.get(
			tipKey(orderId)
		);
		if (e?.kind === 'tip') await this.#decide(streamer, { ...e, moderation: null });
	}

	/** The intake's hook (intake.ts, IntakeHeard) for `streamer`, reading with `upstream`. */
	heardBy(streamer: string, upstream: Pick<UpstreamClient, 'call'>): IntakeHeard {
		/** Histories to page back once their first read after a connect lands. */
		const owed = new Set<ViewPart>();
		let paging: Promise<void> = Promise.resolve();
		return {
			event: (envelope) => void this.record(streamer, envelope, 'realtime'),
			ready: () => {
				owed.add('ttsHistory');
				owed.add('mediaHistory');
			},
			read: (part, body) => {
				const heard = readHeard(part, body, new Date(this.#now()).toISOString());
				if (!heard) return;
				const recorded = this.apply(streamer, heard);
				const next = (body as { has_more?: boolean; next_cursor?: string | null }).next_cursor;
				if (!owed.delete(part) || !next) return;
				const queue = part === 'ttsHistory' ? 'tts' : 'media';
				// One paging at a time per intake, after this read's rows are recorded.
				paging = paging.then(() =>
					recorded.then(() => this.#pageBack(streamer, upstream, queue, next))
				);
			}
		};
	}

	#pageBack(
		streamer: string,
		upstream: Pick<UpstreamClient, 'call'>,
		queue: 'tts' | 'media',
		before: string
	) {
		return pageBack(queue, before, {
			upstream,
			since: this.since,
			log: this.#log,
			record: (heard) => this.apply(streamer, heard),
			recorded: async (keys) => new Set((await this.store.get(streamer, keys)).keys())
		}).catch((err: Error) =>
			this.#log(`[activity] recovering ${queue} history failed: ${err.message}`)
		);
	}

	/** Tells the streamer's docks to read the Activity again (history deleted). */
	async told(streamer: string): Promise<void> {
		await Promise.resolve(this.#publish(streamer, { type: 'activity' })).catch(() => {});
	}

	/** Drops what is past the retention now, and every PRUNE_MS after. */
	startPruning(): void {
		if (this.#pruning) return;
		const prune = () =>
			void this.store
				.prune(this.since)
				.catch((err: Error) => this.#log(`[activity] pruning failed: ${err.message}`));
		prune();
		this.#pruning = setInterval(prune, PRUNE_MS);
		this.#pruning.unref();
	}

	/** Waits for the records under way, stops pruning and watching; the store stays the owner's. */
	async stop(): Promise<void> {
		if (this.#pruning) clearInterval(this.#pruning);
		this.#pruning = null;
		for (const unwatch of this.#watching.values()) unwatch();
		this.#watching.clear();
		await Promise.all([...this.#lines.values()]);
	}
}
