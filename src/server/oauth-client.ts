// The token endpoint as an OAuth 2.0 client of the upstream (service-api.md, OAuth 2.0), built on
// oauth4webapi: discovery (RFC 8414), authorization code with PKCE S256 and state, code exchange,
// rotating refresh tokens and revocation. One refresh at a time: every request that needs a fresh
// access token waits for the same refresh, because a second refresh with the same refresh token
// would revoke the connection. The refresh token's durability rules are in oauth-store.ts.
import * as oauth from 'oauth4webapi';
import { Me } from '../contract/index.ts';
import { backoffDelay } from '../core/backoff.ts';
import { AuthorizationFlow } from './oauth-authorize.ts';
import { OAuthProblem, refreshFailure, type ProblemCode } from './oauth-errors.ts';
import { describe, discoveryOnce, httpOptions, REQUEST_TIMEOUT_MS } from './oauth-http.ts';
import {
	accessFrom,
	connectedGrant,
	ownedBy,
	refreshingGrant,
	revokedGrant,
	rotatedGrant,
	type AccessToken
} from './oauth-grant.ts';
import type { GrantStore, SharedGrant, StoredGrant } from './oauth-store.ts';
import type { Fetch } from './upstream.ts';

/** The scopes the widgets use (the same list node.ts checks an API key against). */
export const OAUTH_SCOPES = [
	'tts:read',
	'tts:control',
	'media:read',
	'media:control',
	'counters:manage',
	'overlays:manage'
] as const;

export interface OAuthSettings {
	/** `{oauth_url}`: the issuer whose metadata is discovered. */
	issuer: string;
	clientId: string;
	/** Absent: a public client (PKCE only). */
	clientSecret?: string;
	/** Where the upstream sends the browser back (GET /oauth/callback of this server). */
	redirectUri: () => string;
	/** `{base_url}`, to ask GET /me who connected. */
	baseUrl: string;
	store: GrantStore;
	scopes?: readonly string[];
	fetch?: Fetch;
	/**
	 * The server's metadata, when the caller shares one discovery between connections (hosted: one
	 * per instance, not one per streamer); without it the connection discovers once, on first use.
	 */
	server?: () => Promise<oauth.AuthorizationServer>;
	now?: () => number;
}

/** Why a connection whose refresh was cut short ends: its token may already be used up. */
const CUT_SHORT =
	'the token endpoint stopped in the middle of a token refresh, so the saved token may already be used up: reconnect';

const ended = (reason: string | null) =>
	new OAuthProblem(
		'oauth_revoked',
		`the OAuth connection ended: ${reason ?? 'it was revoked'} (press Reconnect in the preview)`
	);

export type ConnectionState = 'disconnected' | 'connected' | 'revoked';

export interface ConnectionStatus {
	state: ConnectionState;
	tenant: string | null;
	scopes: string[];
	authorization_id: string | null;
	/** Why the connection ended (revoked), in words for the streamer. */
	reason: string | null;
	/** The last thing that went wrong (a denied consent, a refused redirect URI, ...). */
	last_error: { code: ProblemCode; message: string; at: string } | null;
}

/** What an upstream call should send, or why it cannot. */
export type Credential = { token: string } | { problem: OAuthProblem };

export class OAuthConnection {
	/** The server's metadata: the caller's shared discovery, or this connection's own. */
	private readonly server: () => Promise<oauth.AuthorizationServer>;
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
	private lastError: ConnectionStatus['last_error'] = null;
	private loaded: Promise<void> | null = null;
	private readonly client: oauth.Client;
	private readonly auth: oauth.ClientAuth;
	private readonly flow: AuthorizationFlow;
	/** Refreshes sent since start (tests and logs). */
	refreshCount = 0;

	constructor(private readonly s: OAuthSettings) {
		this.client = { client_id: s.clientId };
		this.auth = s.clientSecret ? oauth.ClientSecretBasic(s.clientSecret) : oauth.None();
		this.server = s.server ?? discoveryOnce(s.issuer, s.fetch);
		this.flow = new AuthorizationFlow({
			issuer: s.issuer,
			server: this.server,
			client: this.client,
			auth: this.auth,
			redirectUri: s.redirectUri,
			scopes: s.scopes ?? OAUTH_SCOPES,
			fetch: s.fetch,
			now: () => this.now
		});
	}

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

	async status(): Promise<ConnectionStatus> {
		await this.load();
		const g = this.grant;
		return {
			state: !g ? 'disconnected' : g.status === 'revoked' ? 'revoked' : 'connected',
			tenant: g?.tenant ?? null,
			scopes: g?.scope ? g.scope.split(' ') : [],
			authorization_id: g?.authorization_id ?? null,
			reason: g?.status === 'revoked' ? g.reason : null,
			last_error: this.lastError
		};
	}

	/** Starts an authorization: the URL of the upstream's consent page, with PKCE and state. */
	async start(): Promise<string> {
		await this.load();
		try {
			return await this.flow.start();
		} catch (err) {
			throw this.record(err);
		}
	}

	/** Whether the upstream accepts the client id and redirect URI (see AuthorizationFlow). */
	async preflight(authorizeUrl: string): Promise<OAuthProblem | null> {
		const problem = await this.flow.preflight(authorizeUrl);
		return problem && this.record(problem);
	}

	/** GET /oauth/callback: checks state, exchanges the code and stores the refresh token. */
	async callback(params: URLSearchParams): Promise<void> {
		await this.load();
		// A refresh of the connection being replaced must not land after the new one is stored.
		await this.refreshing?.catch(() => {});
		const startedAt = this.now;
		let tokens: oauth.TokenEndpointResponse;
		try {
			tokens = await this.flow.finish(params);
		} catch (err) {
			throw this.record(err);
		}
		// Stored before it is used.
		this.grant = connectedGrant(this.s, tokens, this.now);
		await this.s.store.write(this.grant);
		this.access = accessFrom(tokens, startedAt);
		this.lastError = null;
		this.retryAt = 0;
		this.failedRefreshes = 0;
		await this.describeConnection(tokens.access_token);
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

	/** "Disconnect": revokes the authorization upstream and forgets the token. */
	async disconnect(): Promise<{ revoked: boolean; message?: string }> {
		await this.load();
		// A refresh in flight would store a token we are about to forget.
		await this.refreshing?.catch(() => {});
		const token = this.grant?.refresh_token ?? this.access?.token;
		this.grant = null;
		this.access = null;
		this.lastError = null;
		await this.s.store.clear();
		if (!token) return { revoked: true };
		try {
			const as = await this.server();
			const res = await oauth.revocationRequest(
				as,
				this.client,
				this.auth,
				token,
				this.httpOptions()
			);
			await oauth.processRevocationResponse(res);
			return { revoked: true };
		} catch (err) {
			return {
				revoked: false,
				message: `forgotten here, but the upstream could not be told (${describe(err)}): remove the app in the service's dashboard`
			};
		}
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
		const as = await this.server();
		// Journal first: from here on, a crash means this token may be used up.
		await this.s.store.write(refreshingGrant(g, this.now));
		const startedAt = this.now;
		this.refreshCount += 1;
		let res: Response;
		try {
			res = await oauth.refreshTokenGrantRequest(
				as,
				this.client,
				this.auth,
				g.refresh_token,
				this.httpOptions()
			);
		} catch (err) {
			const failure = refreshFailure(err, null);
			if (failure.rotatedMaybe) await this.revoke(failure.problem.message);
			else await this.notRotated(g, failure.problem);
			throw failure.problem;
		}
		let tokens: oauth.TokenEndpointResponse;
		try {
			tokens = await oauth.processRefreshTokenResponse(as, this.client, res);
		} catch (err) {
			const failure = refreshFailure(err, res.status);
			if (failure.rotatedMaybe) await this.revoke(failure.problem.message);
			else await this.notRotated(g, failure.problem);
			throw failure.problem;
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

	/** The server answered (or was never reached) without rotating: the token stays, retried later. */
	private async notRotated(g: StoredGrant, problem: OAuthProblem): Promise<void> {
		await this.s.store.write(g);
		this.lastError = problem.toJSON(this.now);
		this.retryAt = this.now + backoffDelay(this.failedRefreshes++, { baseMs: 1000, maxMs: 60_000 });
	}

	private async revoke(reason: string): Promise<void> {
		this.access = null;
		this.grant = revokedGrant(this.grant, this.s, reason, this.now);
		await this.s.store.write(this.grant);
	}

	/** Who connected, for the preview (GET /me with the new token). */
	private async describeConnection(accessToken: string): Promise<void> {
		try {
			const res = await (this.s.fetch ?? fetch)(`${this.s.baseUrl}/me`, {
				headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
				signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
			});
			const me = Me.safeParse(await res.json().catch(() => null));
			if (!me.success || !this.grant) return;
			this.grant = {
				...this.grant,
				tenant: me.data.tenant.name,
				authorization_id: me.data.oauth?.authorization_id ?? null
			};
			await this.s.store.write(this.grant);
		} catch {
			// Only the display name is missing; the connection works.
		}
	}

	private httpOptions() {
		return httpOptions(this.s.issuer, this.s.fetch);
	}

	/** Remembers a problem for the preview (GET /oauth/status, last_error). */
	private record(err: unknown): OAuthProblem {
		const problem =
			err instanceof OAuthProblem ? err : new OAuthProblem('authorization_failed', describe(err));
		this.lastError = problem.toJSON(this.now);
		return problem;
	}

	private fail(code: ProblemCode, message: string): OAuthProblem {
		return this.record(new OAuthProblem(code, message));
	}
}
