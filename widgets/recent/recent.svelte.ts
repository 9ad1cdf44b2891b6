// The recent-events list: the last `limit` tips and video requests, newest first. Read from the
// played histories and the pending queues (service-api.md, TTS queue and Media queue) on start and
// after every (re)connect; in between, queue.media.added adds a row at once, and a tip or video the
// streamer skips or removes leaves the list at once (it never reaches the played history, so a
// reload would not show it either), the next older one read in its place.
// Tips obey moderation (docs/moderation.md): only those the token endpoint decided to show (read
// aloud or shown without voice) are listed, with the message as it gave it out (masked, or none).
// So a tip.created event adds no row: it has the list read again soon (the read decides the tip),
// as does every message of the push channel (a decision changed).
// A credential without media:read still lists tips (the media reads then count as empty).
import type { KnownEvent, LiveMessage } from '../../src/contract/index.ts';
import * as routes from '../../src/contract/routes.ts';
import { ListReader, type ListDeps, type ListRead } from '../shared/list-reads.svelte.ts';
import { listedTip, mergeRecent, tipRow, videoRow, type RecentRow } from './recent-list.ts';

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
	/** Rows from events (videos) since the running read began: the read may predate them. */
	private live: RecentRow[] = [];
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
			this.live = this.live.filter((r) => r.key !== goneKey);
			if (!this.view.rows.some((r) => r.key === goneKey)) return;
			this.view.rows = this.view.rows.filter((r) => r.key !== goneKey);
			this.scheduleWithin(REFILL_MS);
			return;
		}
		// Not shown as the event has it: the read has the token endpoint decide it.
		if (e.type === 'tip.created' && !e.data.tip.is_replay) this.scheduleWithin(DECISION_READ_MS);
		if (e.type !== 'queue.media.added' || e.data.media.is_replay) return;
		const row = videoRow(e.data.media);
		if (this.reading) this.live.push(row);
		this.view.rows = mergeRecent([this.view.rows, [row]], this.deps.limit);
	}

	/**
	 * A decision changed (approved, rejected), or the channel (re)connected: read again. Not for
	 * stored settings (the page hands them to applySettings).
	 */
	protected override applyLive(m: LiveMessage): void {
		if (m.type !== 'settings') this.scheduleWithin(DECISION_READ_MS);
	}

	protected async fetch(): Promise<ListRead<RecentRow>> {
		this.live = [];
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
			...(mediaPlayed.ok ? mediaPlayed.body.media : []),
			...(mediaQueued.ok ? mediaQueued.body.items : [])
		].filter((m) => !m.is_replay);
		return { ok: true, rows: [...tips.map(tipRow), ...videos.map(videoRow)] };
	}

	/** The read's rows with those that came by event while it ran (an event's copy wins). */
	protected override landed(rows: RecentRow[]): RecentRow[] {
		const kept = this.gone.size ? rows.filter((r) => !this.gone.has(r.key)) : rows;
		const merged = mergeRecent([kept, this.live], this.deps.limit);
		this.live = [];
		this.gone.clear();
		return merged;
	}
}
