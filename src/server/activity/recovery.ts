// No gap in the Activity (docs/activity.md, recovery): what the intake's reads show is recorded
// too, once: each landed read of the played histories and the queues (an entry made so is
// `via: 'recovered'`, its outcome read, played or waiting), and after each connect (a reconnect,
// a takeover) the histories are paged back with `before` until an order already recorded, the
// retention's start or RECOVERY_PAGES pages, whichever comes first.
import {
	MediaHistoryBody,
	parseWith,
	TtsHistoryBody,
	type HistoryMediaItem,
	type HistoryTip,
	type MediaQueueBody,
	type TtsQueueBody
} from '../../contract/index.ts';
import { tipKey, tipUpdate, videoKey, videoUpdate } from '../../core/activity/entries.ts';
import type { ViewPart } from '../../core/view/parts.ts';
import type { UpstreamClient } from '../upstream.ts';
import type { Heard } from './store.ts';

/** The most pages of each history read after one connect (the reads cost the upstream's budget). */
export const RECOVERY_PAGES = 3;
const PAGE = 100;

type Row = { order_id: string; queued_at: string };
type HistoryPage = { rows: Row[]; next: string | null };

/** What a landed read of `part` records; null: a part the Activity does not keep. */
export function readHeard(part: ViewPart, body: unknown, now: string): Heard[] | null {
	switch (part) {
		case 'ttsHistory':
			return historyHeard('tts', (body as { tips: HistoryTip[] }).tips);
		case 'mediaHistory':
			return historyHeard('media', (body as { media: HistoryMediaItem[] }).media);
		case 'tts': {
			const q = body as TtsQueueBody;
			return q.items.map((tip) => ({
				eventId: null,
				updates: [
					tipUpdate(
						tip,
						q.current_order_id === tip.order_id ? 'playing' : 'queued',
						'recovered',
						now
					)
				]
			}));
		}
		case 'media': {
			const q = body as MediaQueueBody;
			return q.items.map((media) => ({
				eventId: null,
				updates: [
					videoUpdate(
						media,
						q.current_order_id === media.order_id ? 'playing' : 'queued',
						'recovered',
						now
					)
				]
			}));
		}
		default:
			return null;
	}
}

function historyHeard(queue: 'tts' | 'media', rows: readonly (HistoryTip | HistoryMediaItem)[]) {
	return rows.map((row): Heard => ({
		eventId: null,
		updates: [
			queue === 'tts'
				? tipUpdate(row as HistoryTip, 'read', 'recovered', row.played_at)
				: videoUpdate(row as HistoryMediaItem, 'played', 'recovered', row.played_at)
		]
	}));
}

export interface PageBack {
	upstream: Pick<UpstreamClient, 'call'>;
	/** Whether these orders' entries are recorded already (their keys). */
	recorded: (keys: string[]) => Promise<Set<string>>;
	record: (heard: Heard[]) => Promise<unknown>;
	/** The retention's start (ms): older rows are not recovered. */
	since: number;
	log: (line: string) => void;
}

/**
 * Pages `queue`'s history back from `before` (the last row of the read that landed) and records
 * what it finds: RECOVERY_PAGES at most, stopping at a row recorded already or older than `since`.
 */
export async function pageBack(queue: 'tts' | 'media', before: string, o: PageBack) {
	let cursor: string | null = before;
	for (let page = 0; cursor !== null && page < RECOVERY_PAGES; page++) {
		const read = await readPage(queue, cursor, o);
		if (!read) return;
		const keyOf = queue === 'tts' ? tipKey : videoKey;
		const known = await o.recorded(read.rows.map((r) => keyOf(r.order_id)));
		const fresh: Row[] = [];
		let done = read.next === null;
		for (const row of read.rows) {
			if (known.has(keyOf(row.order_id)) || Date.parse(row.queued_at) < o.since) {
				done = true;
				break;
			}
			fresh.push(row);
		}
		if (fresh.length) await o.record(historyHeard(queue, fresh as never));
		if (done) return;
		cursor = read.next;
	}
}

async function readPage(queue: 'tts' | 'media', before: string, o: PageBack) {
	const path = `/${queue}/history?limit=${PAGE}&before=${encodeURIComponent(before)}`;
	const res = await o.upstream.call('GET', path).catch(() => null);
	if (!res?.ok) {
		await res?.body?.cancel();
		o.log(
			`[activity] recovering ${queue} history: GET ${path.split('?')[0]} ${res?.status ?? 'failed'}`
		);
		return null;
	}
	const json: unknown = await res.json().catch(() => null);
	if (queue === 'tts') {
		const p = parseWith(TtsHistoryBody, json);
		return p.ok ? page(p.value.tips, p.value) : bad(o, queue);
	}
	const p = parseWith(MediaHistoryBody, json);
	return p.ok ? page(p.value.media, p.value) : bad(o, queue);
}

function page(rows: Row[], body: { has_more: boolean; next_cursor: string | null }): HistoryPage {
	return { rows, next: body.has_more ? body.next_cursor : null };
}

function bad(o: PageBack, queue: string): null {
	o.log(`[activity] recovering ${queue} history: an answer that does not parse; stopped`);
	return null;
}
