// Credentials of the simulated service: API keys with scopes, single-use realtime handoff tokens,
// and the per-key / per-IP rate limits (docs/upstream.md, authentication and limits).
import { SCOPES, type Scope } from '../contract/index.ts';
import { SimError } from './errors.ts';
import { randomToken } from './model/ids.ts';

/** The demo key every simulator accepts unless SIM_API_KEY says otherwise (written in README). */
export const DEMO_API_KEY = 'tpk_demo_0v3rl4yk1t_local_simulator';

export interface ApiKey {
	id: string;
	name: string;
	value: string;
	scopes: Scope[];
	/** Present when the credential is an OAuth access token (its id is the authorization id). */
	oauth?: { clientId: string; appName: string; authorizationId: string };
	/** The account the credential belongs to; absent: the first (the demo streamer). */
	tenantId?: string;
}

/** Resolves OAuth credentials (src/sim/oauth.ts) for the bearer check and the realtime socket. */
export interface OAuthCredentials {
	accessKey(token: string): ApiKey | null;
	authorizationKey(authorizationId: string): ApiKey | undefined;
}

export interface HandoffRecord {
	keyId: string;
	expiresAt: number;
}

export const HANDOFF_TTL_S = 60;

export class Credentials {
	private readonly keys = new Map<string, ApiKey>();
	private readonly handoffs = new Map<string, HandoffRecord>();
	private n = 0;
	/** Set by SimCore: `tpat_` access tokens are checked here. */
	oauth?: OAuthCredentials;

	constructor(
		private readonly now: () => number = Date.now,
		/** docs/upstream.md: a handoff token is valid 60 seconds; tests shorten it to see expiry. */
		private readonly handoffTtlS = HANDOFF_TTL_S
	) {}

	/** Adds a key; the demo key has every scope, tests add keys with fewer. */
	addKey(opts: { value?: string; name?: string; scopes?: readonly Scope[] } = {}): ApiKey {
		this.n += 1;
		const key: ApiKey = {
			id: `key_${this.n}_${randomToken(4)}`,
			name: opts.name ?? `Key ${this.n}`,
			value: opts.value ?? `tpk_${randomToken(18)}`,
			scopes: [...(opts.scopes ?? SCOPES)]
		};
		this.keys.set(key.value, key);
		return key;
	}

	/** Revoking a key makes it invalid at once (rotation in the dashboard does the same). */
	revokeKey(value: string): ApiKey | undefined {
		const key = this.keys.get(value);
		this.keys.delete(value);
		return key;
	}

	keyById(id: string): ApiKey | undefined {
		if (id.startsWith('oa_')) return this.oauth?.authorizationKey(id);
		for (const k of this.keys.values()) if (k.id === id) return k;
		return undefined;
	}

	/** `Authorization: Bearer <key>`: 401 missing_api_key or invalid_api_key. */
	authenticate(header: string | null | undefined): ApiKey {
		const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
		if (!header || !match)
			throw new SimError(401, 'missing_api_key', 'send Authorization: Bearer <API key>');
		if (match[1].startsWith('tpat_') && this.oauth) {
			const oauthKey = this.oauth.accessKey(match[1]);
			if (!oauthKey)
				throw new SimError(401, 'invalid_token', 'the access token has expired or was revoked');
			return oauthKey;
		}
		const key = this.keys.get(match[1]);
		if (!key) throw new SimError(401, 'invalid_api_key', 'the API key is not valid');
		return key;
	}

	requireScope(key: ApiKey, scope: Scope | null): void {
		if (scope !== null && !key.scopes.includes(scope))
			throw new SimError(403, 'missing_scope', `this call needs the ${scope} scope`, {
				required_scope: scope
			});
	}

	mintHandoff(key: ApiKey): { token: string; expires_at: string; expires_in: number } {
		this.sweep();
		const token = `rth_${randomToken(24)}`;
		const expiresAt = this.now() + this.handoffTtlS * 1000;
		this.handoffs.set(token, { keyId: key.id, expiresAt });
		// expires_in is a positive integer in whole seconds (docs/upstream.md shows 60).
		const expiresIn = Math.max(1, Math.ceil(this.handoffTtlS));
		return { token, expires_at: new Date(expiresAt).toISOString(), expires_in: expiresIn };
	}

	/** Single use: a token is gone once presented, valid or not. */
	redeemHandoff(token: string): ApiKey | undefined {
		const record = this.handoffs.get(token);
		this.handoffs.delete(token);
		if (!record || record.expiresAt < this.now()) return undefined;
		return this.keyById(record.keyId);
	}

	keyByValue(value: string): ApiKey | undefined {
		if (value.startsWith('tpat_')) return this.oauth?.accessKey(value) ?? undefined;
		return this.keys.get(value);
	}

	private sweep(): void {
		const now = this.now();
		for (const [t, r] of this.handoffs) if (r.expiresAt < now) this.handoffs.delete(t);
	}
}

export interface RateState {
	limit: number;
	remaining: number;
	/** Whole seconds until the window resets. */
	reset: number;
	limited: boolean;
}

/** Fixed one-minute windows per bucket (a key or an IP). */
export class RateLimiter {
	private readonly windows = new Map<string, { start: number; count: number }>();

	constructor(
		public limit: number,
		private windowMs = 60_000,
		private readonly now: () => number = Date.now
	) {}

	/** New limit and window from now on (the hosted bench's capacity ramp); open windows end. */
	configure(limit: number, windowMs = this.windowMs): void {
		this.limit = limit;
		this.windowMs = windowMs;
		this.windows.clear();
	}

	hit(bucket: string): RateState {
		const now = this.now();
		let w = this.windows.get(bucket);
		if (!w || now - w.start >= this.windowMs) {
			w = { start: now, count: 0 };
			this.windows.set(bucket, w);
		}
		w.count += 1;
		const reset = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
		return {
			limit: this.limit,
			remaining: Math.max(0, this.limit - w.count),
			reset,
			limited: w.count > this.limit
		};
	}

	reset(): void {
		this.windows.clear();
	}
}
