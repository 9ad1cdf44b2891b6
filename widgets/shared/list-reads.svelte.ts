// What the list widgets (recent events, top supporters) share: the view model, and the reader
// that turns the connection and the last read into the list's status. The reading itself (on
// start, after every (re)connect, retried with backoff) is the shared UpstreamReader's. Each list
// says what it reads (fetch) and what an event does to it (apply).
import { refusesKey, type ApiFailure } from '../../src/client/api.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import type { CurrencyInfo } from './currency.ts';
import type { WidgetTheme } from './theme-params.ts';
import { UpstreamReader, type ReaderSource } from './upstream-reader.ts';

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

export interface ListDeps extends ReaderSource {
	limit: number;
	/** The list's font, colours, scale and position (absent: the component's defaults). */
	theme?: WidgetTheme;
}

/** One read of a list: its rows, or the response that failed. */
export type ListRead<Row> = { ok: true; rows: Row[] } | ApiFailure;

export abstract class ListReader<Row> extends UpstreamReader<
	ListViewModel<Row>,
	{ ok: true; rows: Row[] }
> {
	view: ListViewModel<Row> = $state(unreadList());
	/** The markup's theme: the stored settings change it at once. */
	theme: WidgetTheme | undefined = $state.raw();

	protected readonly deps: ListDeps;
	/** What is read, for the error sentence: `the leaderboard`. */
	private readonly what: string;
	private readFailure: string | null = null;
	/** The last read failed with 401: the key is refused (no retry until a reconnect). */
	private refused = false;

	constructor(deps: ListDeps, what: string) {
		super(deps);
		// A copy: applySettings changes its limit.
		this.deps = { ...deps };
		this.theme = deps.theme;
		this.what = what;
	}

	/**
	 * The stored settings changed: the theme applies at once (a list has nothing in flight); the
	 * list is read again only when it shows another number of rows.
	 */
	applySettings(params: WidgetTheme & { limit: number }): void {
		this.theme = params;
		if (params.limit === this.deps.limit) return;
		this.deps.limit = params.limit;
		void this.read();
	}

	/** The rows of a read as the list shows them (a list may add what came by event meanwhile). */
	protected landed(rows: Row[]): Row[] {
		return rows;
	}

	protected readSucceeded(read: { ok: true; rows: Row[] }): void {
		this.readFailure = null;
		this.view.rows = this.landed(read.rows);
		this.view.loaded = true;
	}

	protected readFailed(res: ApiFailure): boolean {
		this.refused = refusesKey(res);
		this.readFailure = describeReadFailure(this.what, res);
		return !this.refused;
	}

	protected refresh(): void {
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
		if (refusesKey(res)) return 'The server did not accept the key in this URL.';
		if (res.status === 403) return `The upstream API key may not read ${what}.`;
		return `reading ${what} failed: the server answered ${res.status}`;
	}
	if (res.kind === 'network') return `reading ${what} failed: the server could not be reached`;
	return `reading ${what} failed: ${res.error}`;
}
