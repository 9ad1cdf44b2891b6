// The one LISTEN of an instance (moderation-store.ts): the changes of moderation that any instance
// makes are sent with pg_notify on CHANNEL, inside the transaction that makes them, and each
// instance hears them all here and hands each streamer's to its own subscribers.
//
// On a PostgreSQL server, a connection of its own (not from a pool: a pooled connection is shared
// and given back, and a LISTEN lives as long as its connection). When it is lost (the server
// restarted, the connection was ended, a ping went unanswered) it is opened again after a wait that
// doubles up to BACKOFF_MAX_MS; notifications sent meanwhile are lost, so `listening` is told again
// and the store asks its subscribers to read everything again. On PGlite (one process) the
// embedded database's own listen() hears the notifications of its only connection.
import type { PGlite } from '@electric-sql/pglite';
import type { Client } from 'pg';

/** The notification channel of moderation's changes (payload: moderation-store.ts Notice). */
export const CHANNEL = 'tip_moderation';
/** How the LISTEN connection shows in pg_stat_activity. */
export const LISTEN_APPLICATION_NAME = 'tip_moderation listen';

const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 15_000;
/**
 * A connection that died without a word (a network cut: no reset ever arrives) would listen to
 * nothing for ever; a ping this often, answered within PING_TIMEOUT_MS, finds it out.
 */
const PING_EVERY_MS = 30_000;
const PING_TIMEOUT_MS = 10_000;

export interface ListenEvents {
	/** A notification's payload. */
	notified(payload: string): void;
	/** LISTEN is in place (again): what was sent while it was not has not been heard. */
	listening(): void;
	/** The LISTEN connection is lost; it is being opened again. */
	lost(): void;
}

export interface Listening {
	/** Stops listening and closes the connection (before the database handle is destroyed). */
	close(): Promise<void>;
}

/** Starts listening on `target` (db.ts listenTarget) now, for as long as it is not closed. */
export function listen(target: { url: string } | { pglite: PGlite }, on: ListenEvents): Listening {
	return 'url' in target ? new ServerListener(target.url, on) : embeddedListener(target.pglite, on);
}

function embeddedListener(lite: PGlite, on: ListenEvents): Listening {
	const unlisten = lite
		.listen(CHANNEL, (payload) => on.notified(payload))
		.then(
			(stop) => {
				on.listening();
				return stop;
			},
			(err: Error) => {
				console.error('[moderation] LISTEN on the embedded database failed:', err.message);
				return null;
			}
		);
	return {
		async close() {
			const stop = await unlisten;
			// Already closed with the database: nothing left to stop.
			await stop?.().catch(() => {});
		}
	};
}

class ServerListener implements Listening {
	private client: Client | null = null;
	private retry: NodeJS.Timeout | null = null;
	private failures = 0;
	private closed = false;
	/** The connection being opened, so that close() waits for it and ends it. */
	private opening: Promise<void> | null = null;

	constructor(
		private readonly url: string,
		private readonly on: ListenEvents
	) {
		this.opening = this.open();
	}

	async close(): Promise<void> {
		this.closed = true;
		if (this.retry) clearTimeout(this.retry);
		this.retry = null;
		await this.opening;
		const client = this.client;
		this.client = null;
		await client?.end().catch(() => {});
	}

	private async open(): Promise<void> {
		const { default: pg } = await import('pg');
		if (this.closed) return;
		const client = new pg.Client({
			connectionString: this.url,
			application_name: LISTEN_APPLICATION_NAME,
			connectionTimeoutMillis: PING_TIMEOUT_MS,
			query_timeout: PING_TIMEOUT_MS,
			keepAlive: true
		});
		let down = false;
		// Set now, for `lost` to stop; its first ping comes long after the connection is open (or
		// has failed to open, within connectionTimeoutMillis).
		const ping = setInterval(() => {
			client.query('select 1').catch((err: Error) => lost(`ping: ${err.message}`));
		}, PING_EVERY_MS);
		ping.unref();
		const lost = (why: string) => {
			if (down) return;
			down = true;
			clearInterval(ping);
			if (this.client === client) this.client = null;
			client.end().catch(() => {});
			if (this.closed) return;
			console.error(`[moderation] the LISTEN connection is lost (${why}); opening it again`);
			this.on.lost();
			this.again();
		};
		client.on('error', (err) => lost(err.message));
		client.on('end', () => lost('ended'));
		client.on('notification', (n) => {
			if (n.channel === CHANNEL && n.payload !== undefined) this.on.notified(n.payload);
		});
		try {
			await client.connect();
			await client.query(`LISTEN ${CHANNEL}`);
		} catch (err) {
			lost(err instanceof Error ? err.message : String(err));
			return;
		}
		if (down) return;
		this.client = client;
		if (this.closed) return;
		this.failures = 0;
		this.on.listening();
	}

	/** Opens the connection again after a wait: doubling, capped, with jitter (not in step). */
	private again(): void {
		const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.failures);
		this.failures = Math.min(this.failures + 1, 16);
		this.retry = setTimeout(
			() => {
				this.retry = null;
				this.opening = this.open();
			},
			wait * (0.5 + Math.random() / 2)
		);
		this.retry.unref();
	}
}
