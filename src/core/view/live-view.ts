// One streamer's live view of the upstream (docs/upstream.md, which event keeps which part of the
// view): both queues, the counters, each overlay's tip goal, tipping open or closed, the
// leaderboard and the recent lists, kept from realtime events between snapshot reads. Pure: the
// caller reads the upstream and feeds the answers in (applySnapshot), and feeds each event in
// (apply), which says which parts it could not apply for sure, for the caller to read again.
//
// Events and reads race: a read answers the upstream as of some instant while it is in flight, and
// events of that part that come meanwhile may or may not be in its answer. So the events of a part
// that come while its read is in flight are held, and replayed on the answer: each sets what it
// says (an item present, a claim, a pause), which the answer already holding it leaves as it was.
// A tip's amount added to a goal or a supporter's total is no such setting: held, it has the part
// read once more instead of being added twice. So has one that comes soon after an answer landed,
// or that was queued before the read was sent: the answer may have counted it already (the rule
// of GoalTally in src/core/goal.ts). A re-read is always right; it only costs a request.
import {
	EVENT_CATALOG,
	parseEventWith,
	type Counter,
	type HistoryMediaItem,
	type HistoryTip,
	type KnownEvent,
	type QueueMediaItem,
	type QueueTip,
	type TipGoal
} from '../../contract/index.ts';
import { EventDeduper } from '../dedupe.ts';
import { applyTip, countsToward, instant } from '../goal.ts';
import {
	countsForSupporters,
	HistoryView,
	LeaderboardView,
	type HistoryPage,
	type Supporter
} from './lists.ts';
import { partsInDoubt, partsKept, type ViewPart } from './parts.ts';
import { QueueView, type Certainty, type QueueBody } from './queue.ts';

/** What each part's read answers, as the caller hands it in (the upstream's bodies). */
export interface Snapshots {
	tts: QueueBody<QueueTip>;
	media: QueueBody<QueueMediaItem> & { visible: boolean };
	ttsHistory: { tips: HistoryTip[]; has_more: boolean };
	mediaHistory: { media: HistoryMediaItem[]; has_more: boolean };
	counters: { counters: Counter[] };
	/** Every overlay's tip goal by overlay id (GET /overlays, then each one's tip goal). */
	goals: Record<string, TipGoal>;
	tipping: { accepting: boolean };
	leaderboard: { supporters: Supporter[] };
}

/** What an event did: the parts to read again (none when it applied for sure). */
export interface Applied {
	outcome: 'applied' | 'duplicate' | 'ignored' | 'malformed';
	reread: ViewPart[];
	/** Why a malformed event was dropped (for the caller's log). */
	error?: string;
}

export interface LiveViewOptions {
	/** How many played rows each recent list keeps (the reads ask for as many). */
	historyDepth?: number;
	/** How many supporters the leaderboard keeps (its read asks for as many). */
	leaderboardLimit?: number;
	/** How many event ids are remembered for the dedupe (delivery is at-least-once). */
	dedupeCapacity?: number;
	/** A tip this soon after a total's read landed may be in it: read again instead of adding. */
	doubtMs?: number;
}

/**
 * historyDepth: the upstream's default page (docs/upstream.md, page size); the recent widget may
 * ask for up to 50 rows (widgets/recent/params.ts), but 50 of each would double what the played
 * rows cost (bench/view-memory.ts). leaderboardLimit: the leaderboard widget's largest limit
 * (widgets/leaderboard/params.ts). dedupeCapacity: redeliveries come within seconds.
 */
export const VIEW_DEFAULTS = {
	historyDepth: 25,
	leaderboardLimit: 25,
	dedupeCapacity: 64,
	doubtMs: 1000
};

export class LiveView {
	readonly tts = new QueueView<QueueTip>();
	readonly media = new QueueView<QueueMediaItem>();
	mediaVisible = true;
	readonly ttsHistory: HistoryView<HistoryTip>;
	readonly mediaHistory: HistoryView<HistoryMediaItem>;
	readonly counters = new Map<string, Counter>();
	readonly goals = new Map<string, TipGoal>();
	accepting: boolean | null = null;
	readonly leaderboard: LeaderboardView;
	/** The parts a snapshot has landed for: a page read of another cannot be answered yet. */
	readonly known = new Set<ViewPart>();
	readonly #seen: EventDeduper;
	/** The events of each part whose read is in flight, to replay on its answer. */
	readonly #held = new Map<ViewPart, KnownEvent[]>();
	/** When each part's read was sent, and when its last answer was sent and landed (ms). */
	readonly #sent = new Map<ViewPart, number>();
	readonly #landed = new Map<ViewPart, { sentAt: number; landedAt: number }>();
	readonly #doubtMs: number;

	constructor(options: LiveViewOptions = {}) {
		const o = { ...VIEW_DEFAULTS, ...options };
		this.ttsHistory = new HistoryView(o.historyDepth);
		this.mediaHistory = new HistoryView(o.historyDepth);
		this.leaderboard = new LeaderboardView(o.leaderboardLimit);
		this.#seen = new EventDeduper(o.dedupeCapacity);
		this.#doubtMs = o.doubtMs;
	}

	/** A read of `part` is sent at `now` (ms): the events of it until the answer are held. */
	beginRead(part: ViewPart, now: number): void {
		this.#held.set(part, []);
		this.#sent.set(part, now);
	}

	/** The read of `part` failed: nothing to replay; the part stays as events made it. */
	abortRead(part: ViewPart): void {
		this.#held.delete(part);
	}

	/**
	 * The answer of `part`'s read: the part becomes it, then the events held since beginRead are
	 * replayed on it. Returns the parts to read again (this one, when a held tip may be in it).
	 */
	applySnapshot<P extends ViewPart>(part: P, body: Snapshots[P], now: number): ViewPart[] {
		setPart(this, part, body);
		this.known.add(part);
		this.#landed.set(part, { sentAt: this.#sent.get(part) ?? now, landedAt: now });
		const held = this.#held.get(part) ?? [];
		this.#held.delete(part);
		let again = false;
		for (const event of held)
			if (keepPart(this, part, event, { replay: true, now }) === 'reread') again = true;
		return again ? [part] : [];
	}

	/**
	 * Whether a tip (tip.created at `now`) may already be counted in `part`'s last answer: it came
	 * within doubtMs of the answer, or was queued before the read was sent (an event late on the
	 * socket; upstream clock against ours, so a skewed clock costs reads, never a double count
	 * beyond the skew).
	 */
	tipInDoubt(part: ViewPart, tip: QueueTip, now: number): boolean {
		const last = this.#landed.get(part);
		if (!last) return true;
		const queued = instant(tip.queued_at);
		return now - last.landedAt <= this.#doubtMs || queued === null || queued <= last.sentAt;
	}

	/** An event envelope (any object) at `now` (ms): deduped by id, parsed, applied to every part it keeps. */
	apply(envelope: { id: string; type: string }, now: number): Applied {
		if (this.#seen.seen(envelope.id)) return { outcome: 'duplicate', reread: [] };
		const parsed = parseEventWith(EVENT_CATALOG, envelope);
		if (!parsed.ok)
			return {
				outcome: 'malformed',
				reread: [...partsInDoubt(envelope.type)],
				error: parsed.error
			};
		if (!parsed.known) return { outcome: 'ignored', reread: [...partsInDoubt(envelope.type)] };
		const event = parsed.event;
		const parts = partsKept(event.type);
		const reread: ViewPart[] = [];
		for (const part of parts) {
			this.#held.get(part)?.push(event);
			if (keepPart(this, part, event, { replay: false, now }) === 'reread') reread.push(part);
		}
		return { outcome: parts.length ? 'applied' : 'ignored', reread };
	}

	// --- the bodies the upstream's reads answer, from the view ---

	ttsQueue(): QueueBody<QueueTip> {
		return this.tts.body();
	}

	mediaQueue(): QueueBody<QueueMediaItem> & { visible: boolean } {
		const { items, ...status } = this.media.body();
		return { ...status, visible: this.mediaVisible, items };
	}

	ttsHistoryPage(limit?: number): HistoryPage<HistoryTip> {
		return this.ttsHistory.page(limit);
	}

	mediaHistoryPage(limit?: number): HistoryPage<HistoryMediaItem> {
		return this.mediaHistory.page(limit);
	}

	counterList(): Counter[] {
		return [...this.counters.values()];
	}

	supporters(limit?: number): Supporter[] {
		return this.leaderboard.page(limit);
	}
}

/** A part set to its read's answer. */
function setPart<P extends ViewPart>(view: LiveView, part: P, body: Snapshots[P]): void {
	const b = body as Snapshots[ViewPart];
	switch (part) {
		case 'tts':
			return view.tts.snapshot(b as Snapshots['tts']);
		case 'media':
			view.media.snapshot(b as Snapshots['media']);
			view.mediaVisible = (b as Snapshots['media']).visible;
			return;
		case 'ttsHistory': {
			const h = b as Snapshots['ttsHistory'];
			return view.ttsHistory.snapshot(h.tips, h.has_more);
		}
		case 'mediaHistory': {
			const h = b as Snapshots['mediaHistory'];
			return view.mediaHistory.snapshot(h.media, h.has_more);
		}
		case 'counters':
			view.counters.clear();
			for (const c of (b as Snapshots['counters']).counters) view.counters.set(c.name, c);
			return;
		case 'goals':
			view.goals.clear();
			for (const [id, goal] of Object.entries(b as Snapshots['goals'])) view.goals.set(id, goal);
			return;
		case 'tipping':
			view.accepting = (b as Snapshots['tipping']).accepting;
			return;
		case 'leaderboard':
			return view.leaderboard.snapshot((b as Snapshots['leaderboard']).supporters);
	}
}

/** One event applied to one part it keeps (see parts.ts). */
function keepPart(
	view: LiveView,
	part: ViewPart,
	event: KnownEvent,
	o: { replay: boolean; now: number }
): Certainty {
	switch (part) {
		// Replayed on an answer, a queue's events come in order after what it holds: a claim or an
		// item the answer lacks is one that a later event in line settles, never a gap.
		case 'tts': {
			const kept = keepTts(view.tts, event);
			return o.replay ? 'ok' : kept;
		}
		case 'media': {
			const kept = keepMedia(view, event);
			return o.replay ? 'ok' : kept;
		}
		case 'ttsHistory':
			return event.type === 'queue.tts.finished' ? view.ttsHistory.add(event.data.tip) : 'ok';
		case 'mediaHistory':
			return event.type === 'queue.media.finished' ? view.mediaHistory.add(event.data.media) : 'ok';
		case 'counters':
			return keepCounters(view.counters, event);
		case 'goals':
			return keepGoals(view, event, o);
		case 'tipping':
			if (event.type === 'tipping.opened' || event.type === 'tipping.closed')
				view.accepting = event.type === 'tipping.opened';
			return 'ok';
		case 'leaderboard':
			if (event.type !== 'tip.created' || !view.known.has('leaderboard')) return 'ok';
			// Replayed on an answer that may already count it: read again rather than count it twice.
			if (!countsForSupporters(event.data.tip)) return 'ok';
			if (o.replay || view.tipInDoubt(part, event.data.tip, o.now)) return 'reread';
			return view.leaderboard.tip(event.data.tip);
	}
}

function keepTts(q: QueueView<QueueTip>, event: KnownEvent): Certainty {
	switch (event.type) {
		case 'tip.created':
		case 'queue.tts.replayed':
			return q.add(event.data.tip);
		case 'tip.tts_ready': {
			const url = event.data.tts_url;
			return q.update(event.data.order_id, (tip) => ({ ...tip, tts_url: url }));
		}
		case 'queue.tts.started':
			return q.start(event.data.tip);
		case 'queue.tts.released':
			return q.release(event.data.order_id);
		case 'queue.tts.finished':
		case 'queue.tts.skipped':
		case 'queue.tts.removed':
			return q.drop(event.data.order_id);
		case 'queue.tts.paused':
		case 'queue.tts.resumed':
			return q.setPaused(event.data.is_paused);
		case 'queue.tts.cleared':
			return q.clear();
		default:
			return 'ok';
	}
}

function keepMedia(view: LiveView, event: KnownEvent): Certainty {
	const q = view.media;
	switch (event.type) {
		case 'queue.media.added':
			return q.add(event.data.media);
		case 'queue.media.started':
			return q.start(event.data.media);
		case 'queue.media.released':
			return q.release(event.data.order_id);
		case 'queue.media.finished':
		case 'queue.media.skipped':
		case 'queue.media.removed':
			return q.drop(event.data.order_id);
		case 'queue.media.paused':
		case 'queue.media.resumed':
			return q.setPaused(event.data.is_paused);
		case 'queue.media.visibility':
			view.mediaVisible = event.data.visible;
			return 'ok';
		case 'queue.tts.cleared':
			return q.resetClaim();
		default:
			return 'ok';
	}
}

function keepCounters(counters: Map<string, Counter>, event: KnownEvent): Certainty {
	if (event.type === 'counter.deleted') counters.delete(event.data.name);
	if (event.type === 'counter.updated') {
		const next = event.data.counter;
		const kept = counters.get(next.name);
		// Events come in any order: an older change than the one kept is not applied.
		if (!kept || Date.parse(next.updated_at) >= Date.parse(kept.updated_at))
			counters.set(next.name, next);
	}
	return 'ok';
}

function keepGoals(
	view: LiveView,
	event: KnownEvent,
	o: { replay: boolean; now: number }
): Certainty {
	if (event.type === 'overlay.tip_goal.updated') {
		view.goals.set(event.data.overlay_id, event.data.tip_goal);
		return 'ok';
	}
	if (event.type !== 'tip.created' || !view.known.has('goals')) return 'ok';
	const tip = event.data.tip;
	if (![...view.goals.values()].some((g) => countsToward(g, tip))) return 'ok';
	if (o.replay || view.tipInDoubt('goals', tip, o.now)) return 'reread';
	for (const [id, goal] of view.goals) view.goals.set(id, applyTip(goal, tip));
	return 'ok';
}
