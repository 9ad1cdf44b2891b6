// The overlay key that /token, /api, /live, /settings, /demo and most of /oauth require: sent in a
// header only, compared in constant time. A right key is always served; wrong ones are slowed per
// client, and requests other sites' pages send are refused uncounted (key-guard.ts). In hosted mode the key names
// the streamer, and the request is served by that streamer's upstream client.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppOptions, ControlAccess } from '../app-options.ts';
import { keyMatches } from '../security.ts';
import type { KeyGuard } from './key-guard.ts';
import type { UpstreamClient } from '../upstream.ts';

declare module 'hono' {
	interface ContextVariableMap {
		/** Hosted: the streamer a request that passed requireKey is for, and its upstream client. */
		overlayCaller?: ControlAccess;
	}
}

export interface OverlayKeyCheck {
	/** Middleware: refuses the request unless it carries a valid overlay key. */
	requireKey: MiddlewareHandler;
	/** The upstream client serving a request that passed requireKey. */
	upstreamOf(c: Context): UpstreamClient;
	/** Hosted: the streamer a request that passed requireKey is for; single mode: null. */
	streamerOf(c: Context): string | null;
}

type KeyOptions = Pick<AppOptions, 'upstream' | 'overlayKey' | 'resolveKey'>;

export function overlayKeyCheck(opts: KeyOptions, guard: KeyGuard): OverlayKeyCheck {
	const requireKey: MiddlewareHandler = async (c, next) => {
		guard.refuseCrossSite(c);
		const key = c.req.header('x-overlay-key');
		if (opts.resolveKey) {
			const found = key ? await opts.resolveKey(key) : null;
			c.set('overlayCaller', guard.found(c, found, 'overlay'));
		} else if (!keyMatches(key, opts.overlayKey)) throw guard.wrongKey(c, 'overlay');
		await next();
	};

	return {
		requireKey,
		upstreamOf: (c) => c.var.overlayCaller?.upstream ?? opts.upstream,
		streamerOf: (c) => c.var.overlayCaller?.streamer ?? null
	};
}
