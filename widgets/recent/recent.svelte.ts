// The recent-events list: the last `limit` tips and video requests, newest first. Read from the
// played histories and the pending queues (service-api.md, TTS queue and Media queue) on start and
// after every (re)connect; in between, tip.created and queue.media.added add rows at once.
// A credential without media:read still lists tips (the media reads then count as empty).
import type { ApiClient } from '../../src/client/api.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import type { KnownEvent } from '../../src/contract/index.ts';
import * as routes from '../../src/contract/routes.ts';
import type { ListViewModel } from '../leaderboard/view.ts';
import { describeReadFailure, listStatus, retryDelay } from '../shared/list-reads.ts';
import { mergeRecent, tipRow, videoRow, type RecentRow } from './recent-list.ts';

export interface RecentDeps {
	api: Pick<ApiClient, 'request'>;
	events: EventHub;
	limit: number;
}

export class RecentState {
	view: ListViewModel<RecentRow> = $state({
		status: 'connecting',
		statusDetail: '',
		rows: [],
		loaded: false,
		currency: null
	});

	private readonly deps: RecentDeps;
	private connection: RealtimeState = 'connecting';
	private connectionDetail = '';
	private readFailure: string | null = null;
	private refused = false;
	private failures = 0;
	private inFlight = false;
	private again = false;
	private wantsMe = true;
	/** Rows from events since the running read began: the read may predate them. */
	private live: RecentRow[] = [];
	private retry: ReturnType<typeof setTimeout> | null = null;
	private unsubscribe: (() => void) | null = null;
	private destroyed = false;

	constructor(deps: RecentDeps) {
		this.deps = deps;
	}

	start(): this {
		this.unsubscribe = this.deps.events.subscribe({
			event: (e) => this.apply(e),
			resync: () => void this.read()
		});
		void this.read();
		return this;
	}

	setConnection(state: RealtimeState, detail: string): void {
		this.connection = state;
		this.connectionDetail = detail;
		this.refresh();
	}

	destroy(): void {
		this.destroyed = true;
		this.unsubscribe?.();
		if (this.retry !== null) clearTimeout(this.retry);
		this.retry = null;
	}

	/** Replays are not new events: they are left out, as in the reads. */
	apply(e: KnownEvent): void {
		let row: RecentRow | null = null;
		if (e.type === 'tip.created' && !e.data.tip.is_replay) row = tipRow(e.data.tip);
		else if (e.type === 'queue.media.added' && !e.data.media.is_replay)
			row = videoRow(e.data.media);
		if (!row) return;
		if (this.inFlight) this.live.push(row);
		this.view.rows = mergeRecent([this.view.rows, [row]], this.deps.limit);
	}

	async read(): Promise<void> {
		if (this.destroyed) return;
		if (this.inFlight) {
			this.again = true;
			return;
		}
		if (this.retry !== null) clearTimeout(this.retry);
		this.retry = null;
		this.inFlight = true;
		this.live = [];
		const { api, limit } = this.deps;
		const query = { query: { limit } };
		const wantsMe = this.wantsMe;
		const [tipsPlayed, tipsQueued, mediaPlayed, mediaQueued, me] = await Promise.all([
			api.request(routes.ttsHistory, {}, query),
			api.request(routes.ttsQueue),
			api.request(routes.mediaHistory, {}, query),
			api.request(routes.mediaQueue),
			wantsMe ? api.request(routes.me) : null
		]);
		this.inFlight = false;
		if (this.destroyed) return;
		if (me?.ok) {
			this.wantsMe = false;
			this.view.currency = {
				code: me.body.tenant.currency,
				symbol: me.body.tenant.currency_symbol
			};
		}
		const failed = [tipsPlayed, tipsQueued].find((r) => !r.ok);
		if (failed && !failed.ok) {
			this.failures += 1;
			this.refused = failed.kind === 'http' && failed.status === 401;
			this.readFailure = describeReadFailure('the tips', failed);
			if (!this.refused)
				this.retry = setTimeout(
					() => {
						this.retry = null;
						void this.read();
					},
					retryDelay(this.failures, failed)
				);
		} else {
			this.failures = 0;
			this.readFailure = null;
			const tips = [
				...(tipsPlayed.ok ? tipsPlayed.body.tips : []),
				...(tipsQueued.ok ? tipsQueued.body.items : [])
			].filter((t) => !t.is_replay);
			const videos = [
				...(mediaPlayed.ok ? mediaPlayed.body.media : []),
				...(mediaQueued.ok ? mediaQueued.body.items : [])
			].filter((m) => !m.is_replay);
			this.view.rows = mergeRecent([tips.map(tipRow), videos.map(videoRow), this.live], limit);
			this.view.loaded = true;
		}
		this.live = [];
		this.refresh();
		if (this.again) {
			this.again = false;
			void this.read();
		}
	}

	private refresh(): void {
		const s = listStatus(this.connection, this.connectionDetail, this.readFailure, this.refused);
		if (this.view.status !== s.status) this.view.status = s.status;
		if (this.view.statusDetail !== s.detail) this.view.statusDetail = s.detail;
	}
}
