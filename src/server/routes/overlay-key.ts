// The overlay key that /token, /api, /demo and most of /oauth require: sent in a header only,
// compared in constant time, wrong attempts rate-limited per client. In hosted mode the key names
// the streamer, and the request is served by that streamer's upstream client.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppOptions } from '../app-options.ts';
import { HttpError } from '../http-error.ts';
import { FailureLimiter, keyMatches } from '../security.ts';
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
	'upstream' | 'overlayKey' | 'failures' | 'clientAddress' | 'resolveKey'
>;

/**
 * The client a key check counts failures for (every kind of key counts in one limiter), once it
 * is known not to be held back by too many wrong keys (429 with Retry-After otherwise).
 */
export function clientNotBlocked(
	c: Context,
	clientAddress: AppOptions['clientAddress'],
	failures: FailureLimiter
): string {
	const who = clientAddress?.(c) ?? 'local';
	const wait = failures.blocked(who);
	if (wait !== null)
		throw new HttpError(429, 'too_many_attempts', 'too many wrong keys; wait a minute', {
			'Retry-After': String(wait)
		});
	return who;
}

const badKey = () =>
	new HttpError(401, 'bad_overlay_key', 'missing or wrong overlay key (the ?key= of the URL)');

export function overlayKeyCheck(opts: KeyOptions): OverlayKeyCheck {
	/** Hosted: the upstream client of each request's streamer (set by requireKey). */
	const streamerUpstream = new WeakMap<Request, { upstream: UpstreamClient; streamer: string }>();
	const failures = opts.failures ?? new FailureLimiter();

	const requireKey: MiddlewareHandler = async (c, next) => {
		const who = clientNotBlocked(c, opts.clientAddress, failures);
		const key = c.req.header('x-overlay-key');
		if (opts.resolveKey) {
			const found = key ? await opts.resolveKey(key) : null;
			if (found && 'replaced' in found)
				throw new HttpError(
					401,
					'overlay_key_replaced',
					'this overlay URL was replaced by a newer one: copy the new URL from your dashboard into OBS'
				);
			if (!found) {
				failures.fail(who);
				throw badKey();
			}
			streamerUpstream.set(c.req.raw, found);
		} else if (!keyMatches(key, opts.overlayKey)) {
			failures.fail(who);
			throw badKey();
		}
		await next();
	};

	return {
		requireKey,
		upstreamOf: (c) => streamerUpstream.get(c.req.raw)?.upstream ?? opts.upstream,
		streamerOf: (c) => streamerUpstream.get(c.req.raw)?.streamer ?? null
	};
}
