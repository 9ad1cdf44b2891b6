// What the list widgets (recent events, top supporters) share: the view model, the reader that
// reads the rows on start and after every (re)connect, the status from the connection and the last
// read, and the backoff of a failed read (one setTimeout, never a poll). Nothing runs while nothing
// happens. Each list says what it reads (fetch) and what an event does to it (apply).
import type { ApiClient, ApiFailure } from '../../src/client/api.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import { backoffDelay } from '../../src/core/backoff.ts';
import type { KnownEvent } from '../../src/contract/index.ts';
import * as routes from '../../src/contract/routes.ts';
import type { CurrencyInfo } from './currency.ts';
import type { WidgetTheme } from './theme-params.ts';

export type ListStatus = 'connecting' | 'ready' | 'unauthorized' | 'failing';

export interface ListViewModel<Row> {
	status: ListStatus;
	/** Why: a refusal or failure in a sentence. */
	statusDetail: string;
	rows: Row[];
	/** Rows were read at least once (an empty list then says so). */
	loaded: boolean;
	/** The tenant's currency (GET /me); null formats plain numbers. */
	currency: CurrencyInfo | null;
}

/** A list before its first read (and on a page that shows only its URL errors). */
export function unreadList(): ListViewModel<never> {
	return { status: 'connecting', statusDetail: '', rows: [], loaded: false, currency: null };
}

/** The props of a list widget (Leaderboard.svelte, Recent.svelte). */
export interface ListWidgetProps<Row> {
	view: ListViewModel<Row>;
	theme?: WidgetTheme;
	paramErrors?: string[] | null;
}

export interface ListDeps {
	api: Pick<ApiClient, 'request'>;
	events: EventHub;
	limit: number;
}

/** One read of a list: its rows, or the response that failed. */
export type ListRead<Row> = { ok: true; rows: Row[] } | ApiFailure;

const RETRY = { baseMs: 1000, maxMs: 30_000 };

export abstract class ListReader<Row> {
	view: ListViewModel<Row> = $state(unreadList());

	protected readonly deps: ListDeps;
	/** What is read, for the error sentence: `the leaderboard`. */
	private readonly what: string;
	private connection: RealtimeState = 'connecting';
	private connectionDetail = '';
	private readFailure: string | null = null;
	private refused = false;
	private failures = 0;
	/** A read is running: another one waits for it (`again`). */
	protected reading = false;
	private again = false;
	private wantsMe = true;
	/** The one timer: a re-read the list asked for, or the retry after a failure. */
	private timer: ReturnType<typeof setTimeout> | null = null;
	/** When that timer fires (ms since epoch). */
	private timerDue = 0;
	private unsubscribe: (() => void) | null = null;
	private destroyed = false;

	constructor(deps: ListDeps, what: string) {
		this.deps = deps;
		this.what = what;
	}

	/** What a realtime event does to the list. */
	abstract apply(e: KnownEvent): void;

	/** Reads the rows from the upstream. */
	protected abstract fetch(): Promise<ListRead<Row>>;

	/** The rows of a read as the list shows them (a list may add what came by event meanwhile). */
	protected landed(rows: Row[]): Row[] {
		return rows;
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

	async read(): Promise<void> {
		if (this.destroyed) return;
		if (this.reading) {
			this.again = true;
			return;
		}
		this.schedule(null);
		this.reading = true;
		const wantsMe = this.wantsMe;
		const [res, me] = await Promise.all([
			this.fetch(),
			wantsMe ? this.deps.api.request(routes.meCurrency) : null
		]);
		this.reading = false;
		if (this.destroyed) return;
		if (me?.ok) {
			this.wantsMe = false;
			this.view.currency = {
				code: me.body.tenant.currency,
				symbol: me.body.tenant.currency_symbol
			};
		}
		if (res.ok) {
			this.failures = 0;
			this.readFailure = null;
			this.view.rows = this.landed(res.rows);
			this.view.loaded = true;
		} else {
			this.failures += 1;
			this.refused = res.kind === 'http' && res.status === 401;
			this.readFailure = describeReadFailure(this.what, res);
			if (!this.refused) this.schedule(retryDelay(this.failures, res));
		}
		this.refresh();
		if (this.again) {
			this.again = false;
			void this.read();
		}
	}

	/** Reads again in `ms` (replacing any read already scheduled); null: cancels it. */
	protected schedule(ms: number | null): void {
		if (this.timer !== null) clearTimeout(this.timer);
		this.timer = null;
		if (ms === null || this.destroyed) return;
		this.timerDue = Date.now() + ms;
		this.timer = setTimeout(() => {
			this.timer = null;
			void this.read();
		}, ms);
	}

	/**
	 * Reads again within `ms`: a read already scheduled sooner stands, so a steady stream of events
	 * (each asking for this) still reads every `ms`, never later.
	 */
	protected scheduleWithin(ms: number): void {
		if (this.timer !== null && this.timerDue <= Date.now() + ms) return;
		this.schedule(ms);
	}

	private refresh(): void {
		const s = listStatus(this.connection, this.connectionDetail, this.readFailure, this.refused);
		if (this.view.status !== s.status) this.view.status = s.status;
		if (this.view.statusDetail !== s.detail) this.view.statusDetail = s.detail;
	}
}

function listStatus(
	connection: RealtimeState,
	connectionDetail: string,
	readFailure: string | null,
	refused: boolean
): { status: ListStatus; detail: string } {
	if (connection === 'unauthorized') return { status: 'unauthorized', detail: connectionDetail };
	if (refused && readFailure) return { status: 'unauthorized', detail: readFailure };
	if (readFailure) return { status: 'failing', detail: readFailure };
	if (connection === 'failing') return { status: 'failing', detail: connectionDetail };
	return { status: connection === 'open' ? 'ready' : 'connecting', detail: '' };
}

function describeReadFailure(what: string, res: ApiFailure): string {
	if (res.kind === 'http') {
		if (res.status === 401) return 'The server did not accept the key in this URL.';
		if (res.status === 403) return `The upstream API key may not read ${what}.`;
		return `reading ${what} failed: the server answered ${res.status}`;
	}
	if (res.kind === 'network') return `reading ${what} failed: the server could not be reached`;
	return `reading ${what} failed: ${res.error}`;
}

/** The wait before retry number `failures` (1-based), at least what a 429 asked for. */
function retryDelay(failures: number, res: ApiFailure): number {
	return Math.max(
		backoffDelay(failures - 1, RETRY),
		res.kind === 'http' ? (res.retryAfterMs ?? 0) : 0
	);
}
