// The credential every /control route requires (docs/dock.md): the dock's control key in
// X-Control-Key, apart from the overlay key (which OBS browser-source URLs carry, and which is
// refused here like any wrong key). Compared in constant time; a right key is always served, wrong
// ones count in the same per-client limiter as wrong overlay keys (key-guard.ts). In hosted mode
// resolveControl decides (a streamer's control key, or the signed-in session's cookie with its CSRF
// token).
import type { MiddlewareHandler } from 'hono';
import type { AppOptions } from '../app-options.ts';
import { SINGLE_STREAMER, type CallerEnv } from '../caller.ts';
import { HttpError } from '../http-error.ts';
import { keyMatches } from '../security.ts';
import type { KeyGuard } from './key-guard.ts';

type KeyOptions = Pick<
	AppOptions,
	'upstream' | 'controlKey' | 'newControlKey' | 'clientAddress' | 'resolveControl' | 'publicOrigin'
>;

export interface ControlKeyCheck {
	/** Middleware: refuses the request unless it carries the control credential; sets `caller`. */
	requireControl: MiddlewareHandler<CallerEnv>;
	/** Single mode: makes a new control key (newControlKey); the old one is refused from now on. */
	replaceKey(): Promise<string>;
}

export function controlKeyCheck(opts: KeyOptions, guard: KeyGuard): ControlKeyCheck {
	// The key in force: read on every request, so a new key takes over (and the old one stops) at once.
	let current = opts.controlKey;

	const requireControl: MiddlewareHandler<CallerEnv> = async (c, next) => {
		guard.refuseCrossSite(c);
		if (opts.resolveControl) {
			const found = await opts.resolveControl(c);
			c.set('caller', guard.found(c, found, 'control'));
		} else if (current !== undefined && keyMatches(c.req.header('x-control-key'), current)) {
			c.set('caller', { streamer: SINGLE_STREAMER, upstream: opts.upstream });
		} else throw guard.wrongKey(c, 'control');
		await next();
	};

	return {
		requireControl,
		replaceKey: async () => {
			if (!opts.newControlKey || opts.resolveControl)
				throw new HttpError(404, 'not_found', 'a new control key is made on the dashboard');
			current = await opts.newControlKey();
			return current;
		}
	};
}
