// The one LISTEN of an instance: the changes that any instance makes to moderation
// (moderation-store.ts) and to stored settings (settings-store.ts) are sent with pg_notify, each on
// its channel, inside the transaction that makes them, and each instance hears them all here, on
// one connection, and hands each channel's to the store that joined it (InstanceListen).
//
// On a PostgreSQL server, a connection of its own (not from a pool: a pooled connection is shared
// and given back, and a LISTEN lives as long as its connection). When it is lost (the server
// restarted, the connection was ended, a ping went unanswered) it is opened again after a wait that
// doubles up to BACKOFF_MAX_MS; notifications sent meanwhile are lost, so `listening` is told again
// and each store asks its subscribers to read everything again. On PGlite (one process) the
// embedded database's own listen() hears the notifications of its only connection.
import type { PGlite } from '@electric-sql/pglite';
import type { Client } from 'pg';
import { listenTarget, type Db } from './db.ts';

/** The notification channel of moderation's changes (payload: moderation-store.ts Notice). */
export const CHANNEL = 'tip_moderation';
/** The notification channel of stored settings' changes (payload: settings-store.ts Notice). */
export const SETTINGS_CHANNEL = 'tip_settings';
/** Every channel the instance's LISTEN connection listens on. */
const CHANNELS = [CHANNEL, SETTINGS_CHANNEL] as const;
type Channel = (typeof CHANNELS)[number];
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

/** What the connection tells: a notification names its channel. */
interface ConnectionEvents extends Omit<ListenEvents, 'notified'> {
	notified(channel: Channel, payload: string): void;
}

interface Listening {
	/** Stops listening and closes the connection (before the database handle is destroyed). */
	close(): Promise<void>;
}

/**
 * An instance's LISTEN, on every channel, for the stores that join it: serve.ts makes one and
 * hands it to both stores; a store made without one makes its own (tests of one store).
 */
export class InstanceListen {
	readonly #joined = new Map<Channel, Set<ListenEvents>>();
	readonly #listening: Listening;
	#heard = false;

	/** Starts listening on the database `db` (opened by openDatabase) now, until closed. */
	constructor(db: Db) {
		const target = listenTarget(db);
		if (!target) throw new Error('a LISTEN needs a database opened by openDatabase');
		const all = () => [...this.#joined.values()].flatMap((set) => [...set]);
		this.#listening = listen(target, {
			notified: (channel, payload) => {
				for (const events of [...(this.#joined.get(channel) ?? [])]) events.notified(payload);
			},
			listening: () => {
				this.#heard = true;
				for (const events of all()) events.listening();
			},
			lost: () => {
				this.#heard = false;
				for (const events of all()) events.lost();
			}
		});
	}

	/**
	 * Hands the channel's notifications to `events`, and tells it when LISTEN is in place (at
	 * once, if it already is). Returns the leave.
	 */
	join(channel: Channel, events: ListenEvents): () => void {
		let set = this.#joined.get(channel);
		if (!set) this.#joined.set(channel, (set = new Set()));
		set.add(events);
		if (this.#heard) queueMicrotask(() => set.has(events) && this.#heard && events.listening());
		return () => void set.delete(events);
	}

	close(): Promise<void> {
		return this.#listening.close();
	}
}

/** Starts listening on `target` (db.ts listenTarget) now, for as long as it is not closed. */
function listen(target: { url: string } | { pglite: PGlite }, on: ConnectionEvents): Listening {
	return 'url' in target ? new ServerListener(target.url, on) : embeddedListener(target.pglite, on);
}

function embeddedListener(lite: PGlite, on: ConnectionEvents): Listening {
	const unlisten = Promise.all(
		CHANNELS.map((channel) => lite.listen(channel, (payload) => on.notified(channel, payload)))
	).then(
		(stops) => {
			on.listening();
			return stops;
		},
		(err: Error) => {
			console.error('[hosted] LISTEN on the embedded database failed:', err.message);
			return [];
		}
	);
	return {
		async close() {
			// Already closed with the database: nothing left to stop.
			for (const stop of await unlisten) await stop().catch(() => {});
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
		private readonly on: ConnectionEvents
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
			console.error(`[hosted] the LISTEN connection is lost (${why}); opening it again`);
			this.on.lost();
			this.again();
		};
		client.on('error', (err) => lost(err.message));
		client.on('end', () => lost('ended'));
		client.on('notification', (n) => {
			const channel = CHANNELS.find((c) => c === n.channel);
			if (channel && n.payload !== undefined) this.on.notified(channel, n.payload);
		});
		try {
			await client.connect();
			await client.query(CHANNELS.map((c) => `LISTEN ${c}`).join('; '));
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
