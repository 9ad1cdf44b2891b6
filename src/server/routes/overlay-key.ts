// The overlay key that /token, /api, /live, /settings, /demo and most of /oauth require: sent in a
// header only, compared in constant time. A right key is always served; wrong ones are slowed per
// client, and requests other sites' pages send are refused uncounted (key-guard.ts). The request
// then acts for `c.var.caller`: single mode's streamer and upstream client, or in hosted mode the
// streamer the key names, served by that streamer's upstream client.
import type { MiddlewareHandler } from 'hono';
import type { AppOptions } from '../app-options.ts';
import { SINGLE_STREAMER, type CallerEnv } from '../caller.ts';
import { keyMatches } from '../security.ts';
import type { KeyGuard } from './key-guard.ts';

/** Middleware: refuses the request unless it carries a valid overlay key; sets `caller`. */
export type RequireKey = MiddlewareHandler<CallerEnv>;

type KeyOptions = Pick<AppOptions, 'upstream' | 'overlayKey' | 'resolveKey'>;

export function overlayKeyCheck(opts: KeyOptions, guard: KeyGuard): RequireKey {
	return async (c, next) => {
		guard.refuseCrossSite(c);
		const key = c.req.header('x-overlay-key');
		if (opts.resolveKey) {
			const found = key ? await opts.resolveKey(key) : null;
			c.set('caller', guard.found(c, found, 'overlay'));
		} else if (keyMatches(key, opts.overlayKey))
			c.set('caller', { streamer: SINGLE_STREAMER, upstream: opts.upstream });
		else throw guard.wrongKey(c, 'overlay');
		await next();
	};
}
