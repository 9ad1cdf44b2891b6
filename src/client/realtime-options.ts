// The states and options of a widget page's realtime connection (realtime.ts): what a page
// passes in and what it is told.
import type { EventTable, KnownEvent } from '../contract/index.ts';
import type { ApiClient } from './api.ts';
import type { Warn } from './rate-limited-log.ts';

export type RealtimeState =
	/** The first attempt is under way. */
	| 'connecting'
	/** Authenticated (`ready` received); events flow. */
	| 'open'
	/** Lost or failed; retrying with backoff. */
	| 'retrying'
	/** `failingAfter` attempts in a row failed; still retrying, at the capped rate. */
	| 'failing'
	/** The token endpoint refused the overlay key: permanent, no more attempts. */
	| 'unauthorized'
	/** close() was called. */
	| 'closed';

/** The slice of the browser's WebSocket constructor that reconnecting-websocket needs. */
export type WebSocketConstructor = {
	new (
		url: string,
		protocols?: string | string[]
	): {
		addEventListener(type: 'error', listener: () => void): void;
	};
	readonly CLOSING: number;
};

export interface Timers {
	setTimeout(fn: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

export interface RealtimeOptions {
	/** `sawEvent`: told of every event the socket brings (the page's reads name the last ones). */
	api: Pick<ApiClient, 'mintToken'> & Partial<Pick<ApiClient, 'sawEvent'>>;
	/** The events the page's widgets read (groups of the contract's catalog); others are ignored. */
	events: EventTable;
	/** A known event, validated and deduplicated by id. */
	onEvent?: (event: KnownEvent) => void;
	/** After every `ready`: re-read snapshots (events missed while disconnected are not replayed). */
	onResync?: () => void;
	onState?: (state: RealtimeState, detail: string) => void;
	/** Default globalThis.WebSocket (Node 20 has none: pass `ws` there). */
	WebSocket?: WebSocketConstructor;
	/** Delay between attempts: capped exponential with equal jitter. */
	backoff?: { baseMs: number; maxMs: number };
	/** Consecutive failed attempts before the state says 'failing'. */
	failingAfter?: number;
	/** From open to `ready` (the server allows 10 s for the auth message). */
	readyTimeoutMs?: number;
	/** From `new WebSocket` to open. */
	connectTimeoutMs?: number;
	/** Answer pings with `{ type: 'pong' }` (the server ignores it; it helps proxies). */
	answerPings?: boolean;
	dedupeCapacity?: number;
	warn?: Warn;
	random?: () => number;
	now?: () => number;
	timers?: Timers;
}

/** What an option left out means. */
export const DEFAULTS = {
	backoff: { baseMs: 1000, maxMs: 30_000 },
	failingAfter: 5,
	readyTimeoutMs: 10_000,
	connectTimeoutMs: 10_000
} satisfies Partial<RealtimeOptions>;
