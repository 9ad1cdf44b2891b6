// The hosted deployment's database: PostgreSQL through kysely, on a server (DATABASE_URL, via pg)
// or embedded (PGlite in DATA_DIR, nothing to install). The same schema and the same queries run
// on both; migrations.ts creates and upgrades the schema at start.
import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, type ColumnType, type Generated } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface StreamersTable {
	id: string;
	/** The upstream's tenant id (GET /me): the streamer's identity. */
	tenant_id: string;
	name: string;
	currency: string;
	/** connected; reconnect: the authorization is gone (revoked, scopes removed, a refresh lost). */
	status: 'connected' | 'reconnect' | 'disconnected';
	created_at: Generated<Date>;
	updated_at: Timestamp;
}

export interface GrantsTable {
	streamer_id: string;
	/** Sealed (crypto.ts), bound to the streamer. */
	refresh_token: string;
	access_token: string | null;
	access_expires_at: Timestamp | null;
	/** When the access token is to be refreshed (ahead of its expiry). */
	access_refresh_at: Timestamp | null;
	scopes: string;
	/** Bumped by every rotation: a writer that read an older generation lost a race. */
	generation: Generated<number>;
	/** A refresh was sent and its answer is not stored yet; after a crash: ask to reconnect. */
	refreshing_since: Timestamp | null;
	updated_at: Timestamp;
}

/** A streamer's overlay keys and control keys (streamer-keys.ts): one table each, these columns. */
export interface KeysTable {
	/** The key's lookup hash (crypto.ts lookupHash): the key itself is never stored in clear. */
	hash: string;
	streamer_id: string;
	/** The key, sealed, for the streamer's own dashboard. */
	sealed: string;
	created_at: Generated<Date>;
	/** Set: replaced by a newer key or turned off by Disconnect (an overlay's sources show a card). */
	replaced_at: Timestamp | null;
}

export interface SessionsTable {
	hash: string;
	streamer_id: string;
	expires_at: Timestamp;
	created_at: Generated<Date>;
}

export interface SignInAttemptsTable {
	/** Lookup hash of the OAuth `state`. */
	state_hash: string;
	/** The PKCE verifier, sealed. */
	verifier: string;
	expires_at: Timestamp;
}

/**
 * Upstream calls by calling address, second, instance and streamer (address-ledger.ts): each
 * instance writes its own rows, and reads the others' to keep the address's budget together.
 */
export interface UpstreamCallsTable {
	/** The calling address (UPSTREAM_LOCAL_ADDRESS, or `default`: the machine's own). */
	egress: string;
	/** Unix seconds. */
	second: ColumnType<number, number, number>;
	/** A random id per instance start. */
	instance: string;
	/** The streamer whose reads these are; '' for the row of the second's claims. */
	streamer_id: string;
	claims: number;
	reads: number;
}

export interface Database {
	streamers: StreamersTable;
	grants: GrantsTable;
	overlay_keys: KeysTable;
	control_keys: KeysTable;
	sessions: SessionsTable;
	sign_in_attempts: SignInAttemptsTable;
	upstream_calls: UpstreamCallsTable;
}

export type Db = Kysely<Database>;

/** The embedded database under each PGlite handle (its LISTEN, push-channel.ts). */
const onPGlite = new WeakMap<Db, PGlite>();

/**
 * The query pool: connections for the statements of requests (key lookups, sessions, a streamer's
 * row), short queries, never held across a call to the upstream.
 */
const QUERY_POOL_MAX = 10;
/**
 * The query pool's bounds, so that a database that does not answer (stopped, frozen, cut off)
 * fails a statement rather than hold it for ever: the server ends any statement of ours past
 * QUERY_STATEMENT_TIMEOUT_MS; the client stops waiting for an answer QUERY_READ_TIMEOUT_MS after
 * sending (a frozen server ends nothing), and for a connection, new or a free one of the pool,
 * after QUERY_CONNECT_TIMEOUT_MS. The alert's path never waits this long (src/server/deadline.ts):
 * these bound what settles afterwards. Migrations run on a connection of their own without them
 * (`unbounded`): a long one, or one waiting for another instance's, is not cut short.
 */
const QUERY_STATEMENT_TIMEOUT_MS = 10_000;
const QUERY_READ_TIMEOUT_MS = 12_000;
const QUERY_CONNECT_TIMEOUT_MS = 5_000;
/**
 * The lock pool: connections for token refreshes holding their lock (locks.ts). Each is held for
 * the refresh's round trip to the upstream's token endpoint, so they have a pool of their own, and
 * many refreshes at once wait for these, never for the connections that the other requests need.
 */
export const LOCK_POOL_MAX = 10;
/**
 * No statement on a lock's connection runs longer (the lock's row writes): a refresh's time under
 * its lock is this plus the token request's own timeout (oauth-http.ts), never unbounded.
 */
export const LOCK_STATEMENT_TIMEOUT_MS = 10_000;
/**
 * The control pool: a connection for each dock action holding its streamer's control lock
 * (control-lock.ts) while the action calls the upstream. Actions are a streamer's button presses,
 * so a few connections serve many streamers; an action waiting for one waits in the pool's queue.
 */
export const CONTROL_POOL_MAX = 5;
/**
 * The lease pool: a connection for the intakes' leases (intake-leases.ts), renewed every 2 s or
 * fenced 4 s after: in the query pool's queue, behind the views a takeover shares at once, the
 * renew waited longer than that.
 */
const LEASE_POOL_MAX = 1;
/**
 * The longest a dock action waits for a connection of the control pool, then for its streamer's
 * lock (another instance's action of the same streamer): a few upstream calls of at most 10 s each.
 */
export const CONTROL_LOCK_WAIT_MS = 30_000;

/**
 * On a server every statement of ours runs as a named prepared statement, parsed once per
 * connection and then only bound and executed: PostgreSQL parses and plans each unnamed statement
 * every time, which was half its CPU for our short queries (docs/performance.md, the refresh
 * storm). Left unnamed: anything that is not a plain query (DDL, transaction control), and
 * whatever selects `*`, whose columns a migration run by a newer instance could change under a
 * prepared plan ("cached plan must not change result type"); kysely's migration table is read so.
 * Our queries name their columns. The names are a hash of the text, so every connection and every
 * instance agrees on them; past STATEMENTS_MAX distinct texts (never, with our queries) the rest
 * stay unnamed.
 */
const STATEMENTS_MAX = 500;
const statementNames = new Map<string, string | null>();
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const SELECTS_STAR = /(?:^|[\s,])(?:"[^"]+"\.)?\*(?=[\s,]|$)/;

export function statementName(text: string): string | null {
	let name = statementNames.get(text);
	if (name !== undefined) return name;
	name =
		PREPARABLE.test(text) && !SELECTS_STAR.test(text)
			? `q_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`
			: null;
	if (statementNames.size < STATEMENTS_MAX) statementNames.set(text, name);
	return name;
}

type Query = (...args: unknown[]) => unknown;

/** Makes kysely's `query(text, values)` calls on this connection named (`statementName`). */
function nameStatements(client: { query: unknown }): void {
	const query = (client.query as Query).bind(client);
	client.query = (...args: unknown[]) => {
		const [text, values] = args;
		const name = typeof text === 'string' && args.length === 2 ? statementName(text) : null;
		return name ? query({ name, text, values }) : query(...args);
	};
}

interface PoolLike {
	totalCount: number;
	idleCount: number;
	waitingCount: number;
}
const servers = new WeakMap<
	Db,
	{
		url: string;
		queries: PoolLike;
		locks: PoolLike;
		lockDb: Db;
		control: Pool & PoolLike;
		leaseDb: Db;
	}
>();

export interface PoolStats {
	total: number;
	idle: number;
	waiting: number;
}

/** A server's three pools right now: connections open, idle, and callers waiting for one. */
export function poolStats(
	db: Db
): { queries: PoolStats; locks: PoolStats; control: PoolStats } | null {
	const s = servers.get(db);
	const of = (p: PoolLike) => ({ total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount });
	return s ? { queries: of(s.queries), locks: of(s.locks), control: of(s.control) } : null;
}

/** The handle on the lock pool (a server), or null (PGlite: locks in memory). */
export function lockDatabase(db: Db): Db | null {
	return servers.get(db)?.lockDb ?? null;
}

/** The handle on the lease pool (a server), or `db` itself (PGlite: one connection). */
export function leaseDatabase(db: Db): Db {
	return servers.get(db)?.leaseDb ?? db;
}

/** The control pool (a server), or null (PGlite: control locks are in memory). */
export function controlPool(db: Db): Pool | null {
	return servers.get(db)?.control ?? null;
}

/**
 * Where a connection of its own can LISTEN (push-channel.ts): the server's URL, or the
 * embedded database itself; null for a handle openDatabase did not make.
 */
export function listenTarget(db: Db): { url: string } | { pglite: PGlite } | null {
	const server = servers.get(db);
	if (server) return { url: server.url };
	const pglite = onPGlite.get(db);
	return pglite ? { pglite } : null;
}

/** PGlite: one process, one connection (refresh locks are in memory, locks.ts). */
export const embedded = (db: Db): boolean => onPGlite.has(db);

/**
 * A PostgreSQL server (`postgres://...`) or, without one, PGlite in `dataDir` (null: in memory).
 * On a server, four pools (the query pool, the lock pool, the control pool, the lease pool);
 * destroy() closes them all (not a LISTEN connection: its owner closes it first, push-channel.ts).
 */
export async function openDatabase(opts: {
	databaseUrl?: string;
	dataDir?: string | null;
}): Promise<Db> {
	if (opts.databaseUrl) {
		const { default: pg } = await import('pg');
		const queries = new pg.Pool({
			connectionString: opts.databaseUrl,
			max: QUERY_POOL_MAX,
			statement_timeout: QUERY_STATEMENT_TIMEOUT_MS,
			query_timeout: QUERY_READ_TIMEOUT_MS,
			connectionTimeoutMillis: QUERY_CONNECT_TIMEOUT_MS,
			keepAlive: true
		});
		const locks = new pg.Pool({
			connectionString: opts.databaseUrl,
			max: LOCK_POOL_MAX,
			statement_timeout: LOCK_STATEMENT_TIMEOUT_MS
		});
		const control = new pg.Pool({
			connectionString: opts.databaseUrl,
			max: CONTROL_POOL_MAX,
			connectionTimeoutMillis: CONTROL_LOCK_WAIT_MS,
			statement_timeout: CONTROL_LOCK_WAIT_MS
		});
		const leases = new pg.Pool({
			connectionString: opts.databaseUrl,
			max: LEASE_POOL_MAX,
			statement_timeout: QUERY_STATEMENT_TIMEOUT_MS,
			query_timeout: QUERY_READ_TIMEOUT_MS,
			connectionTimeoutMillis: QUERY_CONNECT_TIMEOUT_MS,
			keepAlive: true
		});
		// A dropped connection is the pool's business, not a crash of the server. The pool listens
		// for errors only on its idle connections; one checked out (a lock holder waiting for the
		// upstream) that breaks between two statements would throw from its client as an uncaught
		// error. So every connection gets a listener of its own, which logs the error once: its
		// next statement fails, and the pool drops it when it is given back. (The pool's own
		// 'error' event, for idle ones, must have a listener too; the client's has logged it.)
		for (const pool of [queries, locks, control, leases]) {
			pool.on('connect', (client) => {
				client.on('error', (err) => console.error('[db] connection error:', err.message));
				nameStatements(client);
			});
			pool.on('error', () => {});
		}
		const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: queries }) });
		const lockDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: locks }) });
		const leaseDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: leases }) });
		// One handle to close: the other pools go with the query pool.
		const destroy = db.destroy.bind(db);
		db.destroy = async () => {
			await Promise.all([destroy(), lockDb.destroy(), control.end(), leaseDb.destroy()]);
		};
		servers.set(db, { url: opts.databaseUrl, queries, locks, lockDb, control, leaseDb });
		return db;
	}
	const { PGlite } = await import('@electric-sql/pglite');
	const lite = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
	await lite.waitReady;
	const db = new Kysely<Database>({ dialect: new PGliteDialect(lite) });
	onPGlite.set(db, lite);
	return db;
}

/**
 * Runs `fn` on a database handle without the query pool's timeouts: on a server, one connection of
 * its own, closed afterwards (migrations: kysely's advisory lock waits for another instance's run,
 * and a migration may take long); PGlite: the handle itself.
 */
export async function unbounded<T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T> {
	const server = servers.get(db);
	if (!server) return fn(db);
	const { default: pg } = await import('pg');
	const pool = new pg.Pool({ connectionString: server.url, max: 1 });
	pool.on('error', () => {});
	const own = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
	try {
		return await fn(own);
	} finally {
		await own.destroy();
	}
}

/** A jsonb column: parsed by the driver, or its text (unreadable text: left to the schema). */
export function jsonColumn(v: unknown): unknown {
	if (typeof v !== 'string') return v;
	try {
		return JSON.parse(v);
	} catch {
		return v;
	}
}
