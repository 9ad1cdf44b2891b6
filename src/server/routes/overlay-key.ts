// The overlay key that /token, /api, /live, /settings, /demo and most of /oauth require: sent in a
// header only, compared in constant time. A right key is always served; wrong ones are slowed per
// client (security.ts FailureLimiter), and requests other sites' pages send are refused uncounted. In hosted mode the key names
// the streamer, and the request is served by that streamer's upstream client.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppOptions } from '../app-options.ts';
import { HttpError } from '../http-error.ts';
import { crossSite, FailureLimiter, keyMatches } from '../security.ts';
import type { UpstreamClient } from '../upstream.ts';

export interface OverlayKeyCheck {
	/** Middleware: refuses the request unless it carries a valid overlay key. */
	requireKey: MiddlewareHandler;
	/** The upstream client serving a request that passed requireKey. */
	upstreamOf(c: Context): UpstreamClient;
	/** Hosted: the streamer a request that passed requireKey is for; single mode: null. */
	streamerOf(c: Context): string | null;
}

type KeyOptions = Pick<
	AppOptions,
	'upstream' | 'overlayKey' | 'failures' | 'clientAddress' | 'resolveKey' | 'publicOrigin'
>;

/**
 * Run by a key check before it looks at the key: a request another site's page sent is refused
 * (403 cross_site) without counting as a wrong key, so no page on the web can make the limiter
 * slow anyone down.
 */
export function refuseCrossSite(c: Context, publicOrigin: string | undefined): void {
	if (crossSite((name) => c.req.header(name), publicOrigin))
		throw new HttpError(
			403,
			'cross_site',
			"a page of another site sent this request: open the page from this server's own address"
		);
}

/**
 * A request whose key was found wrong: counted for its client, and answered `refusal` (401), or
 * 429 with Retry-After once that client keeps failing. Every kind of key counts in one limiter.
 */
export function wrongKey(
	c: Context,
	clientAddress: AppOptions['clientAddress'],
	failures: FailureLimiter,
	refusal: HttpError
): HttpError {
	const wait = failures.fail(clientAddress?.(c) ?? 'local');
	if (wait === null) return refusal;
	return new HttpError(429, 'too_many_attempts', 'too many wrong keys; wait a minute', {
		'Retry-After': String(wait)
	});
}

const badKey = () =>
	new HttpError(401, 'bad_overlay_key', 'missing or wrong overlay key (the ?key= of the URL)');

export function overlayKeyCheck(opts: KeyOptions): OverlayKeyCheck {
	/** Hosted: the upstream client of each request's streamer (set by requireKey). */
	const streamerUpstream = new WeakMap<Request, { upstream: UpstreamClient; streamer: string }>();
	const failures = opts.failures ?? new FailureLimiter();

	const requireKey: MiddlewareHandler = async (c, next) => {
		refuseCrossSite(c, opts.publicOrigin);
		const key = c.req.header('x-overlay-key');
		if (opts.resolveKey) {
			const found = key ? await opts.resolveKey(key) : null;
			if (found && 'replaced' in found)
				throw new HttpError(
					401,
					'overlay_key_replaced',
					'this overlay URL was replaced by a newer one: copy the new URL from your dashboard into OBS'
				);
			if (!found) throw wrongKey(c, opts.clientAddress, failures, badKey());
			streamerUpstream.set(c.req.raw, found);
		} else if (!keyMatches(key, opts.overlayKey))
			throw wrongKey(c, opts.clientAddress, failures, badKey());
		await next();
	};

	return {
		requireKey,
		upstreamOf: (c) => streamerUpstream.get(c.req.raw)?.upstream ?? opts.upstream,
		streamerOf: (c) => streamerUpstream.get(c.req.raw)?.streamer ?? null
	};
}
