// The token endpoint's errors and the one place that turns them into responses. A route that
// refuses a request throws an HttpError (a status, a code the pages can test, and a message in words
// for the streamer); a call whose upstream could not be reached ends in UpstreamUnavailable; both
// reach errorResponse through the app's error handler, so every JSON error has the same shape.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { UpstreamUnavailable } from './upstream.ts';

/** An expected refusal: a bad host, key, path or body, a call that is not forwarded. */
export class HttpError extends Error {
	constructor(
		readonly status: ContentfulStatusCode,
		readonly code: string,
		message: string,
		/** Headers the answer carries (Retry-After on a 429, Allow on a 405, Cache-Control). */
		readonly headers?: Record<string, string>,
		/**
		 * More fields of the body (`required_scope` of a 403 missing_scope, every sentence of a 400
		 * bad_settings).
		 */
		readonly fields?: Record<string, string | number | readonly string[]>
	) {
		super(message);
	}
}

/** The upstream could not be reached or failed (5xx): nothing known to have changed. */
export function upstreamUnavailable(): HttpError {
	return new HttpError(502, 'upstream_unavailable', 'the upstream could not be reached: try again');
}

/**
 * `{ error, code }` with the error's status; anything unexpected is logged and answered 500. An
 * unreachable upstream is `upstream_unavailable` on /control (the dock tells "try again" from a
 * refusal by it, src/contract/control.ts) and `upstream_unreachable` elsewhere (the widgets').
 */
export function errorResponse(c: Context, err: unknown): Response {
	if (err instanceof UpstreamUnavailable && c.req.path.startsWith('/control/'))
		return errorResponse(c, upstreamUnavailable());
	if (err instanceof HttpError)
		return c.json({ ...err.fields, error: err.message, code: err.code }, err.status, err.headers);
	if (err instanceof UpstreamUnavailable)
		return c.json(
			{ error: 'the upstream service could not be reached', code: 'upstream_unreachable' },
			502
		);
	console.error('[server] unexpected error:', err instanceof Error ? err.message : err);
	return c.json({ error: 'internal error', code: 'internal' }, 500);
}
