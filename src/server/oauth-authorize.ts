// The browser leg of Connect (docs/oauth.md): the authorize URL with PKCE (S256) and a
// fresh state, a check that the upstream accepts the client id and redirect URI before the streamer
// is sent there, and, back at the callback, the state check and the code exchange. What to do with
// the tokens (store first, then use) is oauth-tokens.ts's business.
import { LRUCache } from 'lru-cache';
import * as oauth from 'oauth4webapi';
import { OAuthProblem } from './oauth-errors.ts';
import { describe, httpOptions, REQUEST_TIMEOUT_MS } from './oauth-http.ts';
import type { Fetch } from './upstream.ts';

/** How long an authorization started by Connect may take (the upstream keeps requests 10 min). */
const PENDING_MS = 10 * 60_000;
const MAX_PENDING = 20;

/** Where sign-ins in progress wait for their callback: state -> PKCE verifier, one use each. */
export interface PendingSignIns {
	put(state: string, verifier: string, ttlMs: number): Promise<void>;
	/** The verifier of a state started here and not older than its ttl, once; else null. */
	take(state: string): Promise<string | null>;
}

/** The single-streamer server's: in memory, the newest MAX_PENDING. */
export class MemoryPendingSignIns implements PendingSignIns {
	private readonly pending = new LRUCache<string, { verifier: string; until: number }>({
		max: MAX_PENDING
	});
	constructor(private readonly now: () => number = Date.now) {}

	async put(state: string, verifier: string, ttlMs: number): Promise<void> {
		this.pending.set(state, { verifier, until: this.now() + ttlMs });
	}

	async take(state: string): Promise<string | null> {
		const p = this.pending.peek(state);
		this.pending.delete(state);
		return p && this.now() <= p.until ? p.verifier : null;
	}
}

export interface FlowOptions {
	issuer: string;
	server: () => Promise<oauth.AuthorizationServer>;
	client: oauth.Client;
	auth: oauth.ClientAuth;
	redirectUri: () => string;
	scopes: readonly string[];
	fetch?: Fetch;
	now: () => number;
	/** Default: in memory (one process). Hosted mode keeps them in its database. */
	pending?: PendingSignIns;
}

export class AuthorizationFlow {
	/** state -> PKCE verifier, for the Connects in progress. */
	private readonly pending: PendingSignIns;

	constructor(private readonly o: FlowOptions) {
		this.pending = o.pending ?? new MemoryPendingSignIns(o.now);
	}

	/** The URL of the upstream's consent page for a new authorization. */
	async start(): Promise<string> {
		const as = await this.o.server();
		const verifier = oauth.generateRandomCodeVerifier();
		const state = oauth.generateRandomState();
		await this.pending.put(state, verifier, PENDING_MS);
		const url = new URL(as.authorization_endpoint!);
		url.search = new URLSearchParams({
			response_type: 'code',
			client_id: this.o.client.client_id,
			redirect_uri: this.o.redirectUri(),
			scope: this.o.scopes.join(' '),
			state,
			code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
			code_challenge_method: 'S256'
		}).toString();
		return url.toString();
	}

	/**
	 * Asks the authorize endpoint (without following it) whether it takes this request: an unknown
	 * client or an unregistered redirect URI is a JSON 400 there (docs/oauth.md), and other request
	 * problems come back as an error redirect. Null: it looks fine (a consent or login page).
	 */
	async preflight(authorizeUrl: string): Promise<OAuthProblem | null> {
		let res: Response;
		try {
			res = await (this.o.fetch ?? fetch)(authorizeUrl, {
				redirect: 'manual',
				headers: { accept: 'application/json, text/html' },
				signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
			});
		} catch (err) {
			return new OAuthProblem(
				'upstream_unreachable',
				`the OAuth server could not be reached (${describe(err)})`
			);
		}
		const redirectUri = this.o.redirectUri();
		if (res.status === 400) {
			const body = (await res.json().catch(() => ({}))) as {
				error?: string;
				error_description?: string;
			};
			return new OAuthProblem(
				'redirect_refused',
				`the upstream refused this app's sign-in request (${body.error ?? 'error'}${body.error_description ? `: ${body.error_description}` : ''}). Check OAUTH_CLIENT_ID, and that exactly ${redirectUri} is registered as a redirect URI of the app`
			);
		}
		await res.body?.cancel();
		const location = res.headers.get('location');
		if (res.status >= 300 && res.status < 400 && location?.startsWith(redirectUri)) {
			const back = new URL(location);
			const error = back.searchParams.get('error');
			if (error) {
				const description = back.searchParams.get('error_description');
				return new OAuthProblem(
					'authorization_failed',
					`the upstream refused the sign-in request (${error}${description ? `: ${description}` : ''})`
				);
			}
		}
		return null;
	}

	/** The callback: the state must be one of ours; then the code is exchanged for tokens. */
	async finish(params: URLSearchParams): Promise<oauth.TokenEndpointResponse> {
		const state = params.get('state') ?? '';
		const verifier = state ? await this.pending.take(state) : null;
		if (!verifier)
			throw new OAuthProblem(
				'bad_state',
				'this sign-in answer does not belong to a Connect started here (or it is older than 10 minutes): press Connect again'
			);
		const as = await this.o.server();
		let checked: URLSearchParams;
		try {
			checked = oauth.validateAuthResponse(as, this.o.client, params, state);
		} catch (err) {
			if (err instanceof oauth.AuthorizationResponseError && err.error === 'access_denied')
				throw new OAuthProblem(
					'access_denied',
					'access was denied on the consent page, so nothing was connected: press Connect to try again'
				);
			throw new OAuthProblem(
				'authorization_failed',
				`the upstream refused the authorization (${describeAuthError(err)})`
			);
		}
		let tokens: oauth.TokenEndpointResponse;
		try {
			const res = await oauth.authorizationCodeGrantRequest(
				as,
				this.o.client,
				this.o.auth,
				checked,
				this.o.redirectUri(),
				verifier,
				httpOptions(this.o.issuer, this.o.fetch)
			);
			tokens = await oauth.processAuthorizationCodeResponse(as, this.o.client, res);
		} catch (err) {
			throw new OAuthProblem('token_exchange_failed', `the code exchange failed: ${describe(err)}`);
		}
		if (!tokens.refresh_token)
			throw new OAuthProblem('token_exchange_failed', 'the upstream sent no refresh token');
		return tokens;
	}
}

function describeAuthError(err: unknown): string {
	if (err instanceof oauth.AuthorizationResponseError)
		return `${err.error}${err.error_description ? `: ${err.error_description}` : ''}`;
	return describe(err);
}
