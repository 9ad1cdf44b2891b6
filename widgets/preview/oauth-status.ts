// GET /oauth/status as the preview reads it (src/server/oauth-routes.ts emits it): parsed leniently.
// Only methods the browser bundle's zod offers (src/client/zod-browser.ts) are used here.
import { z } from 'zod';

export const OAuthStatus = z.looseObject({
	state: z.enum(['disconnected', 'connected', 'revoked']),
	tenant: z.string().nullable().optional(),
	scopes: z.array(z.string()).optional(),
	/** Why the connection ended, when it did. */
	reason: z.string().nullable().optional(),
	/** 'oauth', 'api_key' (a configured key is used until Connect) or 'none'. */
	using: z.string().optional(),
	last_error: z.looseObject({ code: z.string(), message: z.string() }).nullable().optional()
});
export type OAuthStatus = z.infer<typeof OAuthStatus>;
