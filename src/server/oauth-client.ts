// The token endpoint as an OAuth 2.0 client of the upstream (docs/oauth.md), built on
// oauth4webapi: discovery (RFC 8414), Connect (authorization code with PKCE S256 and state, in
// oauth-authorize.ts), the status the preview shows, and Disconnect (revocation). The tokens a
// connection holds, and their refresh one at a time, are in oauth-tokens.ts.
import * as oauth from 'oauth4webapi';
import { Me } from '../contract/index.ts';
import { AuthorizationFlow } from './oauth-authorize.ts';
import type { OAuthProblem } from './oauth-errors.ts';
import { describe, discoveryOnce, httpOptions, REQUEST_TIMEOUT_MS } from './oauth-http.ts';
import {
	ConnectionTokens,
	type Credential,
	type LastError,
	type TokenEndpoint,
	type TokenSettings
} from './oauth-tokens.ts';

/**
 * The scopes the widgets and the dock use (the same list launch.ts checks an API key against);
 * tipping:control is the dock's Open/Close tipping, chat:write thanks in chat and Send to chat,
 * commands:manage the dock's Commands (created upstream, and their runs heard).
 */
export const OAUTH_SCOPES = [
	'tts:read',
	'tts:control',
	'media:read',
	'media:control',
	'counters:manage',
	'overlays:manage',
	'tipping:control',
	'chat:write',
	'commands:manage'
] as const;

export interface OAuthSettings extends TokenSettings {
	/** `{oauth_url}`: the issuer whose metadata is discovered. */
	issuer: string;
	clientId: string;
	/** Absent: a public client (PKCE only). */
	clientSecret?: string;
	/** Where the upstream sends the browser back (GET /oauth/callback of this server). */
	redirectUri: () => string;
	/** `{base_url}`, to ask GET /me who connected. */
	baseUrl: string;
	scopes?: readonly string[];
	/**
	 * The server's metadata, when the caller shares one discovery between connections (hosted: one
	 * per instance, not one per streamer); without it the connection discovers once, on first use.
	 */
	server?: () => Promise<oauth.AuthorizationServer>;
}

export type ConnectionState = 'disconnected' | 'connected' | 'revoked';

export interface ConnectionStatus {
	state: ConnectionState;
	tenant: string | null;
	scopes: string[];
	authorization_id: string | null;
	/** Why the connection ended (revoked), in words for the streamer. */
	reason: string | null;
	/** The last thing that went wrong (a denied consent, a refused redirect URI, ...). */
	last_error: LastError;
}

export class OAuthConnection {
	private readonly endpoint: TokenEndpoint;
	private readonly tokens: ConnectionTokens;
	private readonly flow: AuthorizationFlow;
	/** Told after a connect and after a disconnect: the credential to use has changed. */
	private readonly listeners = new Set<() => void>();

	constructor(private readonly s: OAuthSettings) {
		this.endpoint = {
			server: s.server ?? discoveryOnce(s.issuer, s.fetch),
			client: { client_id: s.clientId },
			auth: s.clientSecret ? oauth.ClientSecretBasic(s.clientSecret) : oauth.None()
		};
		this.tokens = new ConnectionTokens(s, this.endpoint);
		this.flow = new AuthorizationFlow({
			...this.endpoint,
			issuer: s.issuer,
			redirectUri: s.redirectUri,
			scopes: s.scopes ?? OAUTH_SCOPES,
			fetch: s.fetch,
			now: () => this.now
		});
	}

	private get now(): number {
		return this.s.now?.() ?? Date.now();
	}

	/** Refreshes sent since start (tests and logs). */
	get refreshCount(): number {
		return this.tokens.refreshCount;
	}

	/** `listener` hears every connect and disconnect; returns the function that removes it. */
	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => void this.listeners.delete(listener);
	}

	private changed(): void {
		for (const listener of this.listeners) listener();
	}

	async status(): Promise<ConnectionStatus> {
		await this.tokens.load();
		const { grant: g, lastError } = this.tokens.current();
		return {
			state: !g ? 'disconnected' : g.status === 'revoked' ? 'revoked' : 'connected',
			tenant: g?.tenant ?? null,
			scopes: g?.scope ? g.scope.split(' ') : [],
			authorization_id: g?.authorization_id ?? null,
			reason: g?.status === 'revoked' ? g.reason : null,
			last_error: lastError
		};
	}

	/** Starts an authorization: the URL of the upstream's consent page, with PKCE and state. */
	async start(): Promise<string> {
		await this.tokens.load();
		try {
			return await this.flow.start();
		} catch (err) {
			throw this.tokens.record(err);
		}
	}

	/** Whether the upstream accepts the client id and redirect URI (see AuthorizationFlow). */
	async preflight(authorizeUrl: string): Promise<OAuthProblem | null> {
		const problem = await this.flow.preflight(authorizeUrl);
		return problem && this.tokens.record(problem);
	}

	/** GET /oauth/callback: checks state, exchanges the code and stores the refresh token. */
	async callback(params: URLSearchParams): Promise<void> {
		await this.tokens.load();
		// A refresh of the connection being replaced must not land after the new one is stored.
		await this.tokens.settled();
		const startedAt = this.now;
		let tokens: oauth.TokenEndpointResponse;
		try {
			tokens = await this.flow.finish(params);
		} catch (err) {
			throw this.tokens.record(err);
		}
		await this.tokens.connected(tokens, startedAt);
		this.changed();
		await this.describeConnection(tokens.access_token);
	}

	/** The access token for an upstream call, refreshed when it is about to expire. */
	credential(): Promise<Credential> {
		return this.tokens.credential();
	}

	/** The upstream answered 401 invalid_token to `token`: the token to retry with. */
	rejected(token: string): Promise<Credential> {
		return this.tokens.rejected(token);
	}

	/** "Disconnect": revokes the authorization upstream and forgets the token. */
	async disconnect(): Promise<{ revoked: boolean; message?: string }> {
		await this.tokens.load();
		const token = await this.tokens.forget();
		this.changed();
		if (!token) return { revoked: true };
		try {
			const { server, client, auth } = this.endpoint;
			const res = await oauth.revocationRequest(
				await server(),
				client,
				auth,
				token,
				httpOptions(this.s.issuer, this.s.fetch)
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

	/** Who connected, for the preview (GET /me with the new token). */
	private async describeConnection(accessToken: string): Promise<void> {
		try {
			const res = await (this.s.fetch ?? fetch)(`${this.s.baseUrl}/me`, {
				headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
				signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
			});
			const me = Me.safeParse(await res.json().catch(() => null));
			if (!me.success) return;
			await this.tokens.named(me.data.tenant.name, me.data.oauth?.authorization_id ?? null);
		} catch {
			// Only the display name is missing; the connection works.
		}
	}
}
