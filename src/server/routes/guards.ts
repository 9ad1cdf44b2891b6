// Checks every request passes before a route sees it: the Host header and the raw path (security.ts
// says why), and the size of a body sent to /token or /api (each /control route limits its own
// with limitBody); and no cache keeps the answers that carry a token or a streamer's state. Also
// how a route tells whether a request carries a body without making the Node adapter build a whole
// Request for it.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_BODY } from '../../contract/control-bodies.ts';
import type { AppOptions } from '../app-options.ts';
import { HttpError } from '../http-error.ts';
import { hostAllowed, rawPathTricky } from '../security.ts';

export const tooLarge = () => new HttpError(413, 'too_large', 'request body too large');

/** The routes whose answers (refusals too) carry a token, a key or a streamer's state. */
const NOT_CACHED = ['/token', '/api/*', '/settings', '/control/*', '/oauth/*', '/healthz'];

export function guardRequests(app: Hono, opts: Pick<AppOptions, 'allowedHosts' | 'rawTarget'>) {
	app.use('*', async (c, next) => {
		if (!hostAllowed(c.req.header('host'), opts.allowedHosts ?? []))
			throw new HttpError(421, 'bad_host', 'this server does not answer to that host name');
		const raw = opts.rawTarget?.(c);
		if (raw !== undefined && rawPathTricky(raw))
			throw new HttpError(400, 'bad_path', 'dot segments and encoded separators are not accepted');
		await next();
	});

	// Set before the route answers, so that the answer Hono builds has it from the start.
	for (const path of NOT_CACHED)
		app.use(path, (c, next) => (c.header('Cache-Control', 'no-store'), next()));
	app.use('/token', limitBody(MAX_BODY));
	app.use('/api/*', limitBody(MAX_BODY));
}

/**
 * Hono's bodyLimit, with a body above `max` answered 413 too_large before it is read in full
 * (Content-Length, or counted as it streams in). /token and /api have one limit; each /control
 * route has its own (src/contract/control.ts, `maxBody`).
 */
export function limitBody(max: number): MiddlewareHandler {
	const stream = bodyLimit({
		maxSize: max,
		onError: () => {
			throw tooLarge();
		}
	});
	// bodyLimit starts by asking for the request's body stream, which makes the Node adapter build
	// a whole Request object (and its AbortController) per call: a GET or HEAD has no body there,
	// and a declared Content-Length is decided from the headers, as bodyLimit itself would decide it.
	return async (c, next) => {
		if (hasNoBody(c)) return next();
		const length = c.req.header('content-length');
		if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
			if (parseInt(length, 10) > max) throw tooLarge();
			return next();
		}
		return stream(c, next);
	};
}

/** GET and HEAD requests reach the app without a body (a Request cannot carry one). */
function hasNoBody(c: Context): boolean {
	return c.req.method === 'GET' || c.req.method === 'HEAD';
}

/**
 * None of the calls the pages make without a request schema has a body: one that comes is refused,
 * not dropped. `Content-Length: 0` (what browsers send with a bodyless POST) is decided from the
 * headers: reading the body would make the Node adapter build a whole Request (streams, an
 * AbortController) for every POST /token.
 */
export async function refuseBody(c: Context): Promise<void> {
	if (hasNoBody(c)) return;
	if (c.req.header('content-length') === '0' && c.req.header('transfer-encoding') === undefined)
		return;
	if ((await c.req.text()) !== '')
		throw new HttpError(400, 'unexpected_body', 'this call takes no request body');
}
