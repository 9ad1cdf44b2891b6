// The simulated OAuth 2.0 authorization server (docs/simulator.md; docs/oauth.md): apps
// (public and confidential clients), authorize requests and codes (single use, 10 minutes), PKCE
// S256 and client authentication. Access tokens (`tpat_`, 1 hour) and rotating refresh tokens with
// reuse detection are oauth-tokens.ts; the HTTP surface is oauth-app.ts. Codes and secrets are kept
// only as SHA-256 hashes.
import { createHash } from 'node:crypto';
import { SCOPES, type Scope } from '../contract/index.ts';
import type { SimLog } from './log.ts';
import { randomHex, randomToken } from './model/ids.ts';
import { hash, OAuthError, sameHash, TokenLedger, type Authorization } from './oauth-tokens.ts';
import {
	PKCE_CHALLENGE,
	PKCE_VERIFIER,
	type AuthorizeQuery,
	type OAuthErrorCode,
	type TokenBody,
	type TokenResponse
} from './oauth-shapes.ts';

export { OAuthError, type Authorization } from './oauth-tokens.ts';
export const CODE_TTL_MS = 10 * 60_000;
const MAX_APPS = 10;

export interface OAuthApp {
	/** `oc_` prefix. */
	id: string;
	name: string;
	description: string;
	/** Null for a public client. Only its hash is kept after registration. */
	secretHash: string | null;
	redirectUris: string[];
	/** The most the app may ever request. */
	scopes: Scope[];
	type: 'public' | 'confidential';
}

interface PendingRequest {
	id: string;
	app: OAuthApp;
	redirectUri: string;
	/** Whether redirect_uri was in the request (then it must be repeated at the token endpoint). */
	redirectUriGiven: boolean;
	scopes: Scope[];
	state?: string;
	challenge?: string;
	expiresAt: number;
}

interface CodeRecord {
	appId: string;
	redirectUri: string;
	redirectUriGiven: boolean;
	scopes: Scope[];
	challenge?: string;
	expiresAt: number;
	used: boolean;
	/** The authorization this code produced, ended if the code is presented again. */
	authorizationId?: string;
	/** The streamer who approved (the consent page asks when there are several). */
	tenantId?: string;
}

/** What a decision on the consent page, or a rejected authorize request, leads to. */
export type AuthorizeOutcome =
	| { kind: 'fatal'; error: OAuthErrorCode; description: string }
	| { kind: 'redirect'; location: string }
	| { kind: 'consent'; request: PendingRequest };

/**
 * Registered redirect URIs (as the upstream allows them): `https://`, `http://localhost` (any port)
 * or a reverse-domain custom scheme; no wildcards, no fragments. Matching is exact.
 */
export function redirectUriAllowed(uri: string): boolean {
	if (!URL.canParse(uri) || uri.includes('*') || uri.includes('#')) return false;
	const u = new URL(uri);
	if (u.protocol === 'https:') return true;
	// The upstream names http://localhost; the loopback IP literals that RFC 8252 (7.3) recommends
	// to native apps are accepted too, so that any standard client can be pointed at the simulator.
	if (u.protocol === 'http:') return ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
	return /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+:$/.test(u.protocol);
}

export class OAuthServer {
	readonly apps = new Map<string, OAuthApp>();
	private readonly pending = new Map<string, PendingRequest>();
	private readonly codes = new Map<string, CodeRecord>();
	/** Authorizations and their tokens. */
	readonly tokens: TokenLedger;

	constructor(
		private readonly log: SimLog,
		// Read lazily, so that a test can move the clock past the 10-minute code lifetime.
		private readonly now: () => number = () => Date.now()
	) {
		this.tokens = new TokenLedger(log, (id) => this.apps.get(id)?.name, now);
	}

	get authorizations(): Map<string, Authorization> {
		return this.tokens.authorizations;
	}
	/** Access-token lifetime in seconds; tests shorten it to accelerate expiry. */
	get accessTtlS(): number {
		return this.tokens.accessTtlS;
	}
	set accessTtlS(seconds: number) {
		this.tokens.accessTtlS = seconds;
	}
	/** Called when an authorization ends, so that live realtime sockets can be closed. */
	set onRevoke(fn: (authorizationId: string) => void) {
		this.tokens.onRevoke = fn;
	}
	accessKey(token: string) {
		return this.tokens.accessKey(token);
	}
	authorizationKey(authorizationId: string) {
		return this.tokens.authorizationKey(authorizationId);
	}
	revokeAuthorization(authorizationId: string, reason: string): boolean {
		return this.tokens.revokeAuthorization(authorizationId, reason);
	}

	/** Registers an app; returns it with its secret in clear (shown once, as in the dashboard). */
	registerApp(opts: {
		id?: string;
		name?: string;
		description?: string;
		/** A string: confidential with this secret; null: public; absent: confidential, generated. */
		secret?: string | null;
		redirectUris: string[];
		scopes?: readonly Scope[];
	}): { app: OAuthApp; secret: string | null } {
		if (this.apps.size >= MAX_APPS) throw new Error('at most 10 apps per account');
		const id = opts.id ?? `oc_${randomHex(16)}`;
		if (!/^oc_[A-Za-z0-9_-]{1,100}$/.test(id)) throw new Error(`client id must start with oc_`);
		const bad = opts.redirectUris.filter((u) => !redirectUriAllowed(u));
		if (bad.length || !opts.redirectUris.length)
			throw new Error(
				`redirect URIs must be https://, http://localhost or a reverse-domain scheme: ${bad.join(', ') || '(none)'}`
			);
		const secret = opts.secret === undefined ? `ocs_${randomToken(24)}` : opts.secret;
		const app: OAuthApp = {
			id,
			name: opts.name ?? 'Demo Overlay App',
			description: opts.description ?? 'Shows your tips, videos, counters and goals in OBS.',
			secretHash: secret === null ? null : hash(secret),
			redirectUris: [...opts.redirectUris],
			scopes: [...(opts.scopes ?? SCOPES)],
			type: secret === null ? 'public' : 'confidential'
		};
		this.apps.set(id, app);
		return { app, secret };
	}

	/** Dashboard: a new secret (shown once). Revokes nothing; the next refresh needs the new one. */
	rotateSecret(appId: string): string {
		const app = this.apps.get(appId);
		if (!app || app.type !== 'confidential') throw new Error('no confidential app with that id');
		const secret = `ocs_${randomToken(24)}`;
		app.secretHash = hash(secret);
		return secret;
	}

	/**
	 * Dashboard: change an app's scopes or redirect URIs. Removing a scope revokes every current
	 * connection of the app; adding scopes or changing redirect URIs keeps them.
	 */
	updateApp(appId: string, change: { scopes?: readonly Scope[]; redirectUris?: string[] }): number {
		const app = this.apps.get(appId);
		if (!app) throw new Error('no app with that id');
		if (change.redirectUris) {
			if (!change.redirectUris.length || !change.redirectUris.every(redirectUriAllowed))
				throw new Error(
					'redirect URIs must be https://, http://localhost or a reverse-domain scheme'
				);
			app.redirectUris = [...change.redirectUris];
		}
		let revoked = 0;
		if (change.scopes) {
			const removed = app.scopes.some((s) => !change.scopes!.includes(s));
			app.scopes = [...change.scopes];
			if (removed)
				for (const a of this.authorizations.values())
					if (
						a.appId === app.id &&
						this.revokeAuthorization(a.id, 'a scope was removed from the app')
					)
						revoked++;
		}
		return revoked;
	}

	/** GET /oauth/authorize: the consent page, an error redirect, or a fatal error (no redirect). */
	authorize(q: AuthorizeQuery): AuthorizeOutcome {
		this.sweep();
		const app = q.client_id ? this.apps.get(q.client_id) : undefined;
		// Unknown client or unregistered redirect_uri: answered without redirecting.
		if (!app) return { kind: 'fatal', error: 'invalid_client', description: 'unknown client_id' };
		let redirectUri: string;
		if (q.redirect_uri !== undefined) {
			if (!app.redirectUris.includes(q.redirect_uri))
				return {
					kind: 'fatal',
					error: 'invalid_request',
					description: `redirect_uri is not registered for this app: ${q.redirect_uri}`
				};
			redirectUri = q.redirect_uri;
		} else if (app.redirectUris.length === 1) redirectUri = app.redirectUris[0];
		else
			return {
				kind: 'fatal',
				error: 'invalid_request',
				description: 'redirect_uri is required: the app has more than one'
			};
		const fail = (error: OAuthErrorCode, description: string): AuthorizeOutcome => ({
			kind: 'redirect',
			location: withParams(redirectUri, {
				error,
				error_description: description,
				state: q.state
			})
		});
		if (q.response_type !== 'code')
			return fail('unsupported_response_type', 'response_type must be code');
		const requested = q.scope?.trim() ? q.scope.trim().split(/\s+/) : [...app.scopes];
		const unknown = requested.filter((s) => !(app.scopes as string[]).includes(s));
		if (unknown.length)
			return fail('invalid_scope', `scopes not registered for this app: ${unknown.join(' ')}`);
		if (q.code_challenge_method !== undefined && q.code_challenge_method !== 'S256')
			return fail('invalid_request', 'code_challenge_method must be S256 (plain is refused)');
		if (q.code_challenge === undefined) {
			if (app.type === 'public')
				return fail('invalid_request', 'PKCE is required for public clients: send code_challenge');
		} else if (!PKCE_CHALLENGE.test(q.code_challenge) || q.code_challenge_method !== 'S256')
			return fail(
				'invalid_request',
				'code_challenge must be BASE64URL(SHA-256(verifier)) with code_challenge_method=S256'
			);
		const request: PendingRequest = {
			id: `ar_${randomToken(24)}`,
			app,
			redirectUri,
			redirectUriGiven: q.redirect_uri !== undefined,
			scopes: [...new Set(requested)] as Scope[],
			state: q.state,
			challenge: q.code_challenge,
			expiresAt: this.now() + CODE_TTL_MS
		};
		this.pending.set(request.id, request);
		return { kind: 'consent', request };
	}

	/** The consent page's buttons. A request id works once and for 10 minutes. */
	decide(requestId: string, approve: boolean, tenantId?: string): AuthorizeOutcome {
		const request = this.pending.get(requestId);
		this.pending.delete(requestId);
		if (!request || request.expiresAt < this.now())
			return {
				kind: 'fatal',
				error: 'invalid_request',
				description: 'this authorization request has expired or was already answered; start again'
			};
		if (!approve)
			return {
				kind: 'redirect',
				location: withParams(request.redirectUri, {
					error: 'access_denied',
					error_description: 'the streamer denied access',
					state: request.state
				})
			};
		const code = `ocd_${randomToken(24)}`;
		this.codes.set(hash(code), {
			appId: request.app.id,
			redirectUri: request.redirectUri,
			redirectUriGiven: request.redirectUriGiven,
			scopes: request.scopes,
			challenge: request.challenge,
			expiresAt: this.now() + CODE_TTL_MS,
			used: false,
			tenantId
		});
		return {
			kind: 'redirect',
			location: withParams(request.redirectUri, { code, state: request.state })
		};
	}

	/** POST /oauth/token. `basic` is the decoded HTTP Basic credential, if any. */
	token(body: TokenBody, basic: { id: string; secret: string } | null): TokenResponse {
		const app = this.authenticateClient(body, basic);
		if (body.grant_type === 'authorization_code') return this.exchangeCode(app, body);
		if (body.grant_type === 'refresh_token') return this.tokens.refreshGrant(app, body);
		if (!body.grant_type) throw new OAuthError(400, 'invalid_request', 'grant_type is missing');
		throw new OAuthError(
			400,
			'unsupported_grant_type',
			`grant_type ${body.grant_type} is not supported`
		);
	}

	/** POST /oauth/revoke: either kind of token ends the whole authorization; unknown ones are fine. */
	revoke(
		body: { token?: string; client_id?: string; client_secret?: string },
		basic: { id: string; secret: string } | null
	): void {
		const app = this.authenticateClient(body, basic);
		if (!body.token) throw new OAuthError(400, 'invalid_request', 'token is missing');
		const authorization = this.tokens.authorizationOf(body.token);
		// A token of another app is not this client's to end (RFC 7009 answers 200 all the same).
		if (authorization && authorization.appId === app.id)
			this.revokeAuthorization(authorization.id, 'revoked by the app');
		this.log.oauth({ action: 'revoke', client_id: app.id, authorization_id: authorization?.id });
	}

	private authenticateClient(
		body: { client_id?: string; client_secret?: string },
		basic: { id: string; secret: string } | null
	): OAuthApp {
		const id = basic?.id ?? body.client_id;
		const secret = basic?.secret ?? body.client_secret;
		const app = id ? this.apps.get(id) : undefined;
		if (!app) throw new OAuthError(401, 'invalid_client', 'unknown client');
		if (basic && body.client_id !== undefined && body.client_id !== basic.id)
			throw new OAuthError(401, 'invalid_client', 'client_id does not match the credentials');
		if (app.secretHash !== null) {
			if (secret === undefined || !sameHash(hash(secret), app.secretHash))
				throw new OAuthError(401, 'invalid_client', 'client authentication failed');
		}
		return app;
	}

	private exchangeCode(app: OAuthApp, body: TokenBody): TokenResponse {
		if (!body.code) throw new OAuthError(400, 'invalid_request', 'code is missing');
		const record = this.codes.get(hash(body.code));
		const fail = (description: string) => {
			this.log.oauth({ action: 'code_rejected', client_id: app.id, reason: description });
			return new OAuthError(400, 'invalid_grant', description);
		};
		if (!record || record.appId !== app.id) throw fail('the authorization code is not valid');
		if (record.used) {
			// RFC 6749 4.1.2: a code presented twice ends what it produced.
			if (record.authorizationId)
				this.revokeAuthorization(record.authorizationId, 'authorization code reused');
			throw fail('the authorization code was already used');
		}
		record.used = true;
		if (record.expiresAt < this.now()) throw fail('the authorization code has expired');
		if (record.redirectUriGiven || body.redirect_uri !== undefined) {
			if (body.redirect_uri !== record.redirectUri)
				throw fail('redirect_uri does not match the authorization request');
		}
		if (record.challenge !== undefined) {
			if (!body.code_verifier || !PKCE_VERIFIER.test(body.code_verifier))
				throw fail('PKCE verification failed: code_verifier is missing or malformed');
			const computed = createHash('sha256').update(body.code_verifier).digest('base64url');
			if (computed !== record.challenge)
				throw fail('PKCE verification failed: code_verifier does not match code_challenge');
		} else if (body.code_verifier !== undefined)
			throw fail('PKCE verification failed: no code_challenge was sent with the authorization');
		const { authorization, tokens } = this.tokens.create(app.id, record.scopes, record.tenantId);
		record.authorizationId = authorization.id;
		return tokens;
	}

	/** Forgets authorize requests and codes past their lifetime. */
	private sweep(): void {
		const now = this.now();
		for (const [k, r] of this.pending) if (r.expiresAt < now) this.pending.delete(k);
		for (const [k, c] of this.codes)
			if (c.expiresAt < now && !c.authorizationId) this.codes.delete(k);
	}
}

/** Adds query parameters to a redirect URI that may already carry some. */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
	const u = new URL(uri);
	for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
	return u.toString();
}
