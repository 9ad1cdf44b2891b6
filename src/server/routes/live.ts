// The push channel: GET /live for the widgets (overlay key) and GET /control/live for the
// dock (control credential). A stream of server-sent events, `data: <LiveMessage>` lines: hints
// with no viewer text, which the pages answer by reading again (moderation's decisions and rules,
// the stored settings). `hello` first, so a page that reconnects reads what it missed; a
// comment every PING_MS keeps proxies from closing it. A stream of another streamer's changes is
// never opened: the streamer comes from the request's credential.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { LiveMessage } from '../../contract/index.ts';
import { HttpError } from '../http-error.ts';

/** What publishes a streamer's changes: the moderation store, the settings store. */
interface Source {
	subscribe(streamer: string, listener: (m: LiveMessage) => void): () => void;
}

const PING_MS = 25_000;
/** Open streams per streamer on this instance: a page opens one; more is a loop or an abuse. */
const MAX_STREAMS = 64;

export class LiveStreams {
	readonly #open = new Map<string, number>();
	readonly #sources: readonly Source[];

	constructor(...sources: Source[]) {
		this.#sources = sources;
	}

	/** The answer to a live request of `streamer`, open until the page goes away. */
	open(c: Context, streamer: string): Response {
		const count = this.#open.get(streamer) ?? 0;
		if (count >= MAX_STREAMS)
			throw new HttpError(429, 'too_many_streams', 'too many open live connections', {
				'Retry-After': '30'
			});
		this.#open.set(streamer, count + 1);
		c.header('X-Accel-Buffering', 'no');
		return streamSSE(c, async (stream) => {
			let last: LiveMessage['type'] | null = null;
			const send = (m: LiveMessage) => {
				// Each source asks for a resync when its LISTEN is back (hosted): one read is enough.
				if (m.type === 'resync' && last === 'resync') return;
				last = m.type;
				void stream.writeSSE({ data: JSON.stringify(m) });
			};
			const unsubscribes = this.#sources.map((s) => s.subscribe(streamer, send));
			const ping = setInterval(() => void stream.write(': ping\n\n'), PING_MS);
			try {
				send({ type: 'hello' });
				await new Promise<void>((resolve) => stream.onAbort(resolve));
			} finally {
				clearInterval(ping);
				for (const unsubscribe of unsubscribes) unsubscribe();
				const left = (this.#open.get(streamer) ?? 1) - 1;
				if (left > 0) this.#open.set(streamer, left);
				else this.#open.delete(streamer);
			}
		});
	}
}
