// Hosted sign-in: "Connect your tip page" runs the upstream's authorization code flow with PKCE and
// `state` (the single-streamer server's AuthorizationFlow), its attempts kept in the database so
// that the callback may land on any instance and each attempt is used once. The callback reads
// GET /me with the new access token: the upstream's tenant id is the streamer's identity.
import * as oauth from 'oauth4webapi';
import { Me } from '../contract/index.ts';
import { OAUTH_SCOPES } from '../server/oauth-client.ts';
import { accessFrom } from '../server/oauth-grant.ts';
import { AuthorizationFlow } from '../server/oauth-authorize.ts';
import { OAuthProblem } from '../server/oauth-errors.ts';
import { discoveryOnce, REQUEST_TIMEOUT_MS } from '../server/oauth-http.ts';
import type { UpstreamSettings } from './connections.ts';
import type { HostedStore, Streamer } from './store.ts';

export class HostedSignIn {
	private readonly flow: AuthorizationFlow;

	constructor(
		private readonly store: HostedStore,
		private readonly s: UpstreamSettings,
		/** What a sign-in asks for: the widgets' and the dock's, and webhooks:manage with an https PUBLIC_URL. */
		private readonly scopes: readonly string[] = OAUTH_SCOPES
	) {
		this.flow = new AuthorizationFlow({
			issuer: s.issuer,
			server: s.server ?? discoveryOnce(s.issuer, s.fetch),
			client: { client_id: s.clientId },
			auth: s.clientSecret ? oauth.ClientSecretBasic(s.clientSecret) : oauth.None(),
			redirectUri: () => s.redirectUri,
			scopes,
			fetch: s.fetch,
			now: Date.now,
			pending: {
				put: (state, verifier, ttlMs) => store.beginSignIn(state, verifier, ttlMs),
				take: (state) => store.takeSignIn(state)
			}
		});
	}

	/** The upstream's consent page for a new sign-in (one attempt per click). */
	start(): Promise<string> {
		return this.flow.start();
	}

	/**
	 * The callback: state checked once, code exchanged, the streamer created or updated; with the
	 * scopes the sign-in granted.
	 */
	async finish(params: URLSearchParams): Promise<Streamer & { scopes: string }> {
		const startedAt = Date.now();
		const tokens = await this.flow.finish(params);
		const res = await (this.s.fetch ?? fetch)(`${this.s.baseUrl}/me`, {
			headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
			signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
		}).catch(() => null);
		const me = Me.safeParse(await res?.json().catch(() => null));
		if (!me.success)
			throw new OAuthProblem(
				'token_exchange_failed',
				'signed in, but the upstream did not say which tip page this is (GET /me): try again'
			);
		const access = accessFrom(tokens, startedAt);
		const scopes = tokens.scope ?? this.scopes.join(' ');
		const { streamer } = await this.store.signedIn(
			{
				tenantId: me.data.tenant.id,
				name: me.data.tenant.name,
				currency: me.data.tenant.currency
			},
			{
				refreshToken: tokens.refresh_token!,
				accessToken: access.token,
				expiresAt: new Date(access.expiresAt),
				refreshAt: new Date(access.refreshAt),
				scopes
			}
		);
		return { ...streamer, scopes };
	}
}
