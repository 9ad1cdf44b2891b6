// What the widgets that show data read from the upstream (the lists, the tip goal) share: a read
// on start and after every (re)connect, one read at a time (a read asked for meanwhile follows
// it), the tenant's currency read alongside until it is known, and one timer, either for a read
// asked for later or for the retry of a failed read with a capped backoff (never a poll). Nothing
// runs while nothing happens. Each widget says what it reads (fetch), what a read that succeeded
// or failed means to it, what an event does (apply) and what its status shows (refresh).
import type { ApiClient, ApiFailure } from '../../src/client/api.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import { backoffDelay } from '../../src/core/backoff.ts';
import type { KnownEvent, LiveMessage } from '../../src/contract/index.ts';
import { readCurrency, type CurrencyInfo } from './currency.ts';

export interface ReaderSource {
	api: Pick<ApiClient, 'request'>;
	events: EventHub;
}

const RETRY = { baseMs: 1000, maxMs: 30_000 };

/** `Read` is what a read that succeeded returns; a read that failed returns the failed response. */
export abstract class UpstreamReader<
	View extends { currency: CurrencyInfo | null },
	Read extends { ok: true }
> {
	/** The widget's view model (a `$state` of the subclass); the reader fills in `currency`. */
	abstract view: View;

	protected connection: RealtimeState = 'connecting';
	protected connectionDetail = '';
	/** A read is running: another one waits for it (`again`). */
	protected reading = false;
	protected destroyed = false;
	readonly #source: ReaderSource;
	/** Failed reads since the last one that succeeded: the backoff grows with them. */
	#failures = 0;
	#again = false;
	/** The next read also reads the currency (GET /me). */
	#wantsCurrency = true;
	/** The one timer: a re-read the widget asked for, or the retry after a failure. */
	#timer: ReturnType<typeof setTimeout> | null = null;
	/** When that timer fires (ms since epoch). */
	#timerDue = 0;
	#unsubscribe: (() => void) | null = null;

	constructor(source: ReaderSource) {
		this.#source = source;
	}

	/** What a realtime event does to the widget. */
	abstract apply(e: KnownEvent): void;

	/** What a message of the push channel does (pages that open it): nothing unless overridden. */
	protected applyLive(_message: LiveMessage): void {}

	/** Reads the widget's data from the upstream. */
	protected abstract fetch(): Promise<Read | ApiFailure>;

	/** A read succeeded: take its data (the view is refreshed next). */
	protected abstract readSucceeded(read: Read): void;

	/** A read failed: note why (the view is refreshed next); true retries it after a backoff. */
	protected abstract readFailed(res: ApiFailure): boolean;

	/** Shows the status (and whatever else depends on the connection and the last read). */
	protected abstract refresh(): void;

	start(): this {
		this.#unsubscribe = this.#source.events.subscribe({
			event: (e) => this.apply(e),
			resync: () => this.resync(),
			live: (m) => this.applyLive(m)
		});
		void this.read();
		return this;
	}

	/** The realtime connection's state, for the status and the diagnostics. */
	setConnection(state: RealtimeState, detail: string): void {
		this.connection = state;
		this.connectionDetail = detail;
		this.refresh();
	}

	destroy(): void {
		this.destroyed = true;
		this.#unsubscribe?.();
		this.schedule(null);
	}

	async read(): Promise<void> {
		if (this.destroyed) return;
		if (this.reading) {
			this.#again = true;
			return;
		}
		this.schedule(null);
		this.reading = true;
		const wantsCurrency = this.#wantsCurrency;
		this.#wantsCurrency = false;
		const [res, currency] = await Promise.all([
			this.fetch(),
			wantsCurrency ? readCurrency(this.#source.api) : null
		]);
		this.reading = false;
		if (this.destroyed) return;
		if (currency) this.view.currency = currency;
		// Wanted and not read: the next read asks again.
		else if (wantsCurrency) this.#wantsCurrency = true;
		if (res.ok) {
			this.#failures = 0;
			this.readSucceeded(res);
		} else {
			this.#failures += 1;
			if (this.readFailed(res)) this.schedule(retryDelay(this.#failures, res));
		}
		this.refresh();
		if (this.#again) {
			this.#again = false;
			void this.read();
		}
	}

	/** The connection is (again) ready: events may have been missed, read again. */
	protected resync(): void {
		void this.read();
	}

	/** The next read also reads the tenant's currency. */
	protected wantCurrency(): void {
		this.#wantsCurrency = true;
	}

	/** The read running now may have been answered before what just happened: one more after it. */
	protected readAgainAfterRunning(): void {
		if (this.reading) this.#again = true;
	}

	/** Reads again in `ms` (replacing any read already scheduled); null: cancels it. */
	protected schedule(ms: number | null): void {
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
		if (ms === null || this.destroyed) return;
		this.#timerDue = Date.now() + ms;
		this.#timer = setTimeout(() => {
			this.#timer = null;
			void this.read();
		}, ms);
	}

	/**
	 * Reads again within `ms`: a read already scheduled sooner stands, so a steady stream of events
	 * (each asking for this) still reads every `ms`, never later.
	 */
	protected scheduleWithin(ms: number): void {
		if (this.#timer !== null && this.#timerDue <= Date.now() + ms) return;
		this.schedule(ms);
	}
}

/** The wait before retry number `failures` (1-based), at least what a 429 asked for. */
function retryDelay(failures: number, res: ApiFailure): number {
	return Math.max(
		backoffDelay(failures - 1, RETRY),
		res.kind === 'http' ? (res.retryAfterMs ?? 0) : 0
	);
}
