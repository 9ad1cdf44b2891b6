// The token endpoint's push channel (GET /live with the page's key; the dock's ApiClient, based at
// /control, reads /control/live): moderation hints, no viewer text (contract/moderation.ts,
// LiveMessage). A WebSocket (live-socket.ts) whose text frames carry a text/event-stream, read
// here as a Response body: each `data:` line is one message, `: ping` comments keep it alive. One
// connection at a time, reconnected with a capped backoff; a watchdog gives up on a connection
// that stays silent. Idle costs nothing: one pending read and one watchdog timeout, no interval,
// no poll.
import { LiveMessage } from '../contract/moderation.ts';
import { backoffDelay } from '../core/backoff.ts';
import { keyRefusal, type ApiClient, type ApiFailure, type KeyRefusal } from './api.ts';
import { openLiveSocket } from './live-socket.ts';
import { RateLimitedLog, type Warn } from './rate-limited-log.ts';

/** `down`: waiting to reconnect; `unauthorized`: the key was refused, nothing more is tried. */
export type LiveState = 'connecting' | 'open' | 'down' | 'unauthorized';

export interface LiveOptions {
	/** `reportKeyRefused` hears a refused key, as the client's own calls do (the page stops). */
	api: Pick<ApiClient, 'openStream'> & Partial<Pick<ApiClient, 'reportKeyRefused'>>;
	onMessage(message: LiveMessage): void;
	/** The channel's state and why (for debug panels). */
	onState?(state: LiveState, detail: string): void;
	warn?: Warn;
	random?: () => number;
	/** Silence (no byte, not even a ping) after which the connection is dropped and made again. */
	watchdogMs?: number;
}

/** The server pings every 25 s: three missed pings. */
const WATCHDOG_MS = 75_000;
const BACKOFF = { baseMs: 1000, maxMs: 30_000 };

export class LiveChannel {
	state: LiveState = 'connecting';
	detail = '';
	readonly #opts: LiveOptions;
	readonly #log: RateLimitedLog;
	#abort: AbortController | null = null;
	/** The one timer: the watchdog of the open connection, or the wait before the next one. */
	#timer: ReturnType<typeof setTimeout> | null = null;
	/** Attempts since the last message: the backoff grows with them. */
	#failures = 0;
	#silent = false;
	#closed = false;

	constructor(options: LiveOptions) {
		this.#opts = options;
		this.#log = new RateLimitedLog(options.warn);
	}

	start(): this {
		this.#opts.onState?.(this.state, this.detail);
		void this.#connect();
		return this;
	}

	/** Ends the connection and any wait; nothing runs afterwards. */
	close(): void {
		this.#closed = true;
		this.#clearTimer();
		this.#abort?.abort();
		this.#abort = null;
	}

	async #connect(): Promise<void> {
		if (this.#closed) return;
		const abort = new AbortController();
		this.#abort = abort;
		this.#silent = false;
		this.#setState('connecting', this.#failures ? `attempt ${this.#failures + 1}` : '');
		// Also while the answer is awaited: a server that never answers is given up on too.
		this.#arm(abort);
		let why: string | null;
		try {
			why = await this.#session(abort);
		} catch (err) {
			why = err instanceof Error ? err.message : String(err);
		}
		this.#clearTimer();
		abort.abort();
		if (this.#closed || why === null) return;
		if (this.#silent) why = `nothing heard for ${Math.round(this.#watchdogMs / 1000)} s`;
		this.#retry(why);
	}

	/** One connection, until it ends: why it ended, or null when the key was refused. */
	async #session(abort: AbortController): Promise<string | null> {
		const res = await this.#opts.api.openStream('live', '/live', abort.signal, openLiveSocket);
		const type = res.headers.get('content-type') ?? '';
		if (!res.ok || !res.body || !type.startsWith('text/event-stream')) {
			const refused = res.ok ? null : await refusalOf(res);
			void res.body?.cancel().catch(() => {});
			if (refused === null)
				return `the server answered ${res.status}${res.ok ? ` ${type || 'without a type'}` : ''}`;
			this.#setState('unauthorized', 'the key was refused');
			this.#opts.api.reportKeyRefused?.(refused);
			return null;
		}
		this.#setState('open', '');
		return this.#read(res.body, abort);
	}

	/** Reads the stream line by line until it ends or is aborted. */
	async #read(body: ReadableStream<Uint8Array>, abort: AbortController): Promise<string> {
		const reader = body.getReader();
		// The watchdog's abort (or close()) ends the read in progress.
		abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), {
			once: true
		});
		const decoder = new TextDecoder();
		let rest = '';
		for (;;) {
			const { done, value } = await reader.read();
			if (done || abort.signal.aborted) return 'the server closed the channel';
			this.#arm(abort);
			// A line may be split across chunks (and a character across bytes): the unfinished end
			// waits for the next chunk.
			const lines = (rest + decoder.decode(value, { stream: true })).split(/\r\n|\r|\n/);
			rest = lines.pop() ?? '';
			for (const line of lines) this.#line(line);
		}
	}

	/** One line: a `data:` line is a message; comments (`: ping`), blank lines and others are not. */
	#line(line: string): void {
		if (!line.startsWith('data:')) return;
		const text = line.slice(line.startsWith('data: ') ? 6 : 5);
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		const parsed = LiveMessage.safeParse(json);
		if (!parsed.success) {
			this.#log.warn('live:malformed', '[live] ignoring a malformed message of the push channel');
			return;
		}
		this.#failures = 0;
		this.#opts.onMessage(parsed.data);
	}

	#retry(why: string): void {
		const delay = backoffDelay(this.#failures++, { ...BACKOFF, random: this.#opts.random });
		this.#setState('down', `${why}; again in ${Math.max(1, Math.round(delay / 1000))} s`);
		this.#timer = setTimeout(() => {
			this.#timer = null;
			void this.#connect();
		}, delay);
	}

	get #watchdogMs(): number {
		return this.#opts.watchdogMs ?? WATCHDOG_MS;
	}

	/** (Re)arms the watchdog of the connection `abort` ends. */
	#arm(abort: AbortController): void {
		this.#clearTimer();
		this.#timer = setTimeout(() => {
			this.#timer = null;
			this.#silent = true;
			abort.abort();
		}, this.#watchdogMs);
	}

	#clearTimer(): void {
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
	}

	#setState(state: LiveState, detail: string): void {
		if (state === this.state && detail === this.detail) return;
		this.state = state;
		this.detail = detail;
		this.#opts.onState?.(state, detail);
	}
}

/**
 * A refused answer's key refusal (api.ts, keyRefusal: 429 too_many_attempts too, not a read
 * limit); any 401 refuses the key even without a body to say how.
 */
async function refusalOf(res: Response): Promise<KeyRefusal | null> {
	let body: unknown = null;
	try {
		body = JSON.parse(await res.text());
	} catch {
		// no body, or not JSON
	}
	const code = (body as { code?: unknown } | null)?.code;
	const failure: ApiFailure = { ok: false, kind: 'http', status: res.status, body };
	if (typeof code === 'string') failure.code = code;
	const refused = keyRefusal(failure);
	if (refused === null && res.status === 401) return { error: 'the key was refused', final: false };
	return refused;
}
