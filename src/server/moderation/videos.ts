// Videos, decided like tips (docs/moderation.md, "Videos"): each video the token endpoint hands out
// is decided once, before any copy may start it, with the rules of that moment and its tip's
// decision (held or removed with it), and stored under its own key beside the tips' (video.ts
// `videoKey`). Its tip is the one with the same order id; the tip's decision is the stored one, or
// made now from a read of the TTS queue (then of its history). While a video's tip might exist but
// cannot be read, the video is not decided (`pending`): it is not played on a guess.
import type { QueueMediaItem, QueueTip } from '../../contract/index.ts';
import type { Decision } from '../../core/moderation/decision.ts';
import {
	presentVideo,
	videoKey,
	type TipOfVideo,
	type VideoJudge
} from '../../core/moderation/video.ts';
import type { UpstreamClient } from '../upstream.ts';
import { unavailable } from './store.ts';
import { isVideo, readItems, TIPS, VIDEOS } from './upstream-items.ts';
import type { KnownDecisions } from './known.ts';
import type { StoreDeadline } from '../deadline.ts';

/** The forwarded answers that carry videos, and where the videos are in their bodies. */
export const VIDEO_ROUTES = {
	mediaQueue: 'items',
	mediaHistory: 'media',
	mediaStart: 'media',
	mediaFinish: 'media',
	mediaRelease: 'media'
} as const;
export type VideoRoute = keyof typeof VIDEO_ROUTES;

export const isVideoRoute = (name: string): name is VideoRoute => Object.hasOwn(VIDEO_ROUTES, name);

/** A video whose tip has its own order id is matched by name within this much of its queueing. */
const SAME_MOMENT_MS = 10_000;

/** What videos use of the Moderator (moderator.ts). */
interface Host {
	readonly store: KnownDecisions;
	readonly deadline: StoreDeadline;
	decisions(streamer: string, tips: readonly QueueTip[]): Promise<Map<string, Decision> | null>;
	compiled(streamer: string): Promise<{ videos: VideoJudge; videoAmounts: boolean }>;
	/** The rules compiled in memory, without the store (undefined: none yet). */
	inMemory(streamer: string): { videos: VideoJudge; videoAmounts: boolean } | undefined;
	giveBack(streamer: string, up: UpstreamClient, queue: 'media', orderId: string): Promise<void>;
	refuseUnplayable(
		streamer: string,
		up: UpstreamClient,
		queue: 'media',
		orderId: string,
		d: Decision
	): void;
	removeLater(up: UpstreamClient, streamer: string, orderId: string, queue: 'media'): void;
}

export class Videos {
	readonly #host: Host;
	readonly #log: (message: string) => void;

	constructor(host: Host, log: (message: string) => void) {
		this.#host = host;
		this.#log = log;
	}

	/**
	 * The decision of each video (by order id): the stored one, or the one made now and stored. A
	 * video that cannot be decided now is absent; null when the store cannot be reached and memory
	 * decides none. The store is waited for STORE_DEADLINE_MS at most (src/server/deadline.ts), as
	 * for tips (moderator.ts): past it a video is decided from memory (`#fromMemory`).
	 * `decideNew` false: only stored decisions (played history is not decided afresh).
	 */
	async decisions(
		streamer: string,
		upstream: UpstreamClient,
		videos: readonly QueueMediaItem[],
		decideNew = true
	): Promise<Map<string, Decision> | null> {
		if (videos.length === 0) return new Map();
		const work = this.#decide(streamer, upstream, videos, decideNew);
		const inTime = await this.#host.deadline.wait(work).catch((err: Error) => {
			this.#log(`moderation: video decisions not available (${err.message})`);
			return null;
		});
		if (inTime?.done) return inTime.value;
		const guessed = this.#fromMemory(streamer, videos);
		if (inTime === null && guessed.size === 0) return null;
		void work.catch((err: Error) =>
			this.#log(`moderation: video decisions not stored (${err.message})`)
		);
		return guessed;
	}

	/**
	 * Without the store: the video's decision this process knows, else the rules in memory when
	 * they need nothing unknown (its tip's decision known here, no amount rule); one they would
	 * not play is `hold` until its decision is stored (nothing is deleted on a guess).
	 */
	#fromMemory(streamer: string, videos: readonly QueueMediaItem[]): Map<string, Decision> {
		const out = new Map<string, Decision>();
		const { store } = this.#host;
		const compiled = this.#host.inMemory(streamer);
		for (const v of videos) {
			const known = store.known(streamer, videoKey(v.order_id));
			if (known) {
				out.set(v.order_id, known);
				continue;
			}
			const tipDecision = store.known(streamer, v.order_id);
			let tip: TipOfVideo | null | undefined;
			if (v.requested_via !== 'tip' && !tipDecision) tip = null;
			else if (tipDecision && !compiled?.videoAmounts)
				tip = { decision: tipDecision, amount: null };
			if (!compiled || tip === undefined) continue;
			const d = compiled.videos(v, tip);
			out.set(v.order_id, d.outcome === 'read' ? d : { ...d, outcome: 'hold' });
		}
		return out;
	}

	async #decide(
		streamer: string,
		upstream: UpstreamClient,
		videos: readonly QueueMediaItem[],
		decideNew: boolean
	): Promise<Map<string, Decision>> {
		const out = new Map<string, Decision>();
		const { store } = this.#host;
		const known = await store.get(
			streamer,
			videos.map((v) => videoKey(v.order_id))
		);
		const fresh: QueueMediaItem[] = [];
		for (const v of videos) {
			const d = known.get(videoKey(v.order_id));
			if (d) out.set(v.order_id, d);
			else fresh.push(v);
		}
		if (fresh.length === 0 || !decideNew) return out;
		const { videos: judge, videoAmounts } = await this.#host.compiled(streamer);
		const tips = await this.#tipsOf(streamer, upstream, fresh, videoAmounts);
		const decidable = fresh.filter((v) => tips.get(v.order_id) !== undefined);
		const proposals = decidable.map((v) => judge(v, tips.get(v.order_id) ?? null));
		const stored = await store.decide(streamer, proposals);
		for (const v of decidable) {
			const d = stored.get(videoKey(v.order_id));
			if (d) out.set(v.order_id, d);
		}
		return out;
	}

	/**
	 * Each video's tip (null: it has none, or none can be found), absent while it might have one
	 * that cannot be read now. A tip's decision is made here when nobody read the tip yet.
	 */
	async #tipsOf(
		streamer: string,
		upstream: UpstreamClient,
		videos: readonly QueueMediaItem[],
		needAmounts: boolean
	): Promise<Map<string, TipOfVideo | null>> {
		const out = new Map<string, TipOfVideo | null>();
		const ids = videos.map((v) => v.order_id);
		const stored = await this.#host.store.get(streamer, ids);
		const search: QueueMediaItem[] = [];
		for (const v of videos) {
			const d = stored.get(v.order_id);
			if (d && !needAmounts) out.set(v.order_id, { decision: d, amount: null });
			else if (v.requested_via !== 'tip' && !d) out.set(v.order_id, null);
			else search.push(v);
		}
		let left = search;
		for (const path of ['/tts/queue', '/tts/history?limit=100'] as const) {
			if (left.length === 0) break;
			const list = await readItems(upstream, path, path === '/tts/queue' ? 'items' : 'tips', TIPS);
			// The tips cannot be read: the videos that wait for one stay undecided.
			if (list === null) return out;
			const found = new Map<string, QueueTip>();
			for (const v of left) {
				const tip = tipOf(v, list);
				if (tip) found.set(v.order_id, tip);
			}
			const decided = await this.#host.decisions(streamer, [...found.values()]);
			if (decided === null) throw unavailable();
			for (const [id, tip] of found) {
				const d = decided.get(tip.order_id);
				if (d) out.set(id, { decision: d, amount: tip.amount ?? null });
			}
			left = left.filter((v) => !found.has(v.order_id));
		}
		// Not in the queue or the last page of history: decided by its own fields and the stored
		// decision of its tip, if one was made.
		for (const v of left) {
			const d = stored.get(v.order_id);
			out.set(v.order_id, d ? { decision: d, amount: null } : null);
		}
		return out;
	}

	/** The answer's videos decided and rewritten for `audience`; removed ones left out. */
	async rewrite(
		streamer: string,
		upstream: UpstreamClient,
		route: VideoRoute,
		body: Record<string, unknown>,
		audience: 'page' | 'dock'
	): Promise<Record<string, unknown>> {
		const field = VIDEO_ROUTES[route];
		const value = body[field];
		if (field === 'media' && route !== 'mediaHistory') {
			if (!isVideo(value))
				return typeof value === 'object' && value !== null ? { ...body, media: null } : body;
			const d = (await this.decisions(streamer, upstream, [value]))?.get(value.order_id) ?? null;
			return { ...body, media: presentVideo(value, d, audience) };
		}
		if (!Array.isArray(value)) return body;
		const videos = VIDEOS.list(value, route);
		const played = route === 'mediaHistory';
		const decided = await this.decisions(streamer, upstream, videos, !played);
		const out: QueueMediaItem[] = [];
		for (const v of videos) {
			const d = decided?.get(v.order_id) ?? null;
			if (d?.outcome === 'remove') {
				if (!played) this.#host.removeLater(upstream, streamer, v.order_id, 'media');
				if (!played || audience === 'page') continue;
			}
			// Played before any decision (history): shown as it played.
			out.push(played && d === null ? v : presentVideo(v, d, audience));
		}
		return { ...body, [field]: out };
	}

	/** After a start that succeeded: a video that may not be played is given back at once. */
	async afterStart(streamer: string, upstream: UpstreamClient, video: QueueMediaItem) {
		const d = (await this.decisions(streamer, upstream, [video]))?.get(video.order_id);
		if (d?.outcome === 'read') return;
		await this.#host.giveBack(streamer, upstream, 'media', video.order_id);
		if (!d) throw unavailable();
		this.#host.refuseUnplayable(streamer, upstream, 'media', video.order_id, d);
	}

	/** A video's decision: the stored one, else one made now from a read of the media queue. */
	async decisionOf(
		streamer: string,
		upstream: UpstreamClient,
		orderId: string
	): Promise<Decision | undefined> {
		const key = videoKey(orderId);
		const stored = (
			await this.#host.store.get(streamer, [key]).catch(() => {
				throw unavailable();
			})
		).get(key);
		if (stored) return stored;
		const list = await readItems(upstream, '/media/queue', 'items', VIDEOS);
		const video = list?.find((v) => v.order_id === orderId);
		if (!video) return undefined;
		const decided = await this.decisions(streamer, upstream, [video]);
		if (decided === null) throw unavailable();
		return decided.get(orderId);
	}
}

/**
 * The video's tip in a list of tips: the one with its order id, else (an upstream that gives a
 * video an id of its own) the only tip from the same name queued within SAME_MOMENT_MS of it.
 */
function tipOf(video: QueueMediaItem, tips: readonly QueueTip[]): QueueTip | undefined {
	const same = tips.find((t) => t.order_id === video.order_id);
	if (same) return same;
	const at = Date.parse(video.queued_at);
	const near = tips.filter(
		(t) =>
			t.name === video.donor_name &&
			Number.isFinite(at) &&
			Math.abs(Date.parse(t.queued_at) - at) <= SAME_MOMENT_MS
	);
	return near.length === 1 ? near[0] : undefined;
}
