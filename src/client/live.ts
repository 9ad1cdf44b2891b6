// The token endpoint's push channel as a page reads it (docs/push-channel.md):
// GET /live with the page's key (the dock's ApiClient, based at /control, reads /control/live), a
// WebSocket of JSON frames (src/contract/live.ts; the server's side is src/server/live/sockets.ts).
// Hints with no viewer text, which the page answers by reading again. reconnecting-websocket keeps
// one socket open; the waits between attempts are ours (a capped backoff, in nextUrl, as
// realtime.ts does), and a watchdog gives up on a socket that stays silent past three of the
// server's pings. Idle costs nothing but that one timer: no interval, no poll.
import ReconnectingWebSocket from 'reconnecting-websocket';
import { LiveFrame, LIVE_PING_MS, type LiveMessage } from '../contract/live.ts';
import { backoffDelay } from '../core/backoff.ts';
import { keyRefusal, type ApiClient, type ApiFailure, type KeyRefusal } from './api.ts';
import { quietErrors } from './quiet-errors.ts';
import type { WebSocketConstructor } from './realtime-options.ts';
import { RateLimitedLog, type Warn } from './rate-limited-log.ts';

/** `down`: waiting to reconnect; `unauthorized`: the key was refused, nothing more is tried. */
export type LiveState = 'connecting' | 'open' | 'down' | 'unauthorized';

export interface LiveOptions {
	/** `reportKeyRefused` hears a refused key, as the client's own calls do (the page stops). */
	api: Pick<ApiClient, 'liveTarget'> & Partial<Pick<ApiClient, 'reportKeyRefused'>>;
	onMessage(message: LiveMessage): void;
	/** The channel's state and why (for debug panels). */
	onState?(state: LiveState, detail: string): void;
	warn?: Warn;
	random?: () => number;
	/** Silence (no frame, not even a ping) after which the socket is dropped and made again. */
	watchdogMs?: number;
	/** The WebSocket class (tests, the bench on Node); the browser's by default. */
	WebSocket?: WebSocketConstructor;
	/** The address the channel's path is resolved against; the page's own by default. */
	base?: () => string;
}

/** Three of the server's pings missed. */
const WATCHDOG_MS = 3 * LIVE_PING_MS;
const BACKOFF = { baseMs: 1000, maxMs: 30_000 };
/** A socket not open within this is given up on (and made again) by reconnecting-websocket. */
const CONNECT_TIMEOUT_MS = 10_000;

export class LiveChannel {
	state: LiveState = 'connecting';
	detail = '';
	readonly #opts: LiveOptions;
	readonly #log: RateLimitedLog;
	#rws: ReconnectingWebSocket | null = null;
	/** The credential the socket being opened sends first. */
	#headers: Record<string, string> = {};
	/** The one timer: the watchdog of the open socket, or the wait before the next one. */
	#timer: ReturnType<typeof setTimeout> | null = null;
	#wake: (() => void) | null = null;
	#delayMs = 0;
	/** Attempts since the last message: the backoff grows with them. */
	#failures = 0;
	/** Why the server is about to close the socket (a refusal that is not the key's). */
	#refusal: string | null = null;
	#silent = false;
	#closed = false;

	constructor(options: LiveOptions) {
		this.#opts = options;
		this.#log = new RateLimitedLog(options.warn);
	}

	start(): this {
		if (this.#rws || this.#closed) return this;
		this.#opts.onState?.(this.state, this.detail);
		const WS = this.#opts.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
		this.#rws = new ReconnectingWebSocket(this.#nextUrl, undefined, {
			WebSocket: quietErrors(WS),
			// The waits are ours (nextUrl): the library's own are zeroed so that the two never stack.
			minReconnectionDelay: 0,
			maxReconnectionDelay: 0,
			// Its timer would outlive the open: our failure count is reset by a message instead.
			minUptime: 0,
			connectionTimeout: CONNECT_TIMEOUT_MS,
			// Nothing may be queued for a later socket: it would go out before that socket's auth.
			maxEnqueuedMessages: 0
		});
		this.#rws.addEventListener('open', this.#onOpen);
		this.#rws.addEventListener('message', this.#onMessage);
		this.#rws.addEventListener('close', this.#onClose);
		return this;
	}

	/** Ends the socket and any wait; nothing runs afterwards. */
	close(): void {
		this.#closed = true;
		this.#clearTimer();
		this.#wake?.();
		this.#rws?.close();
	}

	/** reconnecting-websocket asks before every attempt: the backoff wait, then the address. */
	readonly #nextUrl = async (): Promise<string> => {
		if (this.#delayMs > 0) await this.#sleep(this.#delayMs);
		this.#delayMs = 0;
		// Never dialled: reconnecting-websocket opens nothing once closed.
		if (this.#closed) return 'ws://127.0.0.1:9/closed';
		const target = this.#opts.api.liveTarget('/live');
		this.#headers = target.headers;
		this.#refusal = null;
		this.#silent = false;
		this.#setState('connecting', this.#failures ? `attempt ${this.#failures + 1}` : '');
		const url = new URL(target.url, this.#opts.base?.() ?? location.href);
		url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
		return url.href;
	};

	readonly #onOpen = (): void => {
		if (this.#closed) return;
		this.#rws?.send(JSON.stringify({ type: 'auth', headers: this.#headers }));
		this.#arm();
	};

	readonly #onMessage = (e: MessageEvent): void => {
		if (this.#closed) return;
		this.#arm();
		let json: unknown;
		try {
			json = JSON.parse(String(e.data));
		} catch {
			json = undefined;
		}
		const parsed = LiveFrame.safeParse(json);
		if (!parsed.success) {
			this.#log.warn('live:malformed', '[live] ignoring a malformed frame of the push channel');
			return;
		}
		const frame = parsed.data;
		if (frame.type === 'ping') return;
		if (frame.type === 'open') return this.#setState('open', '');
		if (frame.type === 'refused') return this.#refused(frame.status, frame.code, frame.error);
		this.#failures = 0;
		this.#opts.onMessage(frame);
	};

	readonly #onClose = (): void => {
		if (this.#closed) return;
		this.#clearTimer();
		const why = this.#silent
			? `nothing heard for ${Math.round(this.#watchdogMs / 1000)} s`
			: (this.#refusal ?? 'the server closed the channel');
		this.#delayMs = backoffDelay(this.#failures++, { ...BACKOFF, random: this.#opts.random });
		this.#setState('down', `${why}; again in ${Math.max(1, Math.round(this.#delayMs / 1000))} s`);
	};

	/** A refused key stops the channel; any other refusal (a limit) is retried after the close. */
	#refused(status: number, code?: string, error?: string): void {
		const refused = refusalOf(status, code, error);
		if (refused === null) {
			this.#refusal = `the server answered ${status}`;
			return;
		}
		this.#setState('unauthorized', 'the key was refused');
		this.close();
		this.#opts.api.reportKeyRefused?.(refused);
	}

	#sleep(ms: number): Promise<void> {
		return new Promise<void>((resolve) => {
			this.#wake = () => {
				this.#wake = null;
				this.#clearTimer();
				resolve();
			};
			this.#timer = setTimeout(() => this.#wake?.(), ms);
		});
	}

	get #watchdogMs(): number {
		return this.#opts.watchdogMs ?? WATCHDOG_MS;
	}

	/** (Re)arms the watchdog of the open socket. */
	#arm(): void {
		this.#clearTimer();
		this.#timer = setTimeout(() => {
			this.#timer = null;
			this.#silent = true;
			this.#rws?.reconnect();
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
 * A refusal's key refusal (api.ts, keyRefusal: 429 too_many_attempts too, not a read limit); any
 * 401 refuses the key even without a code to say how.
 */
function refusalOf(status: number, code?: string, error?: string): KeyRefusal | null {
	const failure: ApiFailure = { ok: false, kind: 'http', status, body: { code, error } };
	if (code !== undefined) failure.code = code;
	const refused = keyRefusal(failure);
	if (refused === null && status === 401) return { error: 'the key was refused', final: false };
	return refused;
}
