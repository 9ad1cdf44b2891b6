// Hosted mode's push channel (src/server/live/push-channel.ts): every store publishes a streamer's
// change with pg_notify on one channel, inside the transaction that makes it (heard only once
// committed, never lost while the change is kept), and every instance hears every instance's on
// one LISTEN connection, then hands each message to its own sockets of that streamer only.
//
// On a PostgreSQL server, the LISTEN has a connection of its own (not from a pool: a pooled
// connection is shared and given back, and a LISTEN lives as long as its connection). When it is
// lost (the server restarted, the connection was ended, a ping went unanswered) it is opened again
// after a wait that doubles up to BACKOFF_MAX_MS; notices sent meanwhile are lost, so once it is
// back every open page is told `resync` (once) and reads everything again. On PGlite (one process)
// the embedded database's own listen() hears the notices of its only connection.
import type { PGlite } from '@electric-sql/pglite';
import { sql, type Kysely } from 'kysely';
import type { Client } from 'pg';
import { z } from 'zod/mini';
import { LiveMessage } from '../contract/index.ts';
import { backoffDelay } from '../core/backoff.ts';
import {
	MemoryPushChannel,
	type LiveListener,
	type PushChannel
} from '../server/live/push-channel.ts';
import { listenTarget, type Database, type Db } from './db.ts';

/** The notification channel of every store's changes (payload: Notice). */
export const CHANNEL = 'tip_live';
/** How the LISTEN connection shows in pg_stat_activity. */
export const LISTEN_APPLICATION_NAME = 'tip_live listen';

/**
 * A notification's payload: the streamer, and the message for their pages; or, for the instances
 * only, that the streamer's keys changed (`k`: one was replaced or turned off, key-cache.ts), or
 * that parts of the streamer's live view changed (`v`: the holder of the intake wrote them,
 * shared-view.ts).
 */
const Notice = z.union([
	z.object({ s: z.string(), m: LiveMessage }),
	z.object({ s: z.string(), k: z.literal('keys') }),
	z.object({ s: z.string(), v: z.array(z.string().check(z.maxLength(32))) })
]);

/** Short waits between attempts: LISTEN is back within BACKOFF_MAX_MS of the database. */
const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 2_000;
/**
 * A connection that died without a word (a network cut: no reset ever arrives) or whose server is
 * frozen (its kernel still answers TCP keepalives) would listen to nothing for ever; a ping this
 * often, answered within PING_TIMEOUT_MS, finds it out. Also the longest an attempt to connect
 * waits.
 */
const PING_EVERY_MS = 5_000;
const PING_TIMEOUT_MS = 3_000;

/** What a store that keeps things in memory (kept-store.ts: the moderation rules) is told. */
export interface PushWatcher {
	/** A message published on any instance, before the pages hear it. */
	heard(streamer: string, message: LiveMessage): void;
	/** LISTEN is in place (again): what was sent while it was not has not been heard. */
	listening(): void;
	/** The LISTEN connection is lost; it is being opened again. */
	lost(): void;
	/** A key of the streamer was replaced or turned off, on any instance. */
	keysChanged?(streamer: string): void;
	/** The holder of the streamer's intake wrote these parts of their live view. */
	viewChanged?(streamer: string, parts: readonly string[]): void;
}

/** What the LISTEN connection tells. */
interface ListenEvents {
	notified(payload: string): void;
	listening(): void;
	lost(): void;
}

interface Listening {
	/** Stops listening and closes the connection (before the database handle is destroyed). */
	close(): Promise<void>;
}

/**
 * An instance's push channel: serve.ts makes one and hands it to both stores and to the app's
 * sockets; a store made without one makes its own (tests of one store).
 */
export class HostedPushChannel implements PushChannel<Kysely<Database>> {
	readonly #pages = new MemoryPushChannel();
	readonly #watchers = new Set<PushWatcher>();
	readonly #listening: Listening;
	#heard = false;

	/** Starts listening on the database `db` (opened by openDatabase) now, until closed. */
	constructor(db: Db) {
		const target = listenTarget(db);
		if (!target) throw new Error('a LISTEN needs a database opened by openDatabase');
		this.#listening = listen(target, {
			notified: (payload) => this.#notified(payload),
			listening: () => {
				this.#heard = true;
				for (const w of [...this.#watchers]) w.listening();
				this.#pages.publishAll({ type: 'resync' });
			},
			lost: () => {
				this.#heard = false;
				for (const w of [...this.#watchers]) w.lost();
			}
		});
	}

	/** Sends the message to every instance once (and only if) the transaction `tx` commits. */
	async publish(streamer: string, message: LiveMessage, tx: Kysely<Database>): Promise<void> {
		const notice: z.infer<typeof Notice> = { s: streamer, m: message };
		await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(notice)})`.execute(tx);
	}

	/** Tells every instance, once `tx` commits, that a key of the streamer stopped working. */
	async announceKeys(streamer: string, tx: Kysely<Database>): Promise<void> {
		const notice: z.infer<typeof Notice> = { s: streamer, k: 'keys' };
		await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(notice)})`.execute(tx);
	}

	/** Tells every instance, once `tx` commits, that these parts of the streamer's view changed. */
	async announceView(streamer: string, parts: readonly string[], tx: Kysely<Database>) {
		const notice: z.infer<typeof Notice> = { s: streamer, v: [...parts] };
		await sql`select pg_notify(${CHANNEL}, ${JSON.stringify(notice)})`.execute(tx);
	}

	subscribe(streamer: string, listener: LiveListener): () => void {
		return this.#pages.subscribe(streamer, listener);
	}

	/**
	 * Tells `watcher` what is heard, and when LISTEN is in place (at once, if it already is).
	 * Returns the leave.
	 */
	watch(watcher: PushWatcher): () => void {
		this.#watchers.add(watcher);
		if (this.#heard)
			queueMicrotask(() => this.#watchers.has(watcher) && this.#heard && watcher.listening());
		return () => void this.#watchers.delete(watcher);
	}

	close(): Promise<void> {
		return this.#listening.close();
	}

	#notified(payload: string): void {
		let notice: z.infer<typeof Notice>;
		try {
			notice = Notice.parse(JSON.parse(payload));
		} catch {
			console.error('[live] a notification that is not ours was ignored');
			return;
		}
		if ('k' in notice) {
			for (const w of [...this.#watchers]) w.keysChanged?.(notice.s);
			return;
		}
		if ('v' in notice) {
			for (const w of [...this.#watchers]) w.viewChanged?.(notice.s, notice.v);
			return;
		}
		for (const w of [...this.#watchers]) w.heard(notice.s, notice.m);
		this.#pages.publish(notice.s, notice.m);
	}
}

/** Starts listening on `target` (db.ts listenTarget) now, for as long as it is not closed. */
function listen(target: { url: string } | { pglite: PGlite }, on: ListenEvents): Listening {
	return 'url' in target ? new ServerListener(target.url, on) : embeddedListener(target.pglite, on);
}

function embeddedListener(lite: PGlite, on: ListenEvents): Listening {
	const unlisten = Promise.all([lite.listen(CHANNEL, (payload) => on.notified(payload))]).then(
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
			console.error(`[hosted] the LISTEN connection is lost (${why}); opening it again`);
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
		const wait = backoffDelay(this.failures, { baseMs: BACKOFF_FIRST_MS, maxMs: BACKOFF_MAX_MS });
		this.failures = Math.min(this.failures + 1, 16);
		this.retry = setTimeout(() => {
			this.retry = null;
			this.opening = this.open();
		}, wait);
		this.retry.unref();
	}
}
