// The token side of the simulated OAuth server: authorizations, `tpat_` access tokens and rotating
// refresh tokens with reuse detection (docs/oauth.md: refresh rules and revocation).
// Only SHA-256 hashes of tokens are kept. oauth.ts (apps, consent, codes) issues through this.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Scope } from '../contract/index.ts';
import type { ApiKey } from './auth.ts';
import type { SimLog } from './log.ts';
import { randomHex, randomToken } from './model/ids.ts';
import type { OAuthErrorCode, TokenBody, TokenResponse } from './oauth-shapes.ts';

export const ACCESS_TOKEN_TTL_S = 3600;

export const hash = (value: string) => createHash('sha256').update(value).digest('hex');
export const sameHash = (a: string, b: string) =>
	a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** An error answered at the token or revocation endpoint (`error`, `error_description`). */
export class OAuthError extends Error {
	constructor(
		readonly status: 400 | 401,
		readonly error: OAuthErrorCode,
		message: string
	) {
		super(message);
	}
	body(): { error: string; error_description: string } {
		return { error: this.error, error_description: this.message };
	}
}

export interface Authorization {
	/** `oa_` prefix. */
	id: string;
	appId: string;
	/** The streamer who approved it (the hosted demo has several); absent: the demo streamer. */
	tenantId?: string;
	scopes: Scope[];
	createdAt: number;
	revoked: null | { at: number; reason: string };
	/** Successful refreshes so far. */
	refreshes: number;
	accessHashes: Set<string>;
	refreshHashes: Set<string>;
	/** Hash of the one refresh token that still works. */
	currentRefresh: string | null;
}

export class TokenLedger {
	readonly authorizations = new Map<string, Authorization>();
	private readonly access = new Map<string, { authorizationId: string; expiresAt: number }>();
	private readonly refresh = new Map<string, string>();
	private nextSweep = 0;
	/** Access-token lifetime in seconds; tests shorten it to accelerate expiry. */
	accessTtlS = ACCESS_TOKEN_TTL_S;
	/** Called when an authorization ends, so that live realtime sockets can be closed. */
	onRevoke: (authorizationId: string) => void = () => {};

	constructor(
		private readonly log: SimLog,
		private readonly appName: (appId: string) => string | undefined,
		private readonly now: () => number
	) {}

	/** A new authorization of an app; one live session per app per streamer replaces the previous. */
	create(
		appId: string,
		scopes: Scope[],
		tenantId?: string
	): { authorization: Authorization; tokens: TokenResponse } {
		for (const a of this.authorizations.values())
			if (a.appId === appId && a.tenantId === tenantId && !a.revoked)
				this.revokeAuthorization(a.id, 'replaced by a new authorization');
		const authorization: Authorization = {
			id: `oa_${randomHex(16)}`,
			appId,
			tenantId,
			scopes,
			createdAt: this.now(),
			revoked: null,
			refreshes: 0,
			accessHashes: new Set(),
			refreshHashes: new Set(),
			currentRefresh: null
		};
		this.authorizations.set(authorization.id, authorization);
		this.log.oauth({
			action: 'authorization_code',
			client_id: appId,
			authorization_id: authorization.id
		});
		return { authorization, tokens: this.issue(authorization) };
	}

	/**
	 * Live access tokens expire within `seconds` at the latest (a bench shortening lifetimes mid-run:
	 * the tokens its clients hold must run out too, not only those issued later). `spread`: each at
	 * a random moment of those seconds, as if issued at a random moment of a `seconds` lifetime (the
	 * steady state of short tokens); else all at the same instant (a mass revocation).
	 */
	expireAccessWithin(seconds: number, spread = false): void {
		const now = this.now();
		for (const record of this.access.values()) {
			const latest = now + seconds * 1000 * (spread ? Math.random() : 1);
			record.expiresAt = Math.min(record.expiresAt, latest);
		}
	}

	/** The authorization a token (access or refresh) belongs to, if any. */
	authorizationOf(token: string): Authorization | undefined {
		const h = hash(token);
		const id = this.refresh.get(h) ?? this.access.get(h)?.authorizationId;
		return id ? this.authorizations.get(id) : undefined;
	}

	/**
	 * The credential behind a `tpat_` bearer token: null when it is unknown, expired or revoked (401
	 * `invalid_token`). The returned key's id is the authorization id, so rate limits apply per
	 * authorization and the realtime socket lives while the authorization lives.
	 */
	accessKey(token: string): ApiKey | null {
		const record = this.access.get(hash(token));
		if (!record || record.expiresAt <= this.now()) return null;
		return this.authorizationKey(record.authorizationId) ?? null;
	}

	/** A live authorization as a credential (handoff tokens minted with an access token use it). */
	authorizationKey(authorizationId: string): ApiKey | undefined {
		const a = this.authorizations.get(authorizationId);
		if (!a || a.revoked) return undefined;
		const name = this.appName(a.appId);
		if (name === undefined) return undefined;
		return {
			id: a.id,
			name,
			value: '',
			scopes: a.scopes,
			oauth: { clientId: a.appId, appName: name, authorizationId: a.id },
			...(a.tenantId ? { tenantId: a.tenantId } : {})
		};
	}

	/** Ends an authorization: every access and refresh token dies, live sockets close. */
	revokeAuthorization(authorizationId: string, reason: string): boolean {
		const a = this.authorizations.get(authorizationId);
		if (!a || a.revoked) return false;
		a.revoked = { at: this.now(), reason };
		for (const h of a.accessHashes) this.access.delete(h);
		a.currentRefresh = null;
		this.log.oauth({ action: 'revoked', client_id: a.appId, authorization_id: a.id, reason });
		this.onRevoke(a.id);
		return true;
	}

	/** grant_type=refresh_token for an authenticated app. */
	refreshGrant(app: { id: string }, body: TokenBody): TokenResponse {
		if (!body.refresh_token)
			throw new OAuthError(400, 'invalid_request', 'refresh_token is missing');
		const h = hash(body.refresh_token);
		const a = this.authorizations.get(this.refresh.get(h) ?? '');
		if (!a || a.appId !== app.id) {
			this.log.oauth({ action: 'refresh_rejected', client_id: app.id, reason: 'unknown' });
			throw new OAuthError(400, 'invalid_grant', 'the refresh token is not valid');
		}
		if (a.revoked) {
			this.log.oauth({
				action: 'refresh_rejected',
				client_id: app.id,
				authorization_id: a.id,
				reason: 'revoked'
			});
			throw new OAuthError(400, 'invalid_grant', 'the authorization was revoked: reconnect');
		}
		if (a.currentRefresh === null || !sameHash(h, a.currentRefresh)) {
			// A rotated-out refresh token presented again: the whole authorization ends.
			this.log.oauth({ action: 'reuse_detected', client_id: app.id, authorization_id: a.id });
			this.revokeAuthorization(a.id, 'a rotated-out refresh token was presented again');
			throw new OAuthError(
				400,
				'invalid_grant',
				'the refresh token was already used; the authorization is revoked: reconnect'
			);
		}
		if (body.scope !== undefined) {
			const asked = body.scope.trim().split(/\s+/).filter(Boolean);
			const extra = asked.filter((s) => !(a.scopes as string[]).includes(s));
			if (extra.length)
				throw new OAuthError(400, 'invalid_scope', `not granted: ${extra.join(' ')}`);
		}
		a.refreshes += 1;
		this.log.oauth({ action: 'refresh_token', client_id: app.id, authorization_id: a.id });
		return this.issue(a);
	}

	private issue(a: Authorization): TokenResponse {
		this.sweep();
		const access = `tpat_${randomToken(24)}`;
		const refresh = `tprt_${randomToken(32)}`;
		const accessHash = hash(access);
		const refreshHash = hash(refresh);
		this.access.set(accessHash, {
			authorizationId: a.id,
			expiresAt: this.now() + this.accessTtlS * 1000
		});
		a.accessHashes.add(accessHash);
		// The old refresh token dies at once but stays known, so that its reuse is detected.
		a.refreshHashes.add(refreshHash);
		a.currentRefresh = refreshHash;
		this.refresh.set(refreshHash, a.id);
		return {
			access_token: access,
			token_type: 'Bearer',
			expires_in: Math.max(1, Math.round(this.accessTtlS)),
			refresh_token: refresh,
			scope: a.scopes.join(' ')
		};
	}

	/**
	 * Forgets expired access tokens, at most once a second: an expired one is refused anyway
	 * (accessKey), and a scan per token issued cost a busy simulator (a refresh storm) a twentieth
	 * of its CPU.
	 */
	private sweep(): void {
		const now = this.now();
		if (now < this.nextSweep) return;
		this.nextSweep = now + 1000;
		for (const [k, t] of this.access)
			if (t.expiresAt <= now) {
				this.access.delete(k);
				this.authorizations.get(t.authorizationId)?.accessHashes.delete(k);
			}
	}
}
