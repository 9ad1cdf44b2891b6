// What createApp (app.ts) is given: the mode, the upstream client, the overlay key and what the
// runtime provides. Apart from app.ts so the route modules can each take the part they use.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { OAuthConnection } from './oauth-client.ts';
import type { FailureLimiter } from './security.ts';
import type { UpstreamClient } from './upstream.ts';

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
