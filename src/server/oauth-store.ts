// Durable storage of the OAuth connection (the refresh token) for the token endpoint.
//
// Rotating refresh tokens (docs/oauth.md) make the token file a journal: presenting a
// rotated-out token revokes the whole connection, so the token must never be presented twice. Before
// a refresh request is sent, the file is marked `refreshing`; the new token is written (atomically:
// temp file, fsync, rename, fsync of the folder; owner-only permissions) before it is used. A file
// still marked `refreshing` at start means a crash in that window: the old token may already be
// dead, so the connection ends in a clear "reconnect" state instead of replaying it.
import { chmod, readFile, rm, stat } from 'node:fs/promises';
import { writeDurably } from './durable-file.ts';
import { z } from 'zod';
import { acquireFileLock, LockHeldError, type HeldLock } from './file-lock.ts';

/** An access token, with when to refresh it (ahead of expiry) and when the upstream ends it. */
export interface AccessToken {
	token: string;
	refreshAt: number;
	expiresAt: number;
}

export const StoredGrant = z.object({
	version: z.literal(1),
	/** The OAuth server and app the token belongs to; another pair makes it unusable. */
	issuer: z.string(),
	client_id: z.string(),
	status: z.enum(['connected', 'refreshing', 'revoked']),
	refresh_token: z.string().nullable(),
	scope: z.string(),
	/** Shown in the preview: who is connected. */
	tenant: z.string().nullable(),
	authorization_id: z.string().nullable(),
	/** Why a connection ended (revoked). */
	reason: z.string().nullable(),
	updated_at: z.string()
});
export type StoredGrant = z.infer<typeof StoredGrant>;

export interface GrantStore {
	read(): Promise<StoredGrant | null>;
	/** Resolves once the grant is durably stored; `access`: the access token that came with it. */
	write(grant: StoredGrant, access?: AccessToken): Promise<void>;
	clear(): Promise<void>;
	/** Where it lives, for messages ('memory' for the demo). */
	readonly where: string;
	/** Several processes share this grant (hosted mode): absent, this process owns it (lock()). */
	readonly shared?: SharedGrant;
}

/**
 * A grant that several processes use (hosted mode's instances on one database). A refresh runs
 * holding the deployment-wide lock of the grant; under it, read() sees whatever another process
 * stored, and a `refreshing` mark can only be a dead holder's (its outcome unknown).
 */
export interface SharedGrant {
	/**
	 * Runs `fn` holding the grant's refresh lock (waiting for another holder to finish). `peek`, if
	 * given, runs without the lock while waiting for another holder (not before the first attempt:
	 * the caller has just read the grant): a result from it (not null) is the answer and the lock
	 * is not taken (another process's stored result). `due` (epoch ms): when the token in hand
	 * expires (0: none, or refused); among refreshes waiting their turn the soonest goes first.
	 */
	exclusive<T>(fn: () => Promise<T>, peek?: () => Promise<T | null>, due?: number): Promise<T>;
	/** Another process's stored access token was used instead of a refresh (metrics). */
	adopted(): void;
	/** The access token stored with the grant the last read() returned, if any. */
	access(): AccessToken | null;
}

export class StoreError extends Error {}

/** The JSON file store (OAUTH_TOKEN_FILE). */
export class FileGrantStore implements GrantStore {
	constructor(readonly where: string) {}

	private held: HeldLock | null = null;

	/**
	 * One process per token file: two token endpoints on one file would both refresh with the same
	 * token, and the second refresh revokes the connection. The lock is the kernel's
	 * (src/server/file-lock.ts): freed the moment its holder dies, whatever pids do afterwards, and
	 * taken by exactly one of two racing starts. A refused start names the holder and what to do.
	 */
	async lock(): Promise<void> {
		if (this.held) return;
		try {
			this.held = await acquireFileLock(this.where);
		} catch (err) {
			if (err instanceof LockHeldError)
				throw new StoreError(
					`${err.message}: stop that server, or set OAUTH_TOKEN_FILE to another file`
				);
			throw new StoreError(`cannot lock ${this.where}: ${(err as Error).message}`);
		}
	}

	/** Tells a refused start where this server listens. */
	announce(address: string): void {
		if (this.held) this.held.holder.address = address;
	}

	async unlock(): Promise<void> {
		const held = this.held;
		this.held = null;
		await held?.release();
	}

	async read(): Promise<StoredGrant | null> {
		let text: string;
		try {
			text = await readFile(this.where, 'utf8');
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
			throw new StoreError(`cannot read ${this.where}: ${(err as Error).message}`);
		}
		// Owner-only, whoever created it: tighten a file that others could read.
		const mode = (await stat(this.where)).mode & 0o777;
		if (mode & 0o077) await chmod(this.where, 0o600);
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			throw new StoreError(`${this.where} is not valid JSON`);
		}
		const parsed = StoredGrant.safeParse(json);
		if (!parsed.success) throw new StoreError(`${this.where} is not a stored OAuth connection`);
		return parsed.data;
	}

	async write(grant: StoredGrant): Promise<void> {
		const text = JSON.stringify(StoredGrant.parse(grant), null, '\t') + '\n';
		await writeDurably(this.where, text);
	}

	async clear(): Promise<void> {
		await rm(this.where, { force: true });
	}
}

/** The demo's store: the embedded simulator forgets its grants on restart, so this does too. */
export class MemoryGrantStore implements GrantStore {
	readonly where = 'memory';
	/** Every write, for tests that check the order of journal marks. */
	readonly writes: StoredGrant[] = [];
	private grant: StoredGrant | null = null;

	async read(): Promise<StoredGrant | null> {
		return this.grant;
	}
	async write(grant: StoredGrant): Promise<void> {
		this.grant = StoredGrant.parse(grant);
		this.writes.push(this.grant);
	}
	async clear(): Promise<void> {
		this.grant = null;
	}
}
