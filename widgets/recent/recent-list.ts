// The recent-events list as pure data: tips (as moderation decided them) and video requests from
// history, queues and realtime events merged into one list, deduplicated by order id, newest
// first. No timers, no I/O.
import type { QueueMediaItem, QueueTip } from '../../src/contract/index.ts';

export type RecentKind = 'tip' | 'video';

export interface RecentRow {
	/** `tip:` or `video:` + order id: a tip and the video request it paid for stay two rows. */
	key: string;
	kind: RecentKind;
	name: string;
	/** Null: no amount (a video request carries none; a reward has none). */
	amount: number | null;
	/** The tip's message or the video's title; null when there is none. */
	text: string | null;
	/** When it entered its queue (ms since epoch): the sort key. */
	at: number;
}

/**
 * A tip the list shows: one the token endpoint decided to show (read aloud, or shown without
 * voice, its message masked or left out), never a held, removed or undecided one, nor a replay.
 */
export function listedTip(t: QueueTip): boolean {
	const outcome = t.moderation?.outcome;
	return !t.is_replay && (outcome === 'read' || outcome === 'no_voice');
}

/**
 * A video the list shows: one the token endpoint decided to play, or one of the played history
 * it holds no decision of (it played before any was made); never a held, removed or undecided one,
 * nor a replay.
 */
export function listedVideo(m: QueueMediaItem, played: boolean): boolean {
	if (m.is_replay) return false;
	return m.moderation === undefined ? played : m.moderation.outcome === 'read';
}

/** A tip's row, with its message as the token endpoint gave it out. */
export function tipRow(t: QueueTip): RecentRow {
	return {
		key: 'tip:' + t.order_id,
		kind: 'tip',
		name: t.name,
		amount: t.amount,
		text: t.message,
		at: Date.parse(t.queued_at)
	};
}

export function videoRow(m: QueueMediaItem): RecentRow {
	return {
		key: 'video:' + m.order_id,
		kind: 'video',
		name: m.donor_name,
		amount: null,
		text: m.video_title ?? m.media_url,
		at: Date.parse(m.queued_at)
	};
}

/**
 * Merges rows into one list: one row per key (the later source wins, so an event's copy replaces
 * a read's), newest first (ties by key, so the order is stable), at most `limit` rows.
 */
export function mergeRecent(
	lists: ReadonlyArray<readonly RecentRow[]>,
	limit: number
): RecentRow[] {
	const byKey = new Map<string, RecentRow>();
	for (const list of lists) for (const row of list) byKey.set(row.key, row);
	return [...byKey.values()]
		.sort((a, b) => (b.at || 0) - (a.at || 0) || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0))
		.slice(0, limit);
}
