// Wire shapes of the simulated OAuth 2.0 server (docs/simulator.md; docs/oauth.md):
// authorize query, token and revocation bodies, the token response and the standard error body.
import { z } from 'zod';

/** RFC 7636: 43 to 128 characters of the unreserved set. */
export const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** BASE64URL (no padding) of a SHA-256 digest: always 43 characters. */
export const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Query of GET /oauth/authorize; every field optional here, the server names what is missing. */
export const AuthorizeQuery = z.object({
	response_type: z.string().optional(),
	client_id: z.string().optional(),
	redirect_uri: z.string().optional(),
	scope: z.string().optional(),
	state: z.string().max(2048).optional(),
	code_challenge: z.string().optional(),
	code_challenge_method: z.string().optional()
});
export type AuthorizeQuery = z.infer<typeof AuthorizeQuery>;

/** The consent page's form: which pending request, and which button was pressed. */
export const DecisionForm = z.object({
	request_id: z.string().min(1).max(200),
	decision: z.enum(['approve', 'deny']),
	/** The demo streamer signing in (a simulator with several accounts asks). */
	tenant: z.string().max(100).optional()
});

/** Client authentication in the body (client_secret_post), or a public client's id. */
const ClientFields = {
	client_id: z.string().optional(),
	client_secret: z.string().optional()
};

/** POST /oauth/token (form or JSON); fields checked per grant type by the server. */
export const TokenBody = z.object({
	grant_type: z.string().optional(),
	code: z.string().optional(),
	redirect_uri: z.string().optional(),
	code_verifier: z.string().optional(),
	refresh_token: z.string().optional(),
	scope: z.string().optional(),
	...ClientFields
});
export type TokenBody = z.infer<typeof TokenBody>;

export const RevokeBody = z.object({
	token: z.string().optional(),
	token_type_hint: z.string().optional(),
	...ClientFields
});
export type RevokeBody = z.infer<typeof RevokeBody>;

/**
 * The upstream's token answer: `access_token`, `token_type`, `expires_in`, `refresh_token`,
 * `scope`.
 */
export const TokenResponse = z.object({
	access_token: z.string().startsWith('tpat_'),
	token_type: z.literal('Bearer'),
	expires_in: z.number().int().positive(),
	refresh_token: z.string(),
	scope: z.string()
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** Token and revocation errors use the standard shape `error` and `error_description`. */
export const OAUTH_ERRORS = [
	'invalid_request',
	'invalid_client',
	'invalid_grant',
	'unauthorized_client',
	'unsupported_grant_type',
	'invalid_scope',
	'access_denied',
	'unsupported_response_type'
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERRORS)[number];
