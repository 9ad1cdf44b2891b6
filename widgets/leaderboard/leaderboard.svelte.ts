// The top-supporters board: GET /leaderboard?limit (service-api.md, Tipping: any credential), read
// on start, after every (re)connect, and once more when tips land: one setTimeout debounces a burst
// into one read. Nothing runs while nothing happens.
import type { ApiClient } from '../../src/client/api.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import type { KnownEvent } from '../../src/contract/index.ts';
import * as routes from '../../src/contract/routes.ts';
import { describeReadFailure, listStatus, retryDelay } from '../shared/list-reads.ts';
import type { ListViewModel, SupporterRow } from './view.ts';

/** A burst of tips (a raid, the demo) is one read. */
export const TIP_DEBOUNCE_MS = 1500;

export interface LeaderboardDeps {
	api: Pick<ApiClient, 'request'>;
	events: EventHub;
	limit: number;
}

export class LeaderboardState {
	view: ListViewModel<SupporterRow> = $state({
		status: 'connecting',
		statusDetail: '',
		rows: [],
		loaded: false,
		currency: null
	});

	private readonly deps: LeaderboardDeps;
	private connection: RealtimeState = 'connecting';
	private connectionDetail = '';
	private readFailure: string | null = null;
	private refused = false;
	private failures = 0;
	private inFlight = false;
	private again = false;
	private wantsMe = true;
	/** The one timer: the debounced re-read or the retry after a failure. */
	private timer: ReturnType<typeof setTimeout> | null = null;
	private unsubscribe: (() => void) | null = null;
	private destroyed = false;

	constructor(deps: LeaderboardDeps) {
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
		this.schedule(null);
	}

	apply(e: KnownEvent): void {
		if (e.type === 'tip.created') this.schedule(TIP_DEBOUNCE_MS);
	}

	async read(): Promise<void> {
		if (this.destroyed) return;
		if (this.inFlight) {
			this.again = true;
			return;
		}
		this.schedule(null);
		this.inFlight = true;
		const wantsMe = this.wantsMe;
		const [board, me] = await Promise.all([
			this.deps.api.request(routes.leaderboard, {}, { query: { limit: this.deps.limit } }),
			wantsMe ? this.deps.api.request(routes.me) : null
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
		if (board.ok) {
			this.failures = 0;
			this.readFailure = null;
			this.view.rows = board.body.supporters.slice(0, this.deps.limit).map((s, i) => ({
				key: `${i}:${s.name}`,
				rank: i + 1,
				name: s.name,
				total: s.total,
				tips: s.tips
			}));
			this.view.loaded = true;
		} else {
			this.failures += 1;
			this.refused = board.kind === 'http' && board.status === 401;
			this.readFailure = describeReadFailure('the leaderboard', board);
			if (!this.refused) this.schedule(retryDelay(this.failures, board));
		}
		this.refresh();
		if (this.again) {
			this.again = false;
			void this.read();
		}
	}

	private schedule(ms: number | null): void {
		if (this.timer !== null) clearTimeout(this.timer);
		this.timer = null;
		if (ms === null || this.destroyed) return;
		this.timer = setTimeout(() => {
			this.timer = null;
			void this.read();
		}, ms);
	}

	private refresh(): void {
		const s = listStatus(this.connection, this.connectionDetail, this.readFailure, this.refused);
		if (this.view.status !== s.status) this.view.status = s.status;
		if (this.view.statusDetail !== s.detail) this.view.statusDetail = s.detail;
	}
}
