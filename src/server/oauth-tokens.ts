// The tokens of one OAuth connection (oauth-client.ts): the stored grant, read once at start; the
// access token each upstream call sends; and its refresh. One refresh at a time: every request that
// needs a fresh access token waits for the same refresh, because a second refresh with the same
// refresh token would revoke the connection. Where several processes share the grant (hosted mode),
// a refresh runs under their common lock and uses what another process already stored. The refresh
// token's durability rules (journal first, store before use) are in oauth-store.ts.
import * as oauth from 'oauth4webapi';
import { backoffDelay } from '../core/backoff.ts';
import { OAuthProblem, refreshFailure, type ProblemCode } from './oauth-errors.ts';
import { describe, httpOptions } from './oauth-http.ts';
import {
	accessFrom,
	connectedGrant,
	ownedBy,
	refreshingGrant,
	revokedGrant,
	rotatedGrant,
	type GrantOwner
} from './oauth-grant.ts';
import type { AccessToken, GrantStore, SharedGrant, StoredGrant } from './oauth-store.ts';
import type { Fetch } from './upstream.ts';

export interface TokenSettings extends GrantOwner {
	store: GrantStore;
	fetch?: Fetch;
	now?: () => number;
}

/** The upstream's OAuth server as this app talks to it (the refresh here, Connect and Disconnect). */
export interface TokenEndpoint {
	/** The server's metadata: the caller's shared discovery, or the connection's own. */
	server: () => Promise<oauth.AuthorizationServer>;
	client: oauth.Client;
	auth: oauth.ClientAuth;
}

/** What an upstream call should send, or why it cannot. */
export type Credential = { token: string } | { problem: OAuthProblem };

/** The last thing that went wrong (a denied consent, a refused redirect URI, ...), for the preview. */
export type LastError = { code: ProblemCode; message: string; at: string } | null;

/** Why a connection whose refresh was cut short ends: its token may already be used up. */
const CUT_SHORT =
	'the token endpoint stopped in the middle of a token refresh, so the saved token may already be used up: reconnect';

const ended = (reason: string | null) =>
	new OAuthProblem(
		'oauth_revoked',
		`the OAuth connection ended: ${reason ?? 'it was revoked'} (press Reconnect in the preview)`
	);

export class ConnectionTokens {
	private grant: StoredGrant | null = null;
	private access: AccessToken | null = null;
	/** After a refresh failed without rotating (unreachable, 5xx): no new attempt before this. */
	private retryAt = 0;
	private failedRefreshes = 0;
	private refreshing: Promise<string> | null = null;
	/** A read of the shared grant in flight (peek): concurrent calls share it. */
	private peeking: Promise<void> | null = null;
	/** The access token the upstream last refused (401): never taken back from a shared store. */
	private refused: string | null = null;
	private lastError: LastError = null;
	private loaded: Promise<void> | null = null;
	/** Refreshes sent since start (tests and logs). */
	refreshCount = 0;

	constructor(
		private readonly s: TokenSettings,
		private readonly endpoint: TokenEndpoint
	) {}

	private get now(): number {
		return this.s.now?.() ?? Date.now();
	}

	/** Reads the stored grant once; a journal left at `refreshing` ends in "reconnect". */
	load(): Promise<void> {
		this.loaded ??= (async () => {
			let grant: StoredGrant | null;
			try {
				grant = await this.s.store.read();
			} catch (err) {
				this.fail('store_unreadable', `${(err as Error).message}: connect again`);
				return;
			}
			if (grant && !ownedBy(grant, this.s)) grant = null;
			// Shared: the mark may be another live process's refresh; it is judged under the lock.
			if (grant && this.s.store.shared) this.access = this.s.store.shared.access();
			else if (grant?.status === 'refreshing') {
				grant = revokedGrant(grant, this.s, CUT_SHORT, this.now);
				// Never sent again, even if the file cannot be rewritten (read-only, full disk).
				await this.s.store.write(grant).catch((err: Error) => {
					this.fail('store_unreadable', `cannot update ${this.s.store.where}: ${err.message}`);
				});
			}
			this.grant = grant;
		})();
		return this.loaded;
	}

	/** The grant as it stands and the last problem, for the connection's status. */
	current(): { grant: StoredGrant | null; lastError: LastError } {
		return { grant: this.grant, lastError: this.lastError };
	}

	/** Resolves once no refresh is in flight (whatever its outcome). */
	async settled(): Promise<void> {
		await this.refreshing?.catch(() => {});
	}

	/** A code exchange's tokens: the grant stored before the access token is used. */
	async connected(tokens: oauth.TokenEndpointResponse, startedAt: number): Promise<void> {
		this.grant = connectedGrant(this.s, tokens, this.now);
		await this.s.store.write(this.grant);
		this.access = accessFrom(tokens, startedAt);
		this.lastError = null;
		this.retryAt = 0;
		this.failedRefreshes = 0;
	}

	/** Who connected (GET /me), stored with the grant for the preview. */
	async named(tenant: string, authorizationId: string | null): Promise<void> {
		if (!this.grant) return;
		this.grant = { ...this.grant, tenant, authorization_id: authorizationId };
		await this.s.store.write(this.grant);
	}

	/**
	 * Forgets the connection here (after any refresh in flight, which would store a token about to
	 * be forgotten) and gives the token to revoke upstream, if there was one.
	 */
	async forget(): Promise<string | undefined> {
		await this.settled();
		const token = this.grant?.refresh_token ?? this.access?.token;
		this.grant = null;
		this.access = null;
		this.lastError = null;
		await this.s.store.clear();
		return token;
	}

	/** The access token for an upstream call, refreshed when it is about to expire. */
	async credential(): Promise<Credential> {
		await this.load();
		const g = this.grant;
		if (!g)
			return {
				problem: new OAuthProblem(
					'not_connected',
					'not connected: open the preview and press Connect'
				)
			};
		if (g.status === 'revoked') return { problem: ended(g.reason) };
		if (this.access && this.now < this.access.refreshAt) return { token: this.access.token };
		const shared = this.s.store.shared;
		if (shared) {
			// Another process may have stored a newer access token: one read, no lock.
			await (this.peeking ??= this.peek(shared).finally(() => (this.peeking = null)));
			if (this.grant?.status === 'revoked') return { problem: ended(this.grant.reason) };
			if (this.access && this.now < this.access.refreshAt) return { token: this.access.token };
		}
		if (this.now < this.retryAt) return this.stillValid() ?? { problem: this.waiting() };
		const refreshing = this.refreshed();
		// Due but still valid: this call uses it, and the refresh goes on for the next ones, so a
		// call waits for a refresh only when its token has really expired.
		if (shared && this.access?.token !== this.refused) {
			const valid = this.stillValid();
			if (valid) return valid;
		}
		const fresh = await refreshing;
		// A refresh that could not happen (server unreachable) leaves the old token usable until it
		// really expires.
		if ('problem' in fresh && fresh.problem.code === 'upstream_unreachable')
			return this.stillValid() ?? fresh;
		return fresh;
	}

	/**
	 * The upstream answered 401 invalid_token to `token`: refresh (once, shared) unless another
	 * request already did, and give the token to retry with.
	 */
	async rejected(token: string): Promise<Credential> {
		if (this.access?.token === token) this.access = null;
		this.refused = token;
		// The upstream said this token is dead: waiting out a backoff would only fail more calls.
		this.retryAt = 0;
		return this.credential();
	}

	/** Remembers a problem for the preview (GET /oauth/status, last_error). */
	record(err: unknown): OAuthProblem {
		const problem =
			err instanceof OAuthProblem ? err : new OAuthProblem('authorization_failed', describe(err));
		this.lastError = problem.toJSON(this.now);
		return problem;
	}

	private fail(code: ProblemCode, message: string): OAuthProblem {
		return this.record(new OAuthProblem(code, message));
	}

	/**
	 * The shared grant read again without the lock: an access token stored there that is newer than
	 * the one in hand (and not the one the upstream refused) is taken. A failed read changes nothing
	 * (the refresh that follows meets the same database).
	 */
	private async peek(shared: SharedGrant): Promise<void> {
		try {
			const stored = await this.s.store.read();
			this.grant = stored && ownedBy(stored, this.s) ? stored : null;
			const access = shared.access();
			if (
				!this.grant ||
				!access ||
				access.token === this.refused ||
				this.now >= access.expiresAt ||
				(this.access && access.expiresAt <= this.access.expiresAt)
			)
				return;
			this.adopt(shared, access);
		} catch {
			// The refresh reads the database again and reports what fails.
		}
	}

	private stillValid(): Credential | null {
		return this.access && this.now < this.access.expiresAt ? { token: this.access.token } : null;
	}

	private waiting(): OAuthProblem {
		const s = Math.ceil((this.retryAt - this.now) / 1000);
		return new OAuthProblem(
			'upstream_unreachable',
			`the OAuth server could not be reached for a token refresh; next attempt in ${s} s`
		);
	}

	private refreshed(): Promise<Credential> {
		this.refreshing ??= this.refresh().finally(() => (this.refreshing = null));
		return this.refreshing.then(
			(token) => ({ token }),
			(err: unknown) => ({
				problem:
					err instanceof OAuthProblem
						? err
						: new OAuthProblem('upstream_unreachable', describe(err))
			})
		);
	}

	/**
	 * The one refresh in flight. Shared by several processes, it runs under their common lock and
	 * first reads what the others did: a fresh access token another process stored is used as is
	 * (no second refresh), and a `refreshing` mark left there is a dead holder's whose refresh may
	 * have rotated the token: the connection ends (reconnect) instead of presenting it.
	 */
	private async refresh(): Promise<string> {
		const shared = this.s.store.shared;
		if (!shared) return this.rotate();
		// Its deadline: the token in hand still serves calls until it expires.
		const due = this.access && this.access.token !== this.refused ? this.access.expiresAt : 0;
		return shared.exclusive(
			async () => (await this.stored(shared, true)) ?? this.rotate(),
			// Without the lock: using an access token another process stored needs none (only
			// presenting the refresh token does), so a refresh already done is never waited for.
			() => this.stored(shared, false),
			due
		);
	}

	/**
	 * The stored grant read again: its access token if it is fresh (another process refreshed), else
	 * null. Under the lock a `refreshing` mark there is a dead holder's (the connection ends);
	 * without it, a live holder's, whose result is looked for again later.
	 */
	private async stored(shared: SharedGrant, locked: boolean): Promise<string | null> {
		const stored = await this.s.store.read();
		this.grant = stored && ownedBy(stored, this.s) ? stored : null;
		if (locked && this.grant?.status === 'refreshing') await this.revoke(CUT_SHORT);
		if (this.grant?.status === 'revoked') throw ended(this.grant.reason);
		const access = shared.access();
		if (this.grant && access && access.token !== this.refused && this.now < access.refreshAt) {
			this.adopt(shared, access);
			return access.token;
		}
		return null;
	}

	/** Takes an access token another process stored; counted once per token. */
	private adopt(shared: SharedGrant, access: AccessToken): void {
		if (this.access?.token !== access.token) shared.adopted();
		this.access = access;
	}

	/** Sends the refresh: journaled first, the rotated token stored before it is used. */
	private async rotate(): Promise<string> {
		const g = this.grant;
		if (!g || g.status !== 'connected' || !g.refresh_token)
			throw new OAuthProblem('not_connected', 'not connected: press Connect in the preview');
		const { server, client, auth } = this.endpoint;
		const as = await server();
		// Journal first: from here on, a crash means this token may be used up.
		await this.s.store.write(refreshingGrant(g, this.now));
		const startedAt = this.now;
		this.refreshCount += 1;
		let res: Response;
		try {
			res = await oauth.refreshTokenGrantRequest(
				as,
				client,
				auth,
				g.refresh_token,
				httpOptions(this.s.issuer, this.s.fetch)
			);
		} catch (err) {
			throw await this.refreshFailed(g, err, null);
		}
		let tokens: oauth.TokenEndpointResponse;
		try {
			tokens = await oauth.processRefreshTokenResponse(as, client, res);
		} catch (err) {
			throw await this.refreshFailed(g, err, res.status);
		}
		// Stored before anything uses the new access token: the window is this one write.
		const next = rotatedGrant(g, tokens, this.now);
		const access = accessFrom(tokens, startedAt);
		await this.s.store.write(next, access);
		this.grant = next;
		this.failedRefreshes = 0;
		this.retryAt = 0;
		this.access = access;
		return access.token;
	}

	/**
	 * A refresh that failed (no answer: `status` null): the connection ends if the token may have
	 * been rotated upstream, else the token stays and is tried again after a backoff.
	 */
	private async refreshFailed(
		g: StoredGrant,
		err: unknown,
		status: number | null
	): Promise<OAuthProblem> {
		const failure = refreshFailure(err, status);
		if (failure.rotatedMaybe) await this.revoke(failure.problem.message);
		else {
			await this.s.store.write(g);
			this.lastError = failure.problem.toJSON(this.now);
			this.retryAt =
				this.now + backoffDelay(this.failedRefreshes++, { baseMs: 1000, maxMs: 60_000 });
		}
		return failure.problem;
	}

	private async revoke(reason: string): Promise<void> {
		this.access = null;
		this.grant = revokedGrant(this.grant, this.s, reason, this.now);
		await this.s.store.write(this.grant);
	}
}
