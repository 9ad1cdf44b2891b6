// Who a request acts for, named once for the whole token endpoint: the key checks
// (routes/overlay-key.ts, routes/control-key.ts) set `c.var.caller` in either mode, and the
// routes, the stores and the chat read the names below from here. A leaf: it imports a type and
// nothing else, so no two modules reach each other through it.
import type { UpstreamClient } from './upstream.ts';

/** The streamer of single mode: its stores' rows, its control lock, its read allowance. */
export const SINGLE_STREAMER = 'single';

/** The streamer a request acts for, and their upstream client. */
export interface ControlAccess {
	streamer: string;
	upstream: UpstreamClient;
}

/** A route's context once a key check passed: `c.var.caller` is set. */
export type CallerEnv = { Variables: { caller: ControlAccess } };

/** Why a key check refused a request: a wrong key (401), one of too many (429), another site's. */
export type KeyRefusal = 'wrong_key' | 'too_many_attempts' | 'cross_site';
