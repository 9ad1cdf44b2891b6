// The token endpoint as a web-standard Request -> Response app (Hono). It holds the upstream key via
// UpstreamClient, mints realtime handoff tokens for pages, forwards the contract's allowlist of
// calls, and serves the built pages. Only node.ts touches node:http.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { HandoffToken, Me, matchRoute, OVERLAY_ID, ROUTES, type Route } from '../contract/index.ts';
import { DEMO_ACTIONS, runDemoAction, type DemoAction } from './demo.ts';
import type { OAuthConnection } from './oauth-client.ts';
import { oauthRoutes } from './oauth-routes.ts';
import { FailureLimiter, hostAllowed, keyMatches, rawPathTricky } from './security.ts';
import { bodyBytes, UpstreamUnavailable, type UpstreamClient } from './upstream.ts';

/** What POST /token answers: a schema with no room for anything else (the key above all). */
export const TokenResponse = z.object({
	token: z.string(),
	ws_url: z.string(),
	expires_at: z.string()
});

export const WIDGET_PAGES = [
	'tts',
	'media',
	'tip-goal',
	'counters',
	'celebration',
	'recent',
	'leaderboard'
] as const;

export interface AppOptions {
	mode: 'live' | 'demo';
	upstream: UpstreamClient;
	overlayKey: string;
	allowedHosts?: readonly string[];
	/** The built page's HTML, or null when the build does not contain it. */
	readPage: (name: string) => Promise<string | null>;
	/** Serves built static files (assets, demo videos); absent in tests. */
	staticFiles?: MiddlewareHandler;
	/** Client address for rate-limiting failed key attempts. */
	clientAddress?: (c: Context) => string;
	/** The raw request target before URL normalisation, when the runtime has it. */
	rawTarget?: (c: Context) => string | undefined;
	failures?: FailureLimiter;
	/** Demo mode: the embedded simulator's origin, for its demo and fault controls. */
	simulatorOrigin?: string;
	/**
	 * Hosted mode: the overlay key names the streamer, whose upstream client serves the request
	 * (`upstream` and `overlayKey` above are then unused for /token and /api). `replaced`: a key
	 * the streamer replaced or turned off.
	 */
	resolveKey?: (key: string) => Promise<{ upstream: UpstreamClient } | { replaced: true } | null>;
	/** Hosted mode's own pages and actions (hosted/routes.ts), ahead of the widget routes. */
	routes?: Hono;
	/** Hosted mode: what /healthz reports instead of the one upstream's reachability. */
	health?: () => Promise<Record<string, unknown>>;
	/** Connect with OAuth (oauth-routes.ts); hasApiKey: a key is used while not connected. */
	oauth?: { connection: OAuthConnection; hasApiKey: boolean };
}

const utf8 = new TextDecoder();
const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'];
const MAX_BODY = 16 * 1024;

const PAGE_HEADERS = {
	'Content-Type': 'text/html; charset=utf-8',
	'Cache-Control': 'no-store',
	// The page URL carries the overlay key: send only the origin to other sites (YouTube needs one).
	'Referrer-Policy': 'strict-origin-when-cross-origin',
	'X-Content-Type-Options': 'nosniff',
	'Content-Security-Policy': [
		"default-src 'self'",
		"script-src 'self' https://www.youtube.com https://s.ytimg.com",
		"style-src 'self' 'unsafe-inline'",
		'img-src * data: blob:',
		'media-src * data: blob:',
		"connect-src 'self' ws: wss: http: https:",
		"frame-src 'self' https://www.youtube.com https://www.youtube-nocookie.com",
		"object-src 'none'",
		"base-uri 'none'"
	].join('; ')
};

export function createApp(opts: AppOptions): Hono {
	const app = new Hono();
	/** Hosted: the upstream client of each request's streamer (set by requireKey). */
	const streamerUpstream = new WeakMap<Request, UpstreamClient>();
	const upstreamOf = (c: Context) => streamerUpstream.get(c.req.raw) ?? opts.upstream;
	const failures = opts.failures ?? new FailureLimiter();
	const client = (c: Context) => opts.clientAddress?.(c) ?? 'local';
	const error = (c: Context, status: number, code: string, message: string) =>
		c.json({ error: message, code }, status as 400);

	app.use('*', async (c, next) => {
		if (!hostAllowed(c.req.header('host'), opts.allowedHosts ?? []))
			return error(c, 421, 'bad_host', 'this server does not answer to that host name');
		const raw = opts.rawTarget?.(c);
		if (raw !== undefined && rawPathTricky(raw))
			return error(c, 400, 'bad_path', 'dot segments and encoded separators are not accepted');
		await next();
	});

	// A body above the limit is refused before it is read in full (Content-Length, or counted as
	// it streams in).
	const tooLarge = (c: Context) => error(c, 413, 'too_large', 'request body too large');
	const streamLimit = bodyLimit({ maxSize: MAX_BODY, onError: tooLarge });
	// bodyLimit starts by asking for the request's body stream, which makes the Node adapter build a
	// whole Request object (and its AbortController) per call: a GET or HEAD has no body there, and
	// a declared Content-Length is decided from the headers, as bodyLimit itself would decide it.
	const limit: MiddlewareHandler = async (c, next) => {
		if (hasNoBody(c)) return next();
		const length = c.req.header('content-length');
		if (length !== undefined && c.req.header('transfer-encoding') === undefined)
			return parseInt(length, 10) > MAX_BODY ? tooLarge(c) : next();
		return streamLimit(c, next);
	};
	app.use('/token', limit);
	app.use('/api/*', limit);

	/** The overlay key: header only, constant time, failures rate-limited per client. */
	const requireKey: MiddlewareHandler = async (c, next) => {
		const who = client(c);
		const wait = failures.blocked(who);
		if (wait !== null) {
			c.header('Retry-After', String(wait));
			return error(c, 429, 'too_many_attempts', 'too many wrong overlay keys; wait a minute');
		}
		const key = c.req.header('x-overlay-key');
		if (opts.resolveKey) {
			const found = key ? await opts.resolveKey(key) : null;
			if (found && 'replaced' in found)
				return error(
					c,
					401,
					'overlay_key_replaced',
					'this overlay URL was replaced by a newer one: copy the new URL from your dashboard into OBS'
				);
			if (!found) {
				failures.fail(who);
				return error(
					c,
					401,
					'bad_overlay_key',
					'missing or wrong overlay key (the ?key= of the URL)'
				);
			}
			streamerUpstream.set(c.req.raw, found.upstream);
		} else if (!keyMatches(key, opts.overlayKey)) {
			failures.fail(who);
			return error(
				c,
				401,
				'bad_overlay_key',
				'missing or wrong overlay key (the ?key= of the URL)'
			);
		}
		await next();
	};

	if (opts.routes) app.route('/', opts.routes);

	let health: { at: number; reachable: boolean } | null = null;
	app.get('/healthz', async (c) => {
		if (opts.health) {
			const body = await opts.health();
			return c.json(body, body.ok === false ? 503 : 200, { 'Cache-Control': 'no-store' });
		}
		if (!health || Date.now() - health.at > 15_000) {
			let reachable = false;
			try {
				const res = await opts.upstream.call('GET', '/me');
				reachable = res.ok && Me.safeParse(await res.json()).success;
			} catch {
				reachable = false;
			}
			health = { at: Date.now(), reachable };
		}
		return c.json({
			ok: true,
			mode: opts.mode,
			upstream: { reachable: health.reachable },
			...(opts.mode === 'demo' && opts.simulatorOrigin ? { simulator: opts.simulatorOrigin } : {})
		});
	});

	app.post('/token', requireKey, async (c) => {
		if (await hasBody(c)) return unexpectedBody(c);
		let res: Response;
		try {
			res = await upstreamOf(c).call('POST', ROUTES.realtimeToken.path);
		} catch (err) {
			if (err instanceof UpstreamUnavailable) return unreachable(c);
			throw err;
		}
		if (!res.ok) {
			try {
				return await passThrough(c, res);
			} catch (err) {
				if (err instanceof UpstreamUnavailable) return unreachable(c);
				throw err;
			}
		}
		// The bytes keepAliveFetch holds (Response.json() would stream them through undici again).
		const minted = HandoffToken.safeParse(
			await bodyBytes(res)
				.then((b) => JSON.parse(utf8.decode(b)) as unknown)
				.catch(() => null)
		);
		if (!minted.success)
			return error(c, 502, 'bad_upstream_answer', 'the upstream answered with no handoff token');
		return c.json(
			TokenResponse.parse({
				token: minted.data.token,
				ws_url: upstreamOf(c).wsUrl,
				expires_at: minted.data.expires_at
			}),
			200,
			{ 'Cache-Control': 'no-store' }
		);
	});

	app.all('/api/*', requireKey, async (c) => {
		const url = new URL(c.req.url);
		const path = url.pathname.slice('/api'.length);
		const match = matchRoute(c.req.method, path);
		if (!match || !match.route.proxied) {
			const otherMethod = allowedMethods(path);
			if (otherMethod.length) {
				c.header('Allow', otherMethod.join(', '));
				return error(
					c,
					405,
					'method_not_allowed',
					`${c.req.method} is not forwarded for this path`
				);
			}
			return error(c, 404, 'not_forwarded', 'this call is not forwarded to the upstream');
		}
		// Only a route with a query schema forwards a query, and only what that schema lets through.
		let query = '';
		if (match.route.query && url.search) {
			const parsed = match.route.query.safeParse(Object.fromEntries(url.searchParams));
			if (!parsed.success) return error(c, 400, 'bad_request', 'invalid query');
			const kept = new URLSearchParams();
			// The query schemas are loose (parse leniently): forward only the keys they declare.
			const declared = (match.route.query as { shape?: Record<string, unknown> }).shape ?? {};
			for (const [k, v] of Object.entries(parsed.data as Record<string, unknown>))
				if (k in declared && v !== undefined) kept.set(k, String(v));
			query = kept.size ? '?' + kept.toString() : '';
		}
		let body: string | undefined;
		if (match.route.request) {
			const text = await c.req.text();
			if (text.length > MAX_BODY) return error(c, 413, 'too_large', 'request body too large');
			const parsed = match.route.request.safeParse(safeJson(text));
			if (!parsed.success) return error(c, 400, 'bad_request', 'invalid request body');
			body = JSON.stringify(parsed.data);
		} else if (await hasBody(c)) return unexpectedBody(c);
		try {
			return await passThrough(c, await upstreamOf(c).call(match.route.method, path + query, body));
		} catch (err) {
			if (err instanceof UpstreamUnavailable) return unreachable(c);
			throw err;
		}
	});

	let demoCount = 0;
	app.post('/demo/:action', requireKey, async (c) => {
		const action = c.req.param('action');
		if (!(DEMO_ACTIONS as readonly string[]).includes(action))
			return error(c, 404, 'not_found', 'no such demo action');
		try {
			return await runDemoAction(action as DemoAction, {
				mode: opts.mode,
				simulatorOrigin: opts.simulatorOrigin,
				upstream: upstreamOf(c),
				n: demoCount++,
				perStreamer: opts.resolveKey !== undefined
			});
		} catch (err) {
			if (err instanceof UpstreamUnavailable) return unreachable(c);
			throw err;
		}
	});

	if (opts.oauth)
		app.route('/oauth', oauthRoutes({ ...opts.oauth, overlayKey: opts.overlayKey, requireKey }));

	app.get('/widget/:type', async (c) => {
		const type = c.req.param('type');
		if (!(WIDGET_PAGES as readonly string[]).includes(type)) return notFoundPage(c);
		return page(c, `widget-${type}`);
	});
	// The page reads its id from the URL: an id that cannot exist is refused here, not in the page.
	app.get('/overlay/:overlayId', (c) =>
		OVERLAY_ID.test(c.req.param('overlayId')) ? page(c, 'overlay') : notFoundPage(c)
	);
	app.get('/preview', (c) => page(c, 'preview'));
	app.get('/', (c) => page(c, 'index'));
	if (opts.staticFiles) app.use('*', opts.staticFiles);

	app.notFound((c) => error(c, 404, 'not_found', 'not found'));
	app.onError((err, c) => {
		console.error('[server] unexpected error:', err instanceof Error ? err.message : err);
		return error(c, 500, 'internal', 'internal error');
	});

	async function page(c: Context, name: string): Promise<Response> {
		const html = await opts.readPage(name);
		if (html === null) return notFoundPage(c);
		return c.body(html, 200, PAGE_HEADERS);
	}

	function notFoundPage(c: Context): Response {
		return c.html(
			'<!doctype html><meta charset="utf-8"><title>Not found</title><p>This page is not part of this build.</p>',
			404
		);
	}
	return app;
}

function allowedMethods(path: string): string[] {
	const methods = new Set<string>();
	for (const r of Object.values(ROUTES) as Route[]) {
		if (!r.proxied) continue;
		if (matchRoute(r.method, path)?.route === r) methods.add(r.method);
	}
	return [...methods];
}

function safeJson(text: string): unknown {
	try {
		return text.trim() === '' ? {} : JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** GET and HEAD requests reach the app without a body (a Request cannot carry one). */
function hasNoBody(c: Context): boolean {
	return c.req.method === 'GET' || c.req.method === 'HEAD';
}

/**
 * Whether a request carries a body. `Content-Length: 0` (what browsers send with a bodyless POST)
 * is decided from the headers: reading the body would make the Node adapter build a whole Request
 * (streams, an AbortController) for every POST /token.
 */
async function hasBody(c: Context): Promise<boolean> {
	if (hasNoBody(c)) return false;
	if (c.req.header('content-length') === '0' && c.req.header('transfer-encoding') === undefined)
		return false;
	return (await c.req.text()) !== '';
}

/** None of the calls the pages make has a body: one that comes is refused, not dropped. */
function unexpectedBody(c: Context): Response {
	return c.json({ error: 'this call takes no request body', code: 'unexpected_body' }, 400);
}

function unreachable(c: Context): Response {
	return c.json(
		{ error: 'the upstream service could not be reached', code: 'upstream_unreachable' },
		502
	);
}

/**
 * Upstream status, body and RateLimit-* headers; nothing else (no cookies, no upstream CORS). A body
 * that cannot be read (the upstream went away, the call's timeout) is a failed call. The bytes and a
 * plain header object are what the Node adapter writes out directly, with Content-Length; other
 * bodies (an ArrayBuffer, a stream) cost it a Response object and a stream reader per call.
 */
async function passThrough(c: Context, res: Response): Promise<Response> {
	const headers: Record<string, string> = {
		'content-type': res.headers.get('content-type') ?? 'application/json',
		'cache-control': 'no-store'
	};
	for (const h of RATE_HEADERS) {
		const v = res.headers.get(h);
		if (v !== null) headers[h] = v;
	}
	let body: Uint8Array<ArrayBuffer> | null = null;
	if (res.status !== 204) {
		try {
			body = await bodyBytes(res);
		} catch (err) {
			throw new UpstreamUnavailable(err instanceof Error ? err.message : String(err));
		}
	}
	return new Response(body, { status: res.status, headers });
}
