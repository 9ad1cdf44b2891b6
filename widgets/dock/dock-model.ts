// What the dock shows, as a pure model: the snapshots it read (GET /tts/queue, /media/queue, the
// two played histories, /tipping) and the realtime events since, folded into one value. Events are
// hints (docs/upstream.md): each is applied when it can be with certainty; an event about an order this
// dock never saw asks for a re-read of that snapshot instead, and so does a start that shows the
// dock missed the end of the item before it. Applying an event twice changes nothing.
import type {
	HistoryMediaItem,
	HistoryTip,
	KnownEvent,
	MediaQueueBody,
	QueueMediaItem,
	QueueTip,
	TtsQueueBody
} from '../../src/contract/index.ts';
import { fromEvent, videoFromEvent } from './moderation.ts';

/** A snapshot the dock reads: on load, after a reconnect, and when an event cannot be applied. */
export type Snapshot = 'tts' | 'media' | 'ttsHistory' | 'mediaHistory' | 'tipping';

/** How many played items of each queue the dock keeps for Recent. */
export const HISTORY_LIMIT = 10;

export interface QueueView<T> {
	paused: boolean;
	/** The claimed item's order id (`current_order_id`), even when its record is unknown. */
	current: string | null;
	/** Its record, when the dock has it (an upstream may drop the claimed item from `items`). */
	playing: T | null;
	/** When it started (the started event's `created_at`); null when it was read mid-play. */
	startedAt: string | null;
	/** Waiting, in order (oldest first), the playing item left out. */
	items: T[];
}

export interface DockModel {
	/** null until the first read of the queue succeeds. */
	tts: QueueView<QueueTip> | null;
	media: (QueueView<QueueMediaItem> & { visible: boolean }) | null;
	/** Most recent first. */
	ttsHistory: HistoryTip[] | null;
	mediaHistory: HistoryMediaItem[] | null;
	accepting: boolean | null;
	/** Every order id this dock has seen: an event about another one means it missed something. */
	seen: ReadonlySet<string>;
	/** Orders that left their queue (played, skipped, removed, cleared): a late event cannot revive one. */
	gone: ReadonlySet<string>;
}

export interface Applied {
	model: DockModel;
	/** Snapshots to read again: the event could not be applied with certainty. */
	reread: Snapshot[];
}

export function emptyModel(): DockModel {
	return {
		tts: null,
		media: null,
		ttsHistory: null,
		mediaHistory: null,
		accepting: null,
		seen: new Set(),
		gone: new Set()
	};
}

type Queued = { order_id: string; queued_at: string };

function withIds(set: ReadonlySet<string>, ids: readonly string[]): Set<string> {
	const next = new Set(set);
	for (const id of ids) next.add(id);
	return next;
}

function withoutIds(set: ReadonlySet<string>, ids: readonly string[]): Set<string> {
	const next = new Set(set);
	for (const id of ids) next.delete(id);
	return next;
}

/** A queue snapshot: the truth. A start time the dock saw for the same claim is kept. */
function queueFrom<T extends Queued>(
	prev: QueueView<T> | null,
	body: { is_paused: boolean; current_order_id: string | null; items: T[] }
): QueueView<T> {
	const current = body.current_order_id;
	const same = current !== null && prev?.current === current;
	const playing =
		current === null
			? null
			: (body.items.find((i) => i.order_id === current) ?? (same ? prev.playing : null));
	return {
		paused: body.is_paused,
		current,
		playing,
		startedAt: same ? prev.startedAt : null,
		items: body.items.filter((i) => i.order_id !== current)
	};
}

export type SnapshotBody =
	| { snapshot: 'tts'; body: TtsQueueBody }
	| { snapshot: 'media'; body: MediaQueueBody }
	| { snapshot: 'ttsHistory'; body: { tips: HistoryTip[] } }
	| { snapshot: 'mediaHistory'; body: { media: HistoryMediaItem[] } }
	| { snapshot: 'tipping'; body: { accepting: boolean } };

/** A snapshot read: it replaces what the dock knew of that part. */
export function applySnapshot(model: DockModel, read: SnapshotBody): DockModel {
	switch (read.snapshot) {
		case 'tts': {
			const ids = read.body.items.map((i) => i.order_id);
			return {
				...model,
				tts: queueFrom(model.tts, read.body),
				seen: withIds(model.seen, ids),
				gone: withoutIds(model.gone, ids)
			};
		}
		case 'media': {
			const ids = read.body.items.map((i) => i.order_id);
			return {
				...model,
				media: { ...queueFrom(model.media, read.body), visible: read.body.visible },
				seen: withIds(model.seen, ids),
				gone: withoutIds(model.gone, ids)
			};
		}
		case 'ttsHistory':
			return sawAll(
				{ ...model, ttsHistory: read.body.tips.slice(0, HISTORY_LIMIT) },
				read.body.tips
			);
		case 'mediaHistory':
			return sawAll(
				{ ...model, mediaHistory: read.body.media.slice(0, HISTORY_LIMIT) },
				read.body.media
			);
		case 'tipping':
			return { ...model, accepting: read.body.accepting };
	}
}

/** The model, having seen every one of a history read's rows (also those past the limit). */
function sawAll(model: DockModel, rows: readonly { order_id: string }[]): DockModel {
	return {
		...model,
		seen: withIds(
			model.seen,
			rows.map((r) => r.order_id)
		)
	};
}

/** The item's position by `queued_at` (a released claim keeps its place in the queue). */
function insertInOrder<T extends Queued>(items: T[], item: T): T[] {
	const at = items.findIndex((i) => i.queued_at > item.queued_at);
	return at < 0 ? [...items, item] : [...items.slice(0, at), item, ...items.slice(at)];
}

export type QueueName = 'tts' | 'media';

/** A queue of either kind, as the events' steps see it. */
type Queue = QueueView<Queued>;

/** A new item (created, added, replayed): appended, or its record refreshed if already listed. */
function added(q: Queue, item: Queued): Queue {
	if (q.current === item.order_id) return { ...q, playing: item };
	const at = q.items.findIndex((i) => i.order_id === item.order_id);
	if (at >= 0) return { ...q, items: q.items.map((i, n) => (n === at ? item : i)) };
	return { ...q, items: [...q.items, item] };
}

function started(q: Queue, id: string, item: Queued, at: string): Queue {
	if (q.current === id) return { ...q, playing: item, startedAt: q.startedAt ?? at };
	const items = q.items.filter((i) => i.order_id !== id);
	return { ...q, current: id, playing: item, startedAt: at, items };
}

/** The item left the queue (finished, skipped, removed). */
function left(q: Queue, id: string): Queue {
	const items = q.items.filter((i) => i.order_id !== id);
	if (q.current !== id) return { ...q, items };
	return { ...q, current: null, playing: null, startedAt: null, items };
}

function released(q: Queue, id: string): Queue {
	if (q.current !== id) return q;
	const items = q.playing ? insertInOrder(q.items, q.playing) : q.items;
	return { ...q, current: null, playing: null, startedAt: null, items };
}

/** The tip's audio is rendered (the dock shows nothing of it, but keeps the record whole). */
function audioReady(q: Queue, id: string, url: string): Queue {
	const ready = <T extends Queued>(i: T): T => (i.order_id === id ? { ...i, tts_url: url } : i);
	return { ...q, playing: q.playing && ready(q.playing), items: q.items.map(ready) };
}

/** An event of either queue, in the terms the two share. */
type QueueEvent =
	| { kind: 'added'; item: QueueTip | QueueMediaItem }
	| { kind: 'started'; id: string; item: QueueTip | QueueMediaItem; at: string }
	| { kind: 'finished'; id: string; item: HistoryTip | HistoryMediaItem }
	| { kind: 'left' | 'released'; id: string }
	| { kind: 'audio'; id: string; url: string }
	| { kind: 'paused'; value: boolean }
	| { kind: 'cleared' }
	| { kind: 'visible'; value: boolean };

/** The queue an event is about, and what it says; null: not a queue event. */
function queueEvent(e: KnownEvent): { queue: QueueName; ev: QueueEvent } | null {
	const tts = (ev: QueueEvent) => ({ queue: 'tts' as const, ev });
	const media = (ev: QueueEvent) => ({ queue: 'media' as const, ev });
	switch (e.type) {
		case 'tip.created':
		case 'queue.tts.replayed':
			return tts({ kind: 'added', item: e.data.tip });
		case 'tip.tts_ready':
			return tts({ kind: 'audio', id: e.data.order_id, url: e.data.tts_url });
		case 'queue.tts.started':
			return tts({ kind: 'started', id: e.data.order_id, item: e.data.tip, at: e.created_at });
		case 'queue.tts.finished':
			return tts({ kind: 'finished', id: e.data.order_id, item: e.data.tip });
		case 'queue.tts.skipped':
		case 'queue.tts.removed':
		case 'queue.media.skipped':
		case 'queue.media.removed':
			return (e.type.startsWith('queue.tts') ? tts : media)({ kind: 'left', id: e.data.order_id });
		case 'queue.tts.released':
		case 'queue.media.released':
			return (e.type.startsWith('queue.tts') ? tts : media)({
				kind: 'released',
				id: e.data.order_id
			});
		case 'queue.tts.paused':
		case 'queue.tts.resumed':
		case 'queue.media.paused':
		case 'queue.media.resumed':
			return (e.type.startsWith('queue.tts') ? tts : media)({
				kind: 'paused',
				value: e.data.is_paused
			});
		case 'queue.tts.cleared':
			return tts({ kind: 'cleared' });
		case 'queue.media.added':
			return media({ kind: 'added', item: e.data.media });
		case 'queue.media.started':
			return media({ kind: 'started', id: e.data.order_id, item: e.data.media, at: e.created_at });
		case 'queue.media.finished':
			return media({ kind: 'finished', id: e.data.order_id, item: e.data.media });
		case 'queue.media.visibility':
			return media({ kind: 'visible', value: e.data.visible });
		default:
			return null;
	}
}

/** What the event does to the queue, and whether something else may have changed unseen. */
function step(q: Queue, ev: QueueEvent): { q: Queue; unsure: boolean } {
	switch (ev.kind) {
		case 'added':
			return { q: added(q, ev.item), unsure: false };
		case 'started':
			// Another item held the one slot: its end never reached this dock.
			return {
				q: started(q, ev.id, ev.item, ev.at),
				unsure: q.current !== null && q.current !== ev.id
			};
		case 'finished':
		case 'left':
			return { q: left(q, ev.id), unsure: false };
		case 'released':
			// A claim whose record the dock lacks went back to the queue unseen.
			return { q: released(q, ev.id), unsure: q.current === ev.id && q.playing === null };
		case 'audio':
			return { q: audioReady(q, ev.id, ev.url), unsure: false };
		case 'paused':
			return { q: { ...q, paused: ev.value }, unsure: false };
		case 'cleared':
			return {
				q: { ...q, current: null, playing: null, startedAt: null, items: [] },
				unsure: false
			};
		case 'visible':
			return { q: { ...q, visible: ev.value } as Queue, unsure: false };
	}
}

/** The order an event is about, and whether it introduces it or sees it leave for good. */
function orderOf(ev: QueueEvent): { id: string; adds: boolean; leaves: boolean } | null {
	if (ev.kind === 'added') return { id: ev.item.order_id, adds: true, leaves: false };
	if (!('id' in ev)) return null;
	return { id: ev.id, adds: false, leaves: ev.kind === 'finished' || ev.kind === 'left' };
}

/** A played item at the top of its history (the event carries the record, so it is certain). */
function played<T extends { order_id: string }>(list: T[] | null, item: T): T[] | null {
	if (list === null) return null;
	return [item, ...list.filter((i) => i.order_id !== item.order_id)].slice(0, HISTORY_LIMIT);
}

function withPlayed(model: DockModel, queue: QueueName, ev: QueueEvent): DockModel {
	if (ev.kind !== 'finished') return model;
	return queue === 'tts'
		? { ...model, ttsHistory: played(model.ttsHistory, ev.item as HistoryTip) }
		: { ...model, mediaHistory: played(model.mediaHistory, ev.item as HistoryMediaItem) };
}

/** One realtime event (already checked and de-duplicated by id by the realtime client). */
export function applyEvent(model: DockModel, e: KnownEvent): Applied {
	if (e.type === 'tipping.opened' || e.type === 'tipping.closed')
		return { model: { ...model, accepting: e.type === 'tipping.opened' }, reread: [] };
	const found = queueEvent(e);
	if (!found) return { model, reread: [] };
	const { queue } = found;
	const { ev, undecided } =
		queue === 'tts' ? decided(model, found.ev) : videoDecided(model, found.ev);
	// A record without a decision: read what the token endpoint decided.
	const decide: Snapshot[] = undecided ? [ev.kind === 'finished' ? 'ttsHistory' : queue] : [];
	// The played record is certain whatever the queue's state.
	const base = withPlayed(model, queue, ev);
	const q = base[queue];
	// Not read yet: the read in flight (or the next one) has it.
	if (q === null) return { model: base, reread: [...new Set([queue, ...decide])] };
	const order = orderOf(ev);
	// A late event about an order that already left (events come in no guaranteed order).
	if (order && base.gone.has(order.id)) return { model: base, reread: decide };
	const unknown = order !== null && !order.adds && !base.seen.has(order.id);
	const next = step(q, ev);
	const leaving =
		ev.kind === 'cleared'
			? [...q.items.map((i) => i.order_id), ...(q.current ? [q.current] : [])]
			: order?.leaves
				? [order.id]
				: [];
	return {
		model: {
			...base,
			[queue]: next.q,
			seen: order ? withIds(base.seen, [order.id]) : base.seen,
			gone: leaving.length ? withIds(base.gone, leaving) : base.gone
		},
		reread: [...new Set<Snapshot>([...(unknown || next.unsure ? [queue] : []), ...decide])]
	};
}

/**
 * A TTS event's tip with the decision the dock read for it (moderation.ts); `undecided`: the dock
 * has none, so it reads the queue (or, for a played tip, the history) for the token endpoint's.
 */
function decided(model: DockModel, ev: QueueEvent): { ev: QueueEvent; undecided: boolean } {
	if (!('item' in ev)) return { ev, undecided: false };
	const id = ev.item.order_id;
	const q = model.tts;
	const known =
		(q?.playing?.order_id === id ? q.playing : q?.items.find((i) => i.order_id === id)) ??
		model.ttsHistory?.find((i) => i.order_id === id);
	const { tip, decided } = fromEvent(ev.item as QueueTip, known);
	return { ev: { ...ev, item: tip } as QueueEvent, undecided: !decided };
}

/**
 * A media event's video with the decision the dock read for it; `undecided`: none, so it reads the
 * queue. A played video's is not asked for: Recent shows no decision of a video.
 */
function videoDecided(model: DockModel, ev: QueueEvent): { ev: QueueEvent; undecided: boolean } {
	if (!('item' in ev)) return { ev, undecided: false };
	const id = ev.item.order_id;
	const q = model.media;
	const known = q?.playing?.order_id === id ? q.playing : q?.items.find((i) => i.order_id === id);
	const { video, decided } = videoFromEvent(ev.item as QueueMediaItem, known);
	return {
		ev: { ...ev, item: video } as QueueEvent,
		undecided: !decided && ev.kind !== 'finished'
	};
}

// --- what the sections show ---

export type RecentRow =
	{ kind: 'tip'; item: HistoryTip } | { kind: 'video'; item: HistoryMediaItem };

/** Played tips and videos together, most recent first. */
export function recentRows(model: DockModel): RecentRow[] {
	const rows: RecentRow[] = [
		...(model.ttsHistory ?? []).map((item) => ({ kind: 'tip' as const, item })),
		...(model.mediaHistory ?? []).map((item) => ({ kind: 'video' as const, item }))
	];
	return rows.sort((a, b) => (a.item.played_at < b.item.played_at ? 1 : -1));
}
