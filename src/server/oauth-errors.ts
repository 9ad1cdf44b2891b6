// What can go wrong with the OAuth connection, in words for the streamer, and the one rule that
// matters most: after a failed refresh, may the refresh token already have been rotated upstream?
// If so it must never be presented again (that would revoke the connection), and the connection
// ends in "reconnect".
import * as oauth from 'oauth4webapi';

export type ProblemCode =
	| 'not_connected'
	| 'oauth_revoked'
	| 'upstream_unreachable'
	| 'oauth_refresh_refused'
	| 'access_denied'
	| 'authorization_failed'
	| 'bad_state'
	| 'token_exchange_failed'
	| 'discovery_failed'
	| 'redirect_refused'
	| 'store_unreadable';

export class OAuthProblem extends Error {
	constructor(
		readonly code: ProblemCode,
		message: string
	) {
		super(message);
	}
	toJSON(now = Date.now()): { code: ProblemCode; message: string; at: string } {
		return { code: this.code, message: this.message, at: new Date(now).toISOString() };
	}
}

/** Network errors that happen before a request is sent: the token was not presented. */
const NOT_SENT = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'UND_ERR_CONNECT_TIMEOUT'
]);

export function refreshFailure(
	err: unknown,
	status: number | null
): { rotatedMaybe: boolean; problem: OAuthProblem } {
	if (status === null) {
		const code = errorCode(err);
		if (code && NOT_SENT.has(code))
			return {
				rotatedMaybe: false,
				problem: new OAuthProblem(
					'upstream_unreachable',
					`the OAuth server could not be reached (${code})`
				)
			};
		// The request may have arrived and rotated the token; its answer is lost.
		return {
			rotatedMaybe: true,
			problem: new OAuthProblem(
				'oauth_revoked',
				`the answer to a token refresh was lost (${code ?? (err instanceof Error ? err.message : String(err))}); the old token may be used up, so it is not sent again: reconnect`
			)
		};
	}
	if (status === 200)
		return {
			rotatedMaybe: true,
			problem: new OAuthProblem(
				'oauth_revoked',
				`the upstream's answer to a token refresh could not be read (${err instanceof Error ? err.message : err}): reconnect`
			)
		};
	if (err instanceof oauth.ResponseBodyError && err.error === 'invalid_grant')
		return {
			rotatedMaybe: true,
			problem: new OAuthProblem(
				'oauth_revoked',
				`the upstream ended the connection (${err.error_description ?? 'invalid_grant'}): reconnect`
			)
		};
	if (status === 401 || (err instanceof oauth.ResponseBodyError && status < 500 && status !== 429))
		return {
			rotatedMaybe: false,
			problem: new OAuthProblem(
				'oauth_refresh_refused',
				status === 401
					? 'the upstream refused this app’s credentials (invalid_client): check OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET'
					: `the upstream refused the token refresh (${(err as oauth.ResponseBodyError).error})`
			)
		};
	return {
		rotatedMaybe: false,
		problem: new OAuthProblem(
			'upstream_unreachable',
			`the OAuth server answered ${status}; trying again later`
		)
	};
}

function errorCode(err: unknown): string | undefined {
	const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
	const code = e?.cause?.code ?? e?.code;
	return typeof code === 'string' ? code : undefined;
}
