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
import { RecentIds } from './recent-ids.ts';
import { instant } from '../goal.ts';
import { keepPart, setPart, type ViewState } from './keep.ts';
import { HistoryView, LeaderboardView, type HistoryPage, type Supporter } from './lists.ts';
import { partsInDoubt, partsKept, VIEW_PARTS, type Snapshots, type ViewPart } from './parts.ts';
import { QueueView, type QueueBody } from './queue.ts';

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
	/** How many supporters the leaderboard answers at most. */
	leaderboardLimit?: number;
	/** How many it reads and keeps: the rows below leaderboardLimit are a margin (lists.ts). */
	leaderboardDepth?: number;
	/** How many event ids are remembered for the dedupe (delivery is at-least-once). */
	dedupeCapacity?: number;
	/** A tip this soon after a total's read landed may be in it: read again instead of adding. */
	doubtMs?: number;
}

/**
 * historyDepth: the upstream's default page (docs/upstream.md, page size); the recent widget may
 * ask for up to 50 rows (widgets/recent/params.ts), but 50 of each would double what the played
 * rows cost (bench/view-memory.ts). leaderboardLimit: the leaderboard widget's largest limit
 * (widgets/leaderboard/params.ts); leaderboardDepth: 15 rows of margin below it. dedupeCapacity:
 * redeliveries come within seconds.
 */
export const VIEW_DEFAULTS = {
	historyDepth: 25,
	leaderboardLimit: 25,
	leaderboardDepth: 40,
	dedupeCapacity: 64,
	doubtMs: 1000
};

/** The options with their defaults; the leaderboard read at least as deep as it answers. */
export function viewLimits(options: LiveViewOptions = {}): typeof VIEW_DEFAULTS {
	const o = { ...VIEW_DEFAULTS, ...options };
	return { ...o, leaderboardDepth: Math.max(o.leaderboardLimit, o.leaderboardDepth) };
}

export class LiveView implements ViewState {
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
	/** Parts to be read again (an event not applied for sure, a gap): their answers may be stale. */
	readonly #unsure = new Set<ViewPart>();
	readonly #seen: RecentIds;
	/** The events of each part whose read is in flight, to replay on its answer. */
	readonly #held = new Map<ViewPart, KnownEvent[]>();
	/** When each part's read was sent, and when its last answer was sent and landed (ms). */
	readonly #sent = new Map<ViewPart, number>();
	readonly #landed = new Map<ViewPart, { sentAt: number; landedAt: number }>();
	readonly #doubtMs: number;

	constructor(options: LiveViewOptions = {}) {
		const o = viewLimits(options);
		this.ttsHistory = new HistoryView(o.historyDepth);
		this.mediaHistory = new HistoryView(o.historyDepth);
		this.leaderboard = new LeaderboardView(o.leaderboardLimit, o.leaderboardDepth);
		this.#seen = new RecentIds(o.dedupeCapacity);
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

	/** Events may have been missed (the socket dropped): every part is unsure until read again. */
	gap(): void {
		for (const part of VIEW_PARTS) this.#unsure.add(part);
	}

	/** `part` may have changed unseen (another instance holds the intake and said so): unsure. */
	owe(part: ViewPart): void {
		this.#unsure.add(part);
	}

	/**
	 * Whether the view has had the event `id` (a page's read names the last events its own socket
	 * brought, intake/page-reads.ts): among the last dedupeCapacity ids it saw or was told of.
	 */
	hasSeen(id: string): boolean {
		return this.#seen.has(id);
	}

	/** The event ids it saw last, oldest first: what a copy of it is told with its parts. */
	seenIds(): string[] {
		return this.#seen.list();
	}

	/** A copy of another view (src/hosted/shared-view.ts): the events that view had, as its parts. */
	noteSeen(ids: readonly string[]): void {
		for (const id of ids) this.#seen.seen(id);
	}

	/** Whether `part` answers as the upstream would: read, and no read of it owed since. */
	sure(part: ViewPart): boolean {
		return this.known.has(part) && !this.#unsure.has(part);
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
		if (again) this.#unsure.add(part);
		else this.#unsure.delete(part);
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

	/**
	 * When a read of `part` asked for at `now` is best sent. A tip in doubt (goals, leaderboard) is
	 * one that came within doubtMs of the last answer, or while the read was in flight: a read sent
	 * again before that window closes finds the tips that come meanwhile in doubt too, so a burst of
	 * tips would cost a read each. Sent as the window closes, one read settles every tip until then
	 * (sent after they came, its answer holds them), and a burst costs a read per doubtMs at most.
	 */
	rereadAt(part: ViewPart, now: number): number {
		const last = this.#landed.get(part);
		if ((part !== 'goals' && part !== 'leaderboard') || !last) return now;
		return Math.max(now, last.landedAt + this.#doubtMs);
	}

	/** An event envelope (any object) at `now` (ms): deduped by id, parsed, applied to every part it keeps. */
	apply(envelope: { id: string; type: string }, now: number): Applied {
		if (this.#seen.seen(envelope.id)) return { outcome: 'duplicate', reread: [] };
		const parsed = parseEventWith(EVENT_CATALOG, envelope);
		const doubt = [...partsInDoubt(envelope.type)];
		if (!parsed.ok) return this.#owed({ outcome: 'malformed', reread: doubt, error: parsed.error });
		if (!parsed.known) return this.#owed({ outcome: 'ignored', reread: doubt });
		const event = parsed.event;
		const parts = partsKept(event.type);
		const reread: ViewPart[] = [];
		for (const part of parts) {
			this.#held.get(part)?.push(event);
			if (keepPart(this, part, event, { replay: false, now }) === 'reread') reread.push(part);
		}
		return this.#owed({ outcome: parts.length ? 'applied' : 'ignored', reread });
	}

	/** The parts an event has read again are unsure until their answers land. */
	#owed(applied: Applied): Applied {
		for (const part of applied.reread) this.#unsure.add(part);
		return applied;
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

	/** The first `limit` supporters; null when the view does not know them for sure (read them). */
	supporters(limit?: number): Supporter[] | null {
		return this.leaderboard.page(limit);
	}
}
