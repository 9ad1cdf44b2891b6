// The recent-events list: the last `limit` tips and video requests, newest first. Read from the
// played histories and the pending queues (docs/upstream.md, TTS queue and Media queue) on start
// and after every (re)connect; in between, a tip or video the streamer skips or removes leaves the
// list at once (it never reaches the played history, so a reload would not show it either), the
// next older one read in its place.
// Tips and videos obey moderation (docs/moderation.md): only those the token endpoint decided to
// show are listed (a tip read aloud or shown without voice, with the message as it gave it out; a
// video decided to play). So neither tip.created nor queue.media.added adds a row: each has the
// list read again soon (the read decides it), as does every message of the push channel (a
// decision changed).
// A credential without media:read still lists tips (the media reads then count as empty).
import type { KnownEvent, LiveMessage } from '../../src/contract/index.ts';
import * as routes from '../../src/contract/routes.ts';
import { ListReader, type ListDeps, type ListRead } from '../shared/list-reads.svelte.ts';
import { touchesQueues } from '../shared/queue-watch.ts';
import {
	listedTip,
	listedVideo,
	mergeRecent,
	tipRow,
	videoRow,
	type RecentRow
} from './recent-list.ts';

/** After a row leaves, the list reads again this soon to show the next older one in its place. */
const REFILL_MS = 300;
/** After a new tip or a changed decision, the list reads again within this long. */
export const DECISION_READ_MS = 300;

/** The row a skip or a removal takes off the list, or null. */
function removedKey(e: KnownEvent): string | null {
	switch (e.type) {
		case 'queue.tts.skipped':
		case 'queue.tts.removed':
			return 'tip:' + e.data.order_id;
		case 'queue.media.skipped':
		case 'queue.media.removed':
			return 'video:' + e.data.order_id;
		default:
			return null;
	}
}

export class RecentState extends ListReader<RecentRow> {
	/** Rows skipped or removed since the running read began: the read may still list them. */
	private gone = new Set<string>();

	constructor(deps: ListDeps) {
		super(deps, 'the tips');
	}

	/** Replays are not new events: they are left out, as in the reads. */
	apply(e: KnownEvent): void {
		const goneKey = removedKey(e);
		if (goneKey) {
			// A running read may list it even when the screen does not show it yet.
			if (this.reading) this.gone.add(goneKey);
			if (!this.view.rows.some((r) => r.key === goneKey)) return;
			this.view.rows = this.view.rows.filter((r) => r.key !== goneKey);
			this.scheduleWithin(REFILL_MS);
			return;
		}
		// Not shown as the event has it: the read has the token endpoint decide it.
		if (e.type === 'tip.created' && !e.data.tip.is_replay) this.scheduleWithin(DECISION_READ_MS);
		if (e.type === 'queue.media.added' && !e.data.media.is_replay)
			this.scheduleWithin(DECISION_READ_MS);
	}

	/** A decision changed (approved, rejected), or the channel (re)connected: read again. */
	protected override applyLive(m: LiveMessage): void {
		if (touchesQueues(m)) this.scheduleWithin(DECISION_READ_MS);
	}

	protected async fetch(): Promise<ListRead<RecentRow>> {
		this.gone.clear();
		const { api, limit } = this.deps;
		const query = { query: { limit } };
		const [tipsPlayed, tipsQueued, mediaPlayed, mediaQueued] = await Promise.all([
			api.request(routes.ttsHistory, {}, query),
			api.request(routes.ttsQueue),
			api.request(routes.mediaHistory, {}, query),
			api.request(routes.mediaQueue)
		]);
		if (!tipsPlayed.ok) return tipsPlayed;
		if (!tipsQueued.ok) return tipsQueued;
		const tips = [...tipsPlayed.body.tips, ...tipsQueued.body.items].filter(listedTip);
		const videos = [
			...(mediaPlayed.ok ? mediaPlayed.body.media.filter((m) => listedVideo(m, true)) : []),
			...(mediaQueued.ok ? mediaQueued.body.items.filter((m) => listedVideo(m, false)) : [])
		];
		return { ok: true, rows: [...tips.map(tipRow), ...videos.map(videoRow)] };
	}

	/** The read's rows but those skipped or removed while it ran. */
	protected override landed(rows: RecentRow[]): RecentRow[] {
		const kept = this.gone.size ? rows.filter((r) => !this.gone.has(r.key)) : rows;
		const merged = mergeRecent([kept], this.deps.limit);
		this.gone.clear();
		return merged;
	}
}
