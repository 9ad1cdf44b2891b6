// The recent-events list: the last `limit` tips and video requests, newest first. Read from the
// played histories and the pending queues (service-api.md, TTS queue and Media queue) on start and
// after every (re)connect; in between, tip.created and queue.media.added add rows at once.
// A credential without media:read still lists tips (the media reads then count as empty).
import type { KnownEvent } from '../../src/contract/index.ts';
import * as routes from '../../src/contract/routes.ts';
import { ListReader, type ListDeps, type ListRead } from '../shared/list-reads.svelte.ts';
import { mergeRecent, tipRow, videoRow, type RecentRow } from './recent-list.ts';

export class RecentState extends ListReader<RecentRow> {
	/** Rows from events since the running read began: the read may predate them. */
	private live: RecentRow[] = [];

	constructor(deps: ListDeps) {
		super(deps, 'the tips');
	}

	/** Replays are not new events: they are left out, as in the reads. */
	apply(e: KnownEvent): void {
		let row: RecentRow | null = null;
		if (e.type === 'tip.created' && !e.data.tip.is_replay) row = tipRow(e.data.tip);
		else if (e.type === 'queue.media.added' && !e.data.media.is_replay)
			row = videoRow(e.data.media);
		if (!row) return;
		if (this.reading) this.live.push(row);
		this.view.rows = mergeRecent([this.view.rows, [row]], this.deps.limit);
	}

	protected async fetch(): Promise<ListRead<RecentRow>> {
		this.live = [];
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
		const tips = [...tipsPlayed.body.tips, ...tipsQueued.body.items].filter((t) => !t.is_replay);
		const videos = [
			...(mediaPlayed.ok ? mediaPlayed.body.media : []),
			...(mediaQueued.ok ? mediaQueued.body.items : [])
		].filter((m) => !m.is_replay);
		return { ok: true, rows: [...tips.map(tipRow), ...videos.map(videoRow)] };
	}

	/** The read's rows with those that came by event while it ran (an event's copy wins). */
	protected override landed(rows: RecentRow[]): RecentRow[] {
		const merged = mergeRecent([rows, this.live], this.deps.limit);
		this.live = [];
		return merged;
	}
}
