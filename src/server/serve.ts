// The token endpoint on Node: createApp() with the built pages, static files and the client address
// of node:http, listening on a port. Used by `npm start` (launch.ts) and by the end-to-end tests.
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { readFile } from 'node:fs/promises';
import type { Context } from 'hono';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { createApp } from './app.ts';
import { keyRefusalLog } from './routes/key-guard.ts';
import { forwardedClient } from './security.ts';
import type { Upstream } from './config.ts';
import type { OAuthConnection } from './oauth-client.ts';
import type { ReadLimits } from '../core/read-allowance.ts';
import type { BudgetPolicy } from '../core/rate-budget.ts';
import { BudgetedUpstreamClient, UpstreamBudget } from './upstream-budget.ts';
import { keepAliveFetch, type UpstreamClient } from './upstream.ts';
import { StreamIntake } from './intake/intake.ts';
import type { ActivityRecorder } from './activity/recorder.ts';
import { SINGLE_STREAMER } from './caller.ts';
import type { ModerationStore } from './moderation/store.ts';
import type { ChatStore } from './chat/store.ts';
import type { AppOptions } from './app-options.ts';
import type { SettingsStore } from './settings/store.ts';
import type { CommandsStore } from './commands/store.ts';
import { EventTap } from './commands/tap.ts';
import type { EventEnvelope } from '../contract/index.ts';

export interface ServeOptions {
	mode: 'live' | 'demo';
	upstream: Upstream;
	overlayKey: string;
	/** The dock's control key; absent: no /control routes. */
	controlKey?: string;
	/** Makes and stores a new control key (POST /control/new-key). */
	newControlKey?: () => Promise<string>;
	/** The built bundle (dist/). */
	dist: string;
	host?: string;
	/** 0: an ephemeral port. */
	port?: number;
	/** Names besides `host` this server answers to (ALLOWED_HOSTS); each is our own origin too. */
	allowedHosts?: readonly string[];
	/** PUBLIC_URL's origin: behind a reverse proxy, the origin browsers send (app-options.ts). */
	publicOrigin?: string;
	simulatorOrigin?: string;
	/** Connect with OAuth: the connection whose access token replaces the API key once connected. */
	oauth?: OAuthConnection;
	/** What a reader may read (default: DEFAULT_READ_LIMITS); the benches lift it. */
	readLimits?: ReadLimits;
	/** What the upstream allows a minute (default: its documented limits); the benches lift it. */
	budgetPolicy?: BudgetPolicy;
	/** The moderation rules and decisions; absent: kept in memory. */
	moderation?: ModerationStore;
	/** Thanks in chat's settings and ledger; absent: kept in memory. */
	chat?: ChatStore;
	/** The stored settings; absent: kept in memory. */
	settings?: SettingsStore;
	/** The Activity's recorder (its store, its retention); absent: nothing recorded. */
	activity?: ActivityRecorder;
	/** The chat commands' settings and runs; absent: kept in memory. */
	commands?: CommandsStore;
	/** Checks a save of stored settings (widgets/settings/schemas.ts); absent: saves answer 503. */
	checkSettings?: AppOptions['checkSettings'];
	/**
	 * Keep the streamer's live view with an intake of the server's own (intake/intake.ts): one
	 * realtime connection held while the server runs, whose view answers the pages' reads.
	 * Default: on.
	 */
	intake?: boolean;
}

export interface ServedApp {
	server: Server;
	/** `http://host:port`, as a browser reaches it. */
	origin: string;
	upstream: UpstreamClient;
	/** The streamer's intake; null when `intake` was turned off. */
	intake: StreamIntake | null;
	close(): Promise<void>;
}

/** What createApp needs from Node and the build: pages, static files, client address, raw target. */
export function nodeAppOptions(dist: string) {
	return {
		readPage: async (name: string) => readFile(`${dist}/${name}.html`, 'utf8').catch(() => null),
		staticFiles: serveStatic({ root: dist }),
		clientAddress: (c: Context) => {
			let peer = 'unknown';
			try {
				peer = getConnInfo(c).remote.address ?? peer;
			} catch {
				// app.request() in tests has no socket
			}
			return forwardedClient(peer, c.req.header('x-forwarded-for'));
		},
		rawTarget: (c: Context) => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.url
	};
}

/** Listens on host:port (0: ephemeral); the origin is the address a browser reaches it at. */
export async function listen(
	fetch: (req: Request, env?: unknown) => Response | Promise<Response>,
	host: string,
	port: number
): Promise<{
	server: Server;
	origin: string;
	/** Ends every push-channel socket (its page opens it again, elsewhere if this one is going). */
	endSockets: () => void;
	close: () => Promise<void>;
}> {
	// The push channel's sockets (live/sockets.ts): upgrades go through the app like any request.
	const sockets = new WebSocketServer({ noServer: true, maxPayload: 4096 });
	const server = await new Promise<Server>((resolve, reject) => {
		const s = serve({ fetch, port, hostname: host, websocket: { server: sockets } }, () =>
			resolve(s as Server)
		) as Server;
		s.once('error', reject);
	});
	// Upgraded sockets are not the HTTP server's any more: closeAllConnections does not end them.
	const endSockets = () => {
		for (const ws of sockets.clients) ws.terminate();
	};
	const bound = (server.address() as AddressInfo).port;
	const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
	return {
		server,
		origin: `http://${shown.includes(':') ? `[${shown}]` : shown}:${bound}`,
		endSockets,
		close: async () => {
			endSockets();
			sockets.close();
			server.closeAllConnections?.();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	};
}

/**
 * The server's own intake (absent with `intake: false`): what it hears reaches the Activity, and
 * its events reach the chat commands (commands/runner.ts) through the tap.
 */
function singleIntake(
	opts: ServeOptions,
	upstream: UpstreamClient
): { intake: StreamIntake | null; events: EventTap } {
	const heard = opts.activity?.heardBy(SINGLE_STREAMER, upstream);
	const events = new EventTap();
	const onEvent = (e: EventEnvelope) => events.heard(SINGLE_STREAMER, e);
	const intake = opts.intake === false ? null : new StreamIntake(upstream, { heard, onEvent });
	return { intake, events };
}

export async function serveApp(opts: ServeOptions): Promise<ServedApp> {
	const host = opts.host ?? '127.0.0.1';
	const transport = keepAliveFetch();
	// One credential (the key, or the OAuth authorization) and one address: one budget of each,
	// so that the streamer's claims keep their share of them however much the pages read.
	const upstream = new BudgetedUpstreamClient(
		new UpstreamBudget({ policy: opts.budgetPolicy }),
		'streamer',
		() => opts.upstream,
		transport,
		10_000,
		opts.oauth ?? null
	);
	const { intake, events } = singleIntake(opts, upstream);
	const app = createApp({
		readLimits: opts.readLimits,
		intakeOf: () => intake,
		mode: opts.mode,
		simulatorOrigin: opts.simulatorOrigin,
		upstream,
		...(opts.oauth
			? { oauth: { connection: opts.oauth, hasApiKey: opts.upstream.apiKey !== '' } }
			: {}),
		overlayKey: opts.overlayKey,
		controlKey: opts.controlKey,
		newControlKey: opts.newControlKey,
		moderation: opts.moderation,
		chat: opts.chat,
		settings: opts.settings,
		activity: opts.activity,
		commands: opts.commands,
		events,
		checkSettings: opts.checkSettings,
		allowedHosts: [
			host.toLowerCase(),
			...(opts.publicOrigin ? [new URL(opts.publicOrigin).hostname] : []),
			...(opts.allowedHosts ?? [])
		],
		publicOrigin: opts.publicOrigin,
		ownHosts: opts.allowedHosts,
		keyRefused: keyRefusalLog(),
		...nodeAppOptions(opts.dist)
	});
	const { server, origin, close } = await listen(app.fetch, host, opts.port ?? 0);
	intake?.start();
	opts.activity?.startPruning();
	// Connect and Disconnect change the credential the intake's socket authenticates with.
	const unhear = intake && opts.oauth?.onChange(() => intake.reconnect());
	return {
		server,
		origin,
		upstream,
		intake,
		close: async () => {
			unhear?.();
			intake?.stop();
			await opts.activity?.stop();
			await close();
			transport.close();
		}
	};
}
