// The push channel's sockets (docs/push-channel.md): GET /live for the widgets
// (overlay key, app.ts) and GET /control/live for the dock (control credential,
// routes/control.ts), each a WebSocket carrying JSON frames (src/contract/live.ts). A browser's
// WebSocket cannot send a key header and a URL would put the key in logs, so the page's first
// frame carries its credential headers; they are checked, with the upgrade's own Host, Origin,
// Cookie and client address, by the very middleware the HTTP routes use (overlay-key.ts,
// control-key.ts): the same refusals, the same wrong-key lockout. The streamer comes from that
// credential only, so a socket only ever hears its own streamer's messages.
// Why a WebSocket: a browser keeps at most 6 HTTP/1.1 connections to one origin for all its pages
// together (OBS's browser sources and docks share them), and a stream held open by every page would
// leave none for their reads and claims; WebSockets do not count against that pool.
import { upgradeWebSocket, type WebSocketLike } from '@hono/node-server';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { LIVE_PING_MS, LiveAuth, type LiveFrame, type LiveMessage } from '../../contract/index.ts';
import type { CallerEnv } from '../caller.ts';
import { errorResponse, HttpError } from '../http-error.ts';
import type { PushSubscriptions } from './push-channel.ts';

/** Open sockets per streamer on this instance: a page opens one; more is a loop or an abuse. */
const MAX_SOCKETS = 64;
/** A socket that sends no credential within this is closed. */
const AUTH_TIMEOUT_MS = 10_000;
/** The credential headers a page may send in its first frame; nothing else is taken from it. */
const CREDENTIALS = ['x-overlay-key', 'x-control-key', 'x-csrf-token'];

export class LiveSockets {
	readonly #open = new Map<string, number>();
	readonly #channels: readonly PushSubscriptions[];

	/** The channels the stores publish on (one, unless a test gave each store its own). */
	constructor(...channels: PushSubscriptions[]) {
		this.#channels = [...new Set(channels)];
	}

	/**
	 * The route of a socket whose first frame `guard` (a key check's middleware) accepts, for the
	 * streamer it names (`c.var.caller`). A request that is not an upgrade is answered 426.
	 */
	route(guard: MiddlewareHandler<CallerEnv>): MiddlewareHandler {
		// The first frame's request runs through the guard alone, its refusals answered as the
		// app answers them (http-error.ts).
		const gate = new Hono();
		gate.all('*', guard, (c) => c.json({ streamer: c.var.caller.streamer }));
		gate.onError((err, c) => errorResponse(c, err));
		const upgrade = upgradeWebSocket((c) => {
			const socket = new Socket(this, c, gate);
			// Only onOpen and onMessage: the adapter builds a CloseEvent for onClose, which Node 20
			// lacks; the close is heard on the raw socket instead.
			return { onOpen: (_e, ws) => socket.opened(ws.raw!), onMessage: (e) => socket.frame(e.data) };
		});
		return (c, next) => {
			if (c.req.header('upgrade')?.toLowerCase() !== 'websocket')
				throw new HttpError(426, 'upgrade_required', 'the push channel is a WebSocket', {
					Upgrade: 'websocket'
				});
			return upgrade(c, next);
		};
	}

	/** Subscribes an accepted socket; null (refused, 429) past MAX_SOCKETS for its streamer. */
	join(streamer: string, send: (m: LiveMessage) => void): (() => void) | null {
		const count = this.#open.get(streamer) ?? 0;
		if (count >= MAX_SOCKETS) return null;
		this.#open.set(streamer, count + 1);
		const unsubscribes = this.#channels.map((ch) => ch.subscribe(streamer, send));
		return () => {
			for (const unsubscribe of unsubscribes) unsubscribe();
			const left = (this.#open.get(streamer) ?? 1) - 1;
			if (left > 0) this.#open.set(streamer, left);
			else this.#open.delete(streamer);
		};
	}
}

/** One page's socket: waiting for its credential, then open until either side closes it. */
class Socket {
	#ws: WebSocketLike | null = null;
	#timer: ReturnType<typeof setTimeout> | null = null;
	#authed = false;
	#closed = false;
	#leave: (() => void) | null = null;

	constructor(
		private readonly sockets: LiveSockets,
		private readonly c: Context,
		private readonly gate: Hono
	) {}

	opened(ws: WebSocketLike): void {
		this.#ws = ws;
		this.#timer = setTimeout(() => ws.close(4408, 'no auth frame'), AUTH_TIMEOUT_MS);
		ws.on('close', () => {
			this.#closed = true;
			this.#stop();
		});
	}

	/** The first frame is the credential; a page sends nothing else, and the rest is ignored. */
	frame(data: unknown): void {
		if (this.#authed || !this.#ws) return;
		this.#authed = true;
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = null;
		void this.#auth(this.#ws, typeof data === 'string' ? data : '').catch(() =>
			this.#ws?.close(1011, 'the push channel failed')
		);
	}

	async #auth(ws: WebSocketLike, text: string): Promise<void> {
		const res = await this.gate.fetch(this.#request(text), this.c.env);
		if (this.#closed) return;
		if (res.status !== 200) {
			const body = (await res.json().catch(() => ({}))) as { code?: unknown; error?: unknown };
			return this.#refuse(ws, res.status, body);
		}
		const { streamer } = (await res.json()) as { streamer: string };
		if (this.#closed) return;
		// One channel per instance publishes each resync once: every one is passed on, since a
		// second outage may hide changes the first read did not see.
		const leave = this.sockets.join(streamer, (m) => send(ws, m));
		if (!leave)
			return this.#refuse(ws, 429, {
				code: 'too_many_streams',
				error: 'too many open live connections'
			});
		this.#leave = leave;
		const ping = setInterval(() => send(ws, { type: 'ping' }), LIVE_PING_MS);
		const stop = this.#leave;
		this.#leave = () => {
			clearInterval(ping);
			stop();
		};
		send(ws, { type: 'open' });
		send(ws, { type: 'hello' });
	}

	/** The first frame's credential headers on the upgrade's own headers (and none of its keys). */
	#request(text: string): Request {
		const headers = new Headers(this.c.req.raw.headers);
		for (const name of CREDENTIALS) headers.delete(name);
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			json = null;
		}
		const auth = LiveAuth.safeParse(json);
		if (auth.success)
			for (const [name, value] of Object.entries(auth.data.headers))
				if (CREDENTIALS.includes(name.toLowerCase())) headers.set(name.toLowerCase(), value);
		return new Request(this.c.req.url, { headers });
	}

	#refuse(ws: WebSocketLike, status: number, body: { code?: unknown; error?: unknown }): void {
		const frame: LiveFrame = { type: 'refused', status };
		if (typeof body.code === 'string') frame.code = body.code;
		if (typeof body.error === 'string') frame.error = body.error;
		send(ws, frame);
		ws.close(status === 401 ? 4401 : 4000, 'refused');
	}

	#stop(): void {
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = null;
		this.#leave?.();
		this.#leave = null;
	}
}

function send(ws: WebSocketLike, frame: LiveFrame): void {
	if (ws.readyState === 1) ws.send(JSON.stringify(frame));
}
