// How the stored grant (oauth-store.ts) changes over a connection's life, as pure functions: made
// by a code exchange, rotated by a refresh, journaled before one, ended (revoked). And when an access
// token is refreshed. The rules behind them (never present a refresh token twice) are in
// oauth-store.ts; oauth-tokens.ts decides when each happens and writes the result.
import type * as oauth from 'oauth4webapi';
import type { AccessToken, StoredGrant } from './oauth-store.ts';

/** The OAuth server and app a grant belongs to. */
export interface GrantOwner {
	issuer: string;
	clientId: string;
}

const at = (now: number) => new Date(now).toISOString();

/** A grant of another upstream or app is no use here (and never sent to the wrong server). */
export function ownedBy(grant: StoredGrant, owner: GrantOwner): boolean {
	return grant.issuer === owner.issuer && grant.client_id === owner.clientId;
}

/** The grant a code exchange gives. */
export function connectedGrant(
	owner: GrantOwner,
	tokens: oauth.TokenEndpointResponse,
	now: number
): StoredGrant {
	return {
		version: 1,
		issuer: owner.issuer,
		client_id: owner.clientId,
		status: 'connected',
		refresh_token: tokens.refresh_token!,
		scope: tokens.scope ?? '',
		tenant: null,
		authorization_id: null,
		reason: null,
		updated_at: at(now)
	};
}

/** Written before a refresh is sent: from then on, a crash means the token may be used up. */
export function refreshingGrant(g: StoredGrant, now: number): StoredGrant {
	return { ...g, status: 'refreshing', updated_at: at(now) };
}

/** After a refresh: the rotated token (or the same one, if the server did not rotate it). */
export function rotatedGrant(
	g: StoredGrant,
	tokens: oauth.TokenEndpointResponse,
	now: number
): StoredGrant {
	return {
		...g,
		status: 'connected',
		refresh_token: tokens.refresh_token ?? g.refresh_token,
		scope: tokens.scope ?? g.scope,
		updated_at: at(now)
	};
}

/** The connection ended: the refresh token is dropped and the reason kept for the streamer. */
export function revokedGrant(
	g: StoredGrant | null,
	owner: GrantOwner,
	reason: string,
	now: number
): StoredGrant {
	return {
		...(g ?? {
			version: 1,
			issuer: owner.issuer,
			client_id: owner.clientId,
			scope: '',
			tenant: null,
			authorization_id: null
		}),
		status: 'revoked',
		refresh_token: null,
		reason,
		updated_at: at(now)
	};
}

/**
 * The access token a token response gives. Refreshed ahead of expiry: a quarter of the lifetime
 * early, at most a minute; counted from before the request, so that the upstream's clock is never
 * behind ours.
 */
export function accessFrom(tokens: oauth.TokenEndpointResponse, startedAt: number): AccessToken {
	const lifetimeMs = (tokens.expires_in ?? 3600) * 1000;
	const margin = Math.min(60_000, lifetimeMs / 4);
	return {
		token: tokens.access_token,
		refreshAt: startedAt + lifetimeMs - margin,
		expiresAt: startedAt + lifetimeMs
	};
}
