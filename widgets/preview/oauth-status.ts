// GET /oauth/status as the preview reads it (src/server/oauth-routes.ts emits it): parsed leniently.
import { z } from 'zod/mini';

export const OAuthStatus = z.looseObject({
	state: z.enum(['disconnected', 'connected', 'revoked']),
	tenant: z.optional(z.nullable(z.string())),
	scopes: z.optional(z.array(z.string())),
	/** Why the connection ended, when it did. */
	reason: z.optional(z.nullable(z.string())),
	/** 'oauth', 'api_key' (a configured key is used until Connect) or 'none'. */
	using: z.optional(z.string()),
	last_error: z.optional(z.nullable(z.looseObject({ code: z.string(), message: z.string() })))
});
export type OAuthStatus = z.infer<typeof OAuthStatus>;
