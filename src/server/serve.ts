// The token endpoint on Node: createApp() with the built pages, static files and the client address
// of node:http, listening on a port. Used by `npm start` (node.ts) and by the end-to-end tests.
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import type { Upstream } from './config.ts';
import type { OAuthConnection } from './oauth-client.ts';
import { keepAliveFetch, UpstreamClient } from './upstream.ts';

export interface ServeOptions {
	mode: 'live' | 'demo';
	upstream: Upstream;
	overlayKey: string;
	/** The built bundle (dist/). */
	dist: string;
	host?: string;
	/** 0: an ephemeral port. */
	port?: number;
	allowedHosts?: readonly string[];
	simulatorOrigin?: string;
	/** Connect with OAuth: the connection whose access token replaces the API key once connected. */
	oauth?: OAuthConnection;
}

export interface ServedApp {
	server: Server;
	/** `http://host:port`, as a browser reaches it. */
	origin: string;
	upstream: UpstreamClient;
	close(): Promise<void>;
}

export async function serveApp(opts: ServeOptions): Promise<ServedApp> {
	const host = opts.host ?? '127.0.0.1';
	const transport = keepAliveFetch();
	const upstream = new UpstreamClient(() => opts.upstream, transport, 10_000, opts.oauth ?? null);
	const app = createApp({
		mode: opts.mode,
		simulatorOrigin: opts.simulatorOrigin,
		upstream,
		...(opts.oauth
			? { oauth: { connection: opts.oauth, hasApiKey: opts.upstream.apiKey !== '' } }
			: {}),
		overlayKey: opts.overlayKey,
		allowedHosts: [host.toLowerCase(), ...(opts.allowedHosts ?? [])],
		readPage: async (name) => readFile(`${opts.dist}/${name}.html`, 'utf8').catch(() => null),
		staticFiles: serveStatic({ root: opts.dist }),
		clientAddress: (c) => {
			try {
				return getConnInfo(c).remote.address ?? 'unknown';
			} catch {
				return 'unknown';
			}
		},
		rawTarget: (c) => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.url
	});
	const server = await new Promise<Server>((resolve, reject) => {
		const s = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: host }, () =>
			resolve(s as Server)
		) as Server;
		s.once('error', reject);
	});
	const { port } = server.address() as AddressInfo;
	const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
	return {
		server,
		origin: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`,
		upstream,
		close: async () => {
			server.closeAllConnections?.();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			transport.close();
		}
	};
}
