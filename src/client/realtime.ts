// The realtime connection of a widget page (docs/upstream.md, the realtime socket and its
// handoff token) on reconnecting-websocket. Every attempt mints a fresh single-use token through
// the token endpoint, authenticates with it, and after each `ready` asks consumers to re-read their
// snapshots, because nothing is replayed after a reconnect. Idle costs nothing: one watchdog timeout
// re-armed per message, no interval, no polling.
import ReconnectingWebSocket from 'reconnecting-websocket';
import {
	CLOSE_AUTH_TIMEOUT,
	CLOSE_UNAUTHORIZED,
	parseEventWith,
	parsePageFrame
} from '../contract/index.ts';
import { backoffDelay } from '../core/backoff.ts';
import { EventDeduper } from '../core/dedupe.ts';
import type { TokenResult } from './api.ts';
import { quietErrors } from './quiet-errors.ts';
import { RateLimitedLog } from './rate-limited-log.ts';
import {
	DEFAULTS,
	type RealtimeOptions,
	type RealtimeState,
	type Timers,
	type WebSocketConstructor
} from './realtime-options.ts';

export type {
	RealtimeOptions,
	RealtimeState,
	Timers,
	WebSocketConstructor
} from './realtime-options.ts';

/** Sent to reconnecting-websocket when an attempt is abandoned; never dialled (see stop()). */
const ABANDONED_URL = 'ws://127.0.0.1:9/abandoned';
/** A close code of the private range: "this client gave up on the socket". */
const CLOSE_WATCHDOG = 4000;
/** setTimeout's largest delay (a signed 32-bit count of ms). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export class RealtimeConnection {
	state: RealtimeState = 'connecting';
	/** Human text for the diagnostics card: why the state is what it is. */
	detail = '';
	lastEventId: string | null = null;
	/** ms since the epoch (options.now). */
	lastEventAt: number | null = null;
	/** Connection attempts so far (tokens requested). */
	attempts = 0;
	/** Successful `ready`s so far: 1 + the number of reconnects. */
	connects = 0;
	/** Attempts in a row that did not reach `ready`. */
	failures = 0;
	/** From the last `ready`: the event types this connection may receive. */
	allowedEvents: readonly string[] = [];
	heartbeatS: number | null = null;

	readonly #opts: RealtimeOptions;
	readonly #timers: Timers;
	readonly #now: () => number;
	readonly #random: () => number;
	readonly #log: RateLimitedLog;
	readonly #deduper: EventDeduper;
	#rws: ReconnectingWebSocket | null = null;
	#stopped = false;
	/** The handoff token for the socket being opened; used once, on its open. */
	#token: string | null = null;
	#socketReady = false;
	/** The `error` message the server sent on the current socket before closing it. */
	#serverError: string | null = null;
	#watchdogReason: string | null = null;
	#nextDelayMs = 0;
	#watchdog: unknown = null;
	#sleeping: { handle: unknown; wake: () => void } | null = null;

	constructor(options: RealtimeOptions) {
		this.#opts = options;
		this.#timers = options.timers ?? {
			setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
			clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>)
		};
		this.#now = options.now ?? Date.now;
		this.#random = options.random ?? Math.random;
		this.#log = new RateLimitedLog(options.warn, 60_000, this.#now);
		this.#deduper = new EventDeduper(options.dedupeCapacity);
	}

	/** Open the connection (once); returns this for `new RealtimeConnection(o).start()`. */
	start(): this {
		if (this.#rws || this.#stopped) return this;
		const WS = this.#opts.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
		this.#rws = new ReconnectingWebSocket(this.#nextUrl, undefined, {
			WebSocket: quietErrors(WS),
			// The waits between attempts are ours (in nextUrl, where the token is minted); the
			// library's own delay is zeroed so that the two never stack.
			minReconnectionDelay: 0,
			maxReconnectionDelay: 0,
			connectionTimeout: this.#opts.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
			// Nothing may be queued for a later socket: it would go out before that socket's auth.
			maxEnqueuedMessages: 0
		});
		this.#rws.addEventListener('open', this.#onOpen);
		this.#rws.addEventListener('message', this.#onMessage);
		this.#rws.addEventListener('close', this.#onClose);
		this.#setState('connecting', 'connecting');
		return this;
	}

	/** Tear down the socket and every timer; onState('closed') is the last callback. */
	close(): void {
		if (this.state === 'closed') return;
		this.#stop('closed', 'closed');
	}

	/**
	 * reconnecting-websocket calls this before every attempt and waits for it: the backoff wait, then
	 * a fresh handoff token. A failed mint is retried here (never rejected: a rejection would leave
	 * the library locked and the widget silently offline).
	 */
	readonly #nextUrl = async (): Promise<string> => {
		for (;;) {
			if (this.#nextDelayMs > 0) await this.#sleep(this.#nextDelayMs);
			if (this.#stopped) return ABANDONED_URL;
			this.attempts += 1;
			let minted: TokenResult;
			try {
				minted = await this.#opts.api.mintToken();
			} catch (err) {
				minted = { ok: false, kind: 'network', error: String(err) };
			}
			if (this.#stopped) return ABANDONED_URL;
			if (minted.ok && !/^wss?:\/\//i.test(minted.body.ws_url)) {
				// Never dialled: a browser would refuse it (Chromium 103) or turn it into another URL.
				this.#failed('the token endpoint gave a realtime URL that is not ws(s)://', 0);
				continue;
			}
			if (minted.ok) {
				this.#token = minted.body.token;
				this.#socketReady = false;
				this.#serverError = null;
				return minted.body.ws_url;
			}
			if (minted.kind === 'unauthorized') {
				this.#stop('unauthorized', `cannot connect: ${minted.error}`);
				return ABANDONED_URL;
			}
			this.#failed(describeMintFailure(minted), minted.kind === 'http' ? minted.retryAfterMs : 0);
		}
	};

	readonly #onOpen = (): void => {
		if (this.#stopped) return;
		const token = this.#token;
		this.#token = null;
		if (token === null) return; // cannot happen: every socket comes from nextUrl
		this.#rws?.send(JSON.stringify({ type: 'auth', data: { token } }));
		this.#armWatchdog(this.#opts.readyTimeoutMs ?? DEFAULTS.readyTimeoutMs, 'no ready after auth');
	};

	readonly #onMessage = (event: { data: unknown }): void => {
		if (this.#stopped) return;
		// Any message at all proves the socket alive.
		if (this.#socketReady && this.heartbeatS !== null)
			this.#armWatchdog(this.heartbeatS * 2000, `no message for ${this.heartbeatS * 2} s`);
		if (typeof event.data !== 'string') {
			this.#log.warn('frame', '[realtime] dropped a binary frame');
			return;
		}
		const frame = parsePageFrame(event.data);
		if (!frame.ok) {
			this.#log.warn('frame', `[realtime] dropped a malformed frame: ${frame.error}`);
			return;
		}
		const m = frame.value;
		switch (m.kind) {
			case 'ready':
				this.#socketReady = true;
				this.failures = 0;
				this.heartbeatS = m.message.data.heartbeat_s;
				this.allowedEvents = m.message.data.events;
				this.connects += 1;
				this.#armWatchdog(this.heartbeatS * 2000, `no message for ${this.heartbeatS * 2} s`);
				this.#setState('open', 'connected');
				this.#notify('onResync', () => this.#opts.onResync?.());
				return;
			case 'error':
				// The server closes right after (4401/4408); onClose reports it.
				this.#serverError = `${m.message.data.code}: ${m.message.data.error}`;
				return;
			case 'ping':
				if (
					this.#opts.answerPings !== false &&
					this.#rws?.readyState === ReconnectingWebSocket.OPEN
				)
					this.#rws.send(JSON.stringify({ type: 'pong' }));
				return;
			case 'event':
				return this.#onEnvelope(m.message);
			case 'other':
				return;
		}
	};

	#onEnvelope(raw: unknown): void {
		const parsed = parseEventWith(this.#opts.events, raw);
		if (!parsed.ok) {
			const type = (raw as { type?: unknown }).type;
			const kind = `event:${typeof type === 'string' ? type : '?'}`;
			this.#log.warn(kind, `[realtime] dropped a malformed event: ${parsed.error}`);
			return;
		}
		if (!parsed.known) return; // chat.command and friends: not for an overlay (docs/upstream.md)
		if (this.#deduper.seen(parsed.event.id)) return;
		this.lastEventId = parsed.event.id;
		this.lastEventAt = this.#now();
		this.#opts.api.sawEvent?.(parsed.event.id);
		this.#notify('onEvent', () => this.#opts.onEvent?.(parsed.event));
	}

	readonly #onClose = (event: { code?: number; reason?: string }): void => {
		this.#clearWatchdog();
		if (this.#stopped) return;
		const watchdog = this.#watchdogReason;
		this.#watchdogReason = null;
		if (this.#socketReady) {
			// A healthy connection ended: not a failed attempt; the first retry comes soon.
			this.#socketReady = false;
			this.#nextDelayMs = this.#delayFor(0);
			const why = watchdog ?? closeDescription(event.code, this.#serverError);
			this.#setState('retrying', `connection lost (${why}); reconnecting`);
			return;
		}
		let why: string;
		if (watchdog) why = watchdog;
		else if (event.code === CLOSE_UNAUTHORIZED)
			why = `the realtime service refused the token (${this.#serverError ?? 'code 4401'})`;
		else if (event.code === CLOSE_AUTH_TIMEOUT)
			why = 'the realtime service timed out waiting for authentication';
		else why = 'upstream unreachable: the realtime service did not answer';
		this.#failed(why);
	};

	/** An attempt failed: count it, schedule the next one, say so. */
	#failed(why: string, atLeastMs = 0): void {
		this.failures += 1;
		// The first failure waits no longer than a lost connection does (an attempt that lands in a
		// restart's last moments is retried within a second); each one after doubles the wait.
		this.#nextDelayMs = Math.max(this.#delayFor(this.failures - 1), atLeastMs);
		const failingAfter = this.#opts.failingAfter ?? DEFAULTS.failingAfter;
		this.#log.warn('connect', `[realtime] cannot connect: ${why}`);
		this.#setState(
			this.failures >= failingAfter ? 'failing' : 'retrying',
			`cannot connect: ${why}`
		);
	}

	#delayFor(failures: number): number {
		return backoffDelay(failures, {
			...(this.#opts.backoff ?? DEFAULTS.backoff),
			jitter: 'equal',
			random: this.#random
		});
	}

	/** The single timer that watches the socket: re-armed on every message, never an interval. */
	#armWatchdog(ms: number, reason: string): void {
		this.#clearWatchdog();
		// Browsers fire a longer timeout at once; an absurd heartbeat_s must not mean a reconnect loop.
		const delay = Math.min(ms, MAX_TIMEOUT_MS);
		this.#watchdog = this.#timers.setTimeout(() => {
			this.#watchdog = null;
			if (this.#stopped) return;
			this.#watchdogReason = reason;
			this.#log.warn('watchdog', `[realtime] ${reason}; reconnecting`);
			// Closes the socket (onClose runs synchronously with our code) and starts a new attempt.
			this.#rws?.reconnect(CLOSE_WATCHDOG, 'watchdog');
		}, delay);
	}

	#clearWatchdog(): void {
		if (this.#watchdog !== null) this.#timers.clearTimeout(this.#watchdog);
		this.#watchdog = null;
	}

	#sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const wake = () => {
				this.#sleeping = null;
				resolve();
			};
			this.#sleeping = { handle: this.#timers.setTimeout(wake, ms), wake };
		});
	}

	/** The page's key was refused on another call: stop now, as a refused mint would. */
	refuse(error: string): void {
		if (!this.#stopped) this.#stop('unauthorized', `cannot connect: ${error}`);
	}

	#stop(state: 'closed' | 'unauthorized', detail: string): void {
		this.#stopped = true;
		this.#clearWatchdog();
		if (this.#sleeping) {
			this.#timers.clearTimeout(this.#sleeping.handle);
			this.#sleeping.wake();
		}
		// Before a socket exists this marks the library closed, so that the URL nextUrl returns is
		// never dialled; with a socket it closes it and stops reconnecting.
		this.#rws?.close(1000, state);
		this.#setState(state, detail);
		if (state === 'unauthorized') this.#log.warn('connect', `[realtime] ${detail}`);
	}

	/**
	 * A consumer's bug must not take the connection down: under Node's `ws` a throw inside a socket
	 * listener would escape as an uncaught exception, and in a browser it would skip our bookkeeping.
	 */
	#notify(name: string, fn: () => void): void {
		try {
			fn();
		} catch (err) {
			const why = err instanceof Error ? err.message : String(err);
			this.#log.warn(`callback:${name}`, `[realtime] ${name} threw: ${why}`);
		}
	}

	#setState(state: RealtimeState, detail: string): void {
		if (state === this.state && detail === this.detail) return;
		this.state = state;
		this.detail = detail;
		this.#notify('onState', () => this.#opts.onState?.(state, detail));
	}
}

function describeMintFailure(result: Exclude<TokenResult, { ok: true }>): string {
	switch (result.kind) {
		case 'http':
			if (result.code === 'upstream_unreachable')
				return 'upstream unreachable: the token endpoint cannot reach the service';
			return `the token endpoint answered ${result.status}${result.code ? ` ${result.code}` : ''}`;
		case 'network':
			return `the token endpoint did not answer (${result.error})`;
		case 'malformed':
			return 'the token endpoint answered without a usable token';
		default:
			return result.error;
	}
}

function closeDescription(code: number | undefined, serverError: string | null): string {
	if (serverError) return serverError;
	return code === undefined ? 'closed' : `close code ${code}`;
}
