// Error bodies (docs/upstream.md: common responses, errors and the endpoints' codes).
import { z } from 'zod/mini';

/**
 * The machine codes named by docs/upstream.md and the upstream's API. Unknown codes still parse
 * (`code` is a string).
 */
export const ERROR_CODES = [
	'bad_request',
	'message_too_long',
	'message_disallowed',
	'bad_cursor',
	'insufficient_credits',
	'invalid_command',
	'last_voice',
	'missing_api_key',
	'invalid_api_key',
	'invalid_token',
	'missing_scope',
	'viewer_not_signed_in',
	'not_found',
	'queue_paused',
	'already_playing',
	'not_in_queue',
	'not_playing',
	'ambiguous_viewer',
	'command_exists',
	'alias_in_use',
	'counter_exists',
	'bot_disabled',
	'bot_unavailable',
	'gateway_unavailable'
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** `error` (human message) and usually `code`. */
export const ApiErrorBody = z.looseObject({
	error: z.string(),
	code: z.optional(z.string())
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export const UnauthorizedBody = z.looseObject({
	error: z.string(),
	code: z.literal(['missing_api_key', 'invalid_api_key', 'invalid_token'])
});

export const MissingScopeBody = z.looseObject({
	error: z.string(),
	code: z.literal('missing_scope'),
	required_scope: z.string()
});

/** 409 `already_playing` names the order that holds the slot. */
export const AlreadyPlayingBody = z.looseObject({
	error: z.string(),
	code: z.literal('already_playing'),
	current_order_id: z.string()
});

export const InsufficientCreditsBody = z.looseObject({
	error: z.string(),
	code: z.literal('insufficient_credits'),
	available: z.int()
});

/** A 429 body carries only `error`; the wait is in the RateLimit-* headers. */
export const RateLimitedBody = z.looseObject({ error: z.string() });

/** OAuth token endpoints use the standard shape. */
export const OAuthErrorBody = z.looseObject({
	error: z.string(),
	error_description: z.optional(z.string())
});
