// How the token endpoint reaches the upstream's OAuth server with oauth4webapi: discovery (RFC 8414,
// with the documented endpoints as the fallback: docs/oauth.md), request options and error wording.
import * as oauth from 'oauth4webapi';
import { OAuthProblem } from './oauth-errors.ts';
import type { Fetch } from './upstream.ts';

export const REQUEST_TIMEOUT_MS = 30_000;

/** oauth4webapi's options for every request: plain http only where the issuer is (loopback). */
export function httpOptions(issuer: string, customFetch?: Fetch) {
	return {
		[oauth.allowInsecureRequests]: new URL(issuer).protocol === 'http:',
		...(customFetch ? { [oauth.customFetch]: customFetch } : {}),
		signal: () => AbortSignal.timeout(REQUEST_TIMEOUT_MS)
	};
}

/** The server's metadata; without usable metadata, the documented `{oauth_url}/oauth/...` paths. */
export async function discover(
	issuer: string,
	customFetch?: Fetch
): Promise<oauth.AuthorizationServer> {
	const id = new URL(issuer);
	try {
		const res = await oauth.discoveryRequest(id, {
			algorithm: 'oauth2',
			...httpOptions(issuer, customFetch)
		});
		return await oauth.processDiscoveryResponse(id, res);
	} catch (err) {
		if (errorIsNetwork(err))
			throw new OAuthProblem(
				'upstream_unreachable',
				`the OAuth server at ${issuer} could not be reached (${describe(err)})`
			);
		console.warn(
			`[oauth] no usable metadata at ${issuer} (${describe(err)}); using the documented endpoints`
		);
		return {
			issuer: id.href,
			authorization_endpoint: `${issuer}/oauth/authorize`,
			token_endpoint: `${issuer}/oauth/token`,
			revocation_endpoint: `${issuer}/oauth/revoke`
		};
	}
}

/** A fetch that failed before any answer (not a bad answer). */
export function errorIsNetwork(err: unknown): boolean {
	return err instanceof TypeError && !(err instanceof oauth.OperationProcessingError);
}

export function describe(err: unknown): string {
	if (err instanceof oauth.ResponseBodyError)
		return `${err.error}${err.error_description ? `: ${err.error_description}` : ''}`;
	return err instanceof Error ? err.message : String(err);
}

/**
 * One discovery shared by every caller of the returned function (a hosted instance's streamers, its
 * sign-ins), made on first use and kept; after a failure (the server unreachable) the next call
 * tries again instead of repeating the failure until a restart.
 */
export function discoveryOnce(
	issuer: string,
	customFetch?: Fetch
): () => Promise<oauth.AuthorizationServer> {
	let found: Promise<oauth.AuthorizationServer> | null = null;
	return () =>
		(found ??= discover(issuer, customFetch).catch((err: unknown) => {
			found = null;
			throw err;
		}));
}
