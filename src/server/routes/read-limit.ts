// Reads over their share are refused here, before they cost the upstream (issue 41): a GET of /api
// that its overlay key (in hosted mode, its streamer) or its client address has no allowance left
// for is answered 429 with Retry-After, which the pages wait out (src/client/api.ts). Claims and
// the dock's controls are never limited here: only reads are, and the handoff token a page mints
// to connect is not (the upstream budget's queue paces it). The allowance is this process's: behind
// a load balancer each instance keeps its own (the upstream budget keeps the claims' share across
// instances).
import type { Context, MiddlewareHandler } from 'hono';
import { ReadAllowance } from '../../core/read-allowance.ts';
import type { AppOptions } from '../app-options.ts';
import { HttpError } from '../http-error.ts';
import type { OverlayKeyCheck } from './overlay-key.ts';

type ReadLimitOptions = Pick<AppOptions, 'clientAddress' | 'readLimits' | 'readRefused'>;

/** `check` whose requireKey also refuses, once the key is known good, a read over its allowance. */
export function limitReads(
	check: OverlayKeyCheck,
	opts: ReadLimitOptions,
	now: () => number = Date.now
): OverlayKeyCheck {
	const allowance = new ReadAllowance(opts.readLimits);
	const requireKey: MiddlewareHandler = (c, next) =>
		check.requireKey(c, async () => {
			if (isRead(c)) {
				const streamer = check.streamerOf(c);
				const address = opts.clientAddress?.(c) ?? 'local';
				const verdict = allowance.take(streamer ?? '', address, now());
				if (!verdict.ok) {
					opts.readRefused?.(streamer, verdict.by);
					throw new HttpError(
						429,
						'too_many_reads',
						`too many reads ${verdict.by === 'key' ? 'with this overlay key' : 'from this address'}; wait ${verdict.retryAfterS} s`,
						{ 'Retry-After': String(verdict.retryAfterS), 'Cache-Control': 'no-store' }
					);
				}
			}
			await next();
		});
	return { ...check, requireKey };
}

/** A read through the token endpoint: a forwarded GET (writes are claims and controls). */
function isRead(c: Context): boolean {
	return c.req.method === 'GET' && c.req.path.startsWith('/api/');
}
