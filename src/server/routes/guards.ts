// Checks every request passes before a route sees it: the Host header and the raw path (security.ts
// says why), and the size of a body sent to /token, /api or /control. Also how a route tells
// whether a request carries a body without making the Node adapter build a whole Request for it.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_SETTING_LENGTH, MAX_SETTINGS_PER_TARGET } from '../../contract/index.ts';
import type { AppOptions } from '../app-options.ts';
import { HttpError } from '../http-error.ts';
import { hostAllowed, rawPathTricky } from '../security.ts';

/** The largest request body /token, /api and /control accept. */
export const MAX_BODY = 16 * 1024;
/**
 * The moderation rules' body (PUT /control/moderation): as long as their schema lets them be (1000
 * words and 1000 names of up to 100 characters), far past MAX_BODY, which a few hundred words pass.
 */
export const RULES_MAX_BODY = 384 * 1024;
const RULES_PATH = '/control/moderation';
/**
 * A target's stored settings (PUT /control/settings/{target}): as long as their schema lets them
 * be (MAX_SETTINGS_PER_TARGET values of up to MAX_SETTING_LENGTH characters, about 420 kB), far past
 * MAX_BODY, which the TTS widget's five tiers with their image and sound URLs can pass.
 */
export const SETTINGS_MAX_BODY = MAX_SETTINGS_PER_TARGET * (MAX_SETTING_LENGTH + 64) + 1024;
const SETTINGS_PATH = /^\/control\/settings\/[^/]+$/;

export const tooLarge = () => new HttpError(413, 'too_large', 'request body too large');

export function guardRequests(app: Hono, opts: Pick<AppOptions, 'allowedHosts' | 'rawTarget'>) {
	app.use('*', async (c, next) => {
		if (!hostAllowed(c.req.header('host'), opts.allowedHosts ?? []))
			throw new HttpError(421, 'bad_host', 'this server does not answer to that host name');
		const raw = opts.rawTarget?.(c);
		if (raw !== undefined && rawPathTricky(raw))
			throw new HttpError(400, 'bad_path', 'dot segments and encoded separators are not accepted');
		await next();
	});

	// A body above the limit is refused before it is read in full (Content-Length, or counted as
	// it streams in).
	const streamLimit = (maxSize: number) =>
		bodyLimit({
			maxSize,
			onError: () => {
				throw tooLarge();
			}
		});
	const streamLimits = {
		[MAX_BODY]: streamLimit(MAX_BODY),
		[RULES_MAX_BODY]: streamLimit(RULES_MAX_BODY),
		[SETTINGS_MAX_BODY]: streamLimit(SETTINGS_MAX_BODY)
	};
	// bodyLimit starts by asking for the request's body stream, which makes the Node adapter build a
	// whole Request object (and its AbortController) per call: a GET or HEAD has no body there, and
	// a declared Content-Length is decided from the headers, as bodyLimit itself would decide it.
	const limit: MiddlewareHandler = async (c, next) => {
		if (hasNoBody(c)) return next();
		const max = bodyMax(c);
		const length = c.req.header('content-length');
		if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
			if (parseInt(length, 10) > max) throw tooLarge();
			return next();
		}
		return streamLimits[max](c, next);
	};
	app.use('/token', limit);
	app.use('/api/*', limit);
	app.use('/control/*', limit);
}

/** The largest body of this request: its route's (rules, settings), else MAX_BODY. */
function bodyMax(c: Context): number {
	if (c.req.method !== 'PUT') return MAX_BODY;
	if (c.req.path === RULES_PATH) return RULES_MAX_BODY;
	return SETTINGS_PATH.test(c.req.path) ? SETTINGS_MAX_BODY : MAX_BODY;
}

/** A JSON request body of at most `max` characters; 400 bad_request when it does not parse. */
export async function jsonBody(c: Context, max = MAX_BODY): Promise<unknown> {
	const text = await c.req.text();
	if (text.length > max) throw tooLarge();
	try {
		return JSON.parse(text);
	} catch {
		throw new HttpError(400, 'bad_request', 'expected a JSON body');
	}
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
