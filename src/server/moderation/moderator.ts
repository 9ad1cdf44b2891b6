// The token endpoint's side of moderation (docs/moderation.md): every tip and video it hands out
// is decided first (the stored decision, or the rules' decision stored now: the first one stays),
// and rewritten for its audience (decision.ts `present`, video.ts `presentVideo`). A tip or video
// whose decision is `remove` is deleted upstream and left out; a tip that is not read aloud has no
// audio URL; `start` is a gate: only a tip decided `read` or `no_voice`, a video decided `read`, is
// claimed. Videos are decided in videos.ts, with their tip's decision; a person's Approve and
// Reject in settle.ts. The routes (proxy.ts, control.ts, moderation.ts) talk to this object only.
// A page's call waits on the store STORE_DEADLINE_MS at most (src/server/deadline.ts): past it a
// tip is decided from the decisions this process knows (known.ts) and the rules it holds compiled
// (compiled-rules.ts), and its decision is stored afterwards; one those rules hold waits for it.
import { LRUCache } from 'lru-cache';
import type { ModerationRules, QueueMediaItem, QueueTip } from '../../contract/index.ts';
import { present, type Decision } from '../../core/moderation/decision.ts';
import { videoKey } from '../../core/moderation/video.ts';
import { HttpError } from '../http-error.ts';
import type { UpstreamClient } from '../upstream.ts';
import { messageOf, settle, type Verdict } from './settle.ts';
import { isTip, readItems, TIPS } from './upstream-items.ts';
import { unavailable, type ModerationStore } from './store.ts';
import { isVideoRoute, Videos, type VideoRoute } from './videos.ts';
import { KnownDecisions } from './known.ts';
import { CompiledRules, type Compiled } from './compiled-rules.ts';
import { StoreDeadline } from '../deadline.ts';

type Audience = 'page' | 'dock';

/** The forwarded answers that carry tips, and where the tips are in their bodies. */
export const TIP_ROUTES = {
	ttsQueue: 'items',
	ttsHistory: 'tips',
	ttsStart: 'tip',
	ttsFinish: 'tip',
	// A release answers with the tip (docs/upstream.md): any page may send one (a takeover does).
	ttsRelease: 'tip'
} as const;
export type TipRoute = keyof typeof TIP_ROUTES;

const isTipRoute = (name: string): name is TipRoute => Object.hasOwn(TIP_ROUTES, name);

/** The forwarded answers the token endpoint decides and rewrites: tips' and videos'. */
export type ModeratedRoute = TipRoute | VideoRoute;
export const isModeratedRoute = (name: string): name is ModeratedRoute =>
	isTipRoute(name) || isVideoRoute(name);

type Queue = 'tts' | 'media';
const PATH = { tts: 'tts', media: 'media' } as const;

/** A removal asked of the upstream is not asked again this soon (every page reads the queue). */
const REMOVE_AGAIN_MS = 10_000;
/**
 * A claim given back after a start of a tip that may not be played is asked again after these
 * waits when the upstream refused it (a 429, a 5xx): kept, it would hold the queue's one claim until
 * a page's takeover (90 s).
 */
const GIVE_BACK_RETRY_MS = [1_000, 2_000, 4_000, 8_000, 16_000];
/** A decision made from memory that could not be stored is tried again after these waits. */
const STORE_AGAIN_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];

const playable = (d: Decision | undefined) => d?.outcome === 'read' || d?.outcome === 'no_voice';

export class Moderator {
	/** The store, through the decisions this process knows (known.ts). */
	readonly store: KnownDecisions;
	readonly #log: (message: string) => void;
	/** Per streamer: the rules compiled, kept fresh (compiled-rules.ts). */
	readonly #rules: CompiledRules;
	/** How long a page's call waits on the store (src/server/deadline.ts). */
	readonly deadline = new StoreDeadline();
	/** What was asked to be deleted lately: not asked again before REMOVE_AGAIN_MS. */
	readonly #removing = new LRUCache<string, true>({ max: 10_000, ttl: REMOVE_AGAIN_MS });
	readonly videos: Videos;

	constructor(store: ModerationStore, log: (message: string) => void = console.warn) {
		this.store = new KnownDecisions(store);
		this.#log = log;
		this.#rules = new CompiledRules(store, log);
		this.videos = new Videos(this, log);
	}

	/** The streamer's rules and their version. */
	rules(streamer: string) {
		return this.store.rules(streamer);
	}

	/** Saves the rules as the next version (the open docks and pages hear of it). */
	saveRules(streamer: string, rules: ModerationRules) {
		return this.store.saveRules(streamer, rules);
	}

	/** Approve or Reject of a held tip (`tts`) or video (`media`): settle.ts. */
	settle(
		streamer: string,
		upstream: UpstreamClient,
		o: { how: Verdict; queue: Queue; orderId: string }
	) {
		return settle(this, streamer, upstream, o);
	}

	/** A held tip's message as the viewer wrote it (the dock's Reveal); 404 when not listed. */
	message(upstream: UpstreamClient, orderId: string): Promise<string | null> {
		return messageOf(upstream, orderId);
	}

	/**
	 * The decision of each tip: the stored one, or the rules' one, stored now. The store is waited
	 * for STORE_DEADLINE_MS at most (src/server/deadline.ts); past it, or when it fails, a tip is
	 * decided from memory (`fromMemory`) and the store's work settles afterwards. Null when the
	 * store failed and nothing is in memory: nothing is decided then, and nothing is played.
	 */
	async decisions(
		streamer: string,
		tips: readonly Pick<QueueTip, 'order_id' | 'name' | 'amount' | 'message'>[]
	): Promise<Map<string, Decision> | null> {
		if (tips.length === 0) {
			// A page's first read of an empty queue: the rules are in memory before its first tip.
			if (!this.inMemory(streamer)) void this.compiled(streamer).catch(() => {});
			return new Map();
		}
		const work = this.#decideStored(streamer, tips);
		const inTime = await this.deadline.wait(work).catch((err: Error) => {
			this.#log(`moderation: decisions not available (${err.message})`);
			return null;
		});
		if (inTime?.done) return inTime.value;
		const guessed = this.fromMemory(streamer, tips);
		if (inTime === null && guessed.size === 0) return null;
		// What the rules in memory decided, stored once the store answers (the first writer wins).
		const compiled = this.inMemory(streamer);
		const proposals = compiled
			? tips.filter((t) => !this.store.known(streamer, t.order_id)).map(compiled.judge)
			: [];
		void work.then(
			(stored) => this.#compare(streamer, guessed, stored),
			() => this.#storeLater(streamer, proposals)
		);
		return guessed;
	}

	/** Decisions made from memory whose storing failed: stored again after STORE_AGAIN_MS. */
	#storeLater(streamer: string, proposals: Decision[], attempt = 0): void {
		if (proposals.length === 0) return;
		const wait = STORE_AGAIN_MS[attempt];
		if (wait === undefined) {
			this.#log(`moderation: ${proposals.length} decision(s) of ${streamer} could not be stored`);
			return;
		}
		const again = () =>
			this.store.decide(streamer, proposals).then(
				(stored) => this.#compare(streamer, new Map(proposals.map((p) => [p.orderId, p])), stored),
				() => this.#storeLater(streamer, proposals, attempt + 1)
			);
		setTimeout(() => void again(), wait).unref?.();
	}

	/**
	 * The tips' decisions without the store: the decision this process knows (known.ts), else the
	 * rules it holds compiled. A tip those rules would hold or remove is `hold` until its decision
	 * is stored (nothing is deleted on a decision not stored): pages pass it over, it plays for no
	 * one. With no rules in memory (a fresh process) a tip is absent: undecided, it waits.
	 */
	fromMemory(
		streamer: string,
		tips: readonly Pick<QueueTip, 'order_id' | 'name' | 'amount' | 'message'>[]
	): Map<string, Decision> {
		const out = new Map<string, Decision>();
		const compiled = this.inMemory(streamer);
		for (const tip of tips) {
			const known = this.store.known(streamer, tip.order_id);
			const d = known ?? compiled?.judge(tip);
			if (d) out.set(tip.order_id, known || playable(d) ? d : { ...d, outcome: 'hold' });
		}
		return out;
	}

	async #decideStored(
		streamer: string,
		tips: readonly Pick<QueueTip, 'order_id' | 'name' | 'amount' | 'message'>[]
	): Promise<Map<string, Decision>> {
		const known = await this.store.get(
			streamer,
			tips.map((t) => t.order_id)
		);
		const fresh = tips.filter((t) => !known.has(t.order_id));
		if (fresh.length === 0) return known;
		const { judge: judgeTip } = await this.compiled(streamer);
		const stored = await this.store.decide(streamer, fresh.map(judgeTip));
		for (const [id, d] of stored) known.set(id, d);
		return known;
	}

	/** A decision made from memory that the store settled otherwise is logged (the store's stays). */
	#compare(streamer: string, guessed: Map<string, Decision>, stored: Map<string, Decision>): void {
		for (const [id, d] of guessed) {
			const s = stored.get(id);
			if (s && s.outcome !== d.outcome)
				this.#log(
					`moderation: ${id} of ${streamer} was decided ${d.outcome} from memory; stored: ${s.outcome}`
				);
		}
	}

	/**
	 * The answer's tips decided and rewritten for `audience`; queue tips decided `remove` are left
	 * out (and deleted upstream). Returns the body to send.
	 */
	async rewrite(
		streamer: string,
		upstream: UpstreamClient,
		route: ModeratedRoute,
		body: Record<string, unknown>,
		audience: Audience
	): Promise<Record<string, unknown>> {
		if (isVideoRoute(route)) return this.videos.rewrite(streamer, upstream, route, body, audience);
		const field = TIP_ROUTES[route];
		const value = body[field];
		if (field === 'tip') {
			// A tip this cannot read is not handed out as it is (its message, its audio): left out.
			if (!isTip(value))
				return typeof value === 'object' && value !== null ? { ...body, tip: null } : body;
			const d = (await this.decisions(streamer, [value]))?.get(value.order_id) ?? null;
			return { ...body, tip: present(value, d, audience) };
		}
		if (!Array.isArray(value)) return body;
		const tips = TIPS.list(value, route);
		const decided = await this.decisions(streamer, tips);
		const out: QueueTip[] = [];
		for (const tip of tips) {
			const d = decided?.get(tip.order_id) ?? null;
			if (d?.outcome === 'remove') {
				if (route === 'ttsQueue') this.removeLater(upstream, streamer, tip.order_id, 'tts');
				continue;
			}
			out.push(present(tip, d, audience));
		}
		return { ...body, [field]: out };
	}

	/**
	 * Before a page's start: a tip decided as not playable is refused without asking the upstream.
	 * An undecided one is not read for first (under a flood of reads, that read would wait and hold
	 * the claim back): its start goes out, and `afterStart` decides from the tip it answers with.
	 */
	async beforeStart(
		streamer: string,
		upstream: UpstreamClient,
		queue: Queue,
		orderId: string
	): Promise<void> {
		const key = queue === 'tts' ? orderId : videoKey(orderId);
		const stored = await this.deadline.wait(this.store.get(streamer, [key])).catch((err: Error) => {
			this.#log(`moderation: decisions not available (${err.message})`);
			return null;
		});
		// Past the deadline, what this process knows; nothing known: the start goes out, and
		// afterStart decides (from memory, if the store is still away).
		const d = stored?.done ? stored.value.get(key) : this.store.known(streamer, key);
		if (d) this.refuseUnplayable(streamer, upstream, queue, orderId, d);
	}

	/**
	 * After a start that succeeded (its answer's item): a tip or video that may not be played is
	 * given back at once, and the page gets the 409 the gate gives.
	 */
	async afterStart(
		streamer: string,
		upstream: UpstreamClient,
		answer: Record<string, unknown>
	): Promise<void> {
		if (isTip(answer.tip)) return this.#afterTipStart(streamer, upstream, answer.tip);
		const media = answer.media as QueueMediaItem | undefined;
		if (typeof media?.order_id === 'string')
			return this.videos.afterStart(streamer, upstream, media);
	}

	/**
	 * The tip's decision: the stored one, else the one made now from a fresh read of the queue;
	 * undefined when the queue does not list it (never seen, played, removed).
	 */
	async decisionOf(
		streamer: string,
		upstream: UpstreamClient,
		queue: Queue,
		orderId: string
	): Promise<Decision | undefined> {
		if (queue === 'media') return this.videos.decisionOf(streamer, upstream, orderId);
		const d = await this.#stored(streamer, orderId);
		if (d !== undefined) return d;
		const tip = (await readItems(upstream, '/tts/queue', 'items', TIPS))?.find(
			(t) => t.order_id === orderId
		);
		if (!tip) return undefined;
		// The dock's Approve or Reject settles a stored decision: waited for, never guessed.
		const decided = await this.#decideStored(streamer, [tip]).catch(() => {
			throw unavailable();
		});
		return decided.get(orderId);
	}

	async #afterTipStart(streamer: string, upstream: UpstreamClient, tip: QueueTip): Promise<void> {
		const d = (await this.decisions(streamer, [tip]))?.get(tip.order_id);
		if (playable(d)) return;
		await this.giveBack(streamer, upstream, 'tts', tip.order_id);
		if (!d) throw unavailable();
		this.refuseUnplayable(streamer, upstream, 'tts', tip.order_id, d);
	}

	/**
	 * Releases the claim of a tip or video that may not be played; a refused release is asked
	 * again later, unless it may be played by then (approved: a page may hold that claim now).
	 */
	async giveBack(
		streamer: string,
		upstream: UpstreamClient,
		queue: Queue,
		orderId: string,
		attempt = 0
	): Promise<void> {
		const res = await upstream
			.call('POST', `/${PATH[queue]}/${encodeURIComponent(orderId)}/release`)
			.catch(() => null);
		await res?.body?.cancel().catch(() => {});
		if (res && (res.ok || res.status === 404 || res.status === 409)) return;
		const wait = GIVE_BACK_RETRY_MS[attempt];
		if (wait === undefined) {
			this.#log(`moderation: could not give back the claim of ${orderId}`);
			return;
		}
		const key = queue === 'tts' ? orderId : videoKey(orderId);
		const again = async () => {
			const d = await this.store
				.get(streamer, [key])
				.then((m) => m.get(key))
				.catch(() => undefined);
			if (d?.outcome === 'read' || d?.outcome === 'no_voice') return;
			await this.giveBack(streamer, upstream, queue, orderId, attempt + 1);
		};
		setTimeout(() => void again(), wait).unref?.();
	}

	/** A 409 for a tip or video that may not be played (a removed one is deleted upstream). */
	refuseUnplayable(
		streamer: string,
		upstream: UpstreamClient,
		queue: Queue,
		orderId: string,
		d: Decision
	): void {
		const what = queue === 'tts' ? 'tip' : 'video';
		if (d.outcome === 'hold')
			throw new HttpError(409, 'held', `this ${what} is held for the streamer to approve`);
		if (d.outcome === 'remove') {
			this.removeLater(upstream, streamer, orderId, queue);
			throw new HttpError(409, 'not_in_queue', `this ${what} was removed by a moderation rule`);
		}
	}

	async #stored(streamer: string, key: string): Promise<Decision | undefined> {
		try {
			return (await this.store.get(streamer, [key])).get(key);
		} catch (err) {
			this.#log(`moderation: decisions not available (${(err as Error).message})`);
			throw unavailable();
		}
	}

	/** The streamer's rules as compiled last, without the store; undefined: none in memory. */
	inMemory(streamer: string): Compiled | undefined {
		return this.#rules.inMemory(streamer);
	}

	/** The streamer's rules compiled (tips' and videos'), for the version stored now. */
	compiled(streamer: string): Promise<Compiled> {
		return this.#rules.compiled(streamer);
	}

	/**
	 * Deletes a tip or video the rules remove; asked again only after REMOVE_AGAIN_MS if it is
	 * still listed.
	 */
	removeLater(upstream: UpstreamClient, streamer: string, orderId: string, queue: Queue): void {
		const key = `${streamer}\n${queue}\n${orderId}`;
		if (this.#removing.has(key)) return;
		this.#removing.set(key, true);
		upstream.call('DELETE', `/${PATH[queue]}/${encodeURIComponent(orderId)}`).then(
			(res) => {
				if (!res.ok && res.status !== 404)
					this.#log(`moderation: the upstream did not remove ${orderId} (${res.status})`);
			},
			(err: unknown) =>
				this.#log(`moderation: could not remove ${orderId} (${(err as Error).message})`)
		);
	}
}
