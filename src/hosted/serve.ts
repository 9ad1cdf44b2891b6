// Hosted mode on Node (HOSTED=1): the database (migrated at start), the sign-in, each streamer's
// upstream client, and the single-streamer app with the overlay key naming the streamer. The
// embedded simulator stands in for the upstream in the hosted demo.
import { sql } from 'kysely';
import type { Server } from 'node:http';
import { createApp } from '../server/app.ts';
import { listen, nodeAppOptions } from '../server/serve.ts';
import { keepAliveFetch, UpstreamClient } from '../server/upstream.ts';
import type { HostedConfig } from './config.ts';
import { HostedConnections, type UpstreamSettings } from './connections.ts';
import { SecretBox } from './crypto.ts';
import { openDatabase } from './db.ts';
import { migrate } from './migrations.ts';
import { hostedRoutes } from './routes.ts';
import { HostedSignIn } from './signin.ts';
import { HostedStore } from './store.ts';

export interface HostedServeOptions {
	config: HostedConfig;
	/** The OAuth app and upstream (live: from the config; demo: the simulator's). */
	upstream: Omit<UpstreamSettings, 'redirectUri'>;
	dist: string;
	allowedHosts?: readonly string[];
	simulatorOrigin?: string;
}

export interface HostedApp {
	server: Server;
	origin: string;
	store: HostedStore;
	close(): Promise<void>;
}

export async function serveHosted(o: HostedServeOptions): Promise<HostedApp> {
	const { config } = o;
	const db = await openDatabase({
		databaseUrl: config.databaseUrl ?? undefined,
		dataDir: config.dataDir
	});
	await migrate(db);
	const store = new HostedStore(db, new SecretBox(config.secretKey));
	const settings: UpstreamSettings = {
		...o.upstream,
		redirectUri: `${config.publicUrl}/auth/callback`
	};
	const transport = keepAliveFetch();
	const connections = new HostedConnections(store, settings, transport);
	const signIn = new HostedSignIn(store, settings);
	const { host } = config;
	// Never used for a streamer's request (resolveKey names the streamer); it has no credential.
	const nobody = new UpstreamClient(
		() => ({ baseUrl: settings.baseUrl, wsUrl: settings.wsUrl, apiKey: '' }),
		transport
	);
	const app = createApp({
		mode: config.mode,
		upstream: nobody,
		// No single overlay key: every key is looked up (resolveKey).
		overlayKey: '',
		resolveKey: async (key) => {
			const found = await store.resolveOverlayKey(key);
			if (found && 'streamerId' in found)
				return { upstream: connections.upstream(found.streamerId) };
			return found;
		},
		routes: hostedRoutes({
			store,
			signIn,
			connections,
			publicUrl: config.publicUrl,
			oauthOrigin: new URL(settings.issuer).origin,
			demo: config.mode === 'demo'
		}),
		health: async () => {
			const database = await sql`select 1 as ok`
				.execute(db)
				.then(() => true)
				.catch(() => false);
			return { ok: database, mode: 'hosted', database: { reachable: database } };
		},
		allowedHosts: [
			host.toLowerCase(),
			new URL(config.publicUrl).hostname,
			...(o.allowedHosts ?? [])
		],
		simulatorOrigin: o.simulatorOrigin,
		...nodeAppOptions(o.dist)
	});
	const { server, origin, close } = await listen(app.fetch, host, config.port);
	return {
		server,
		origin,
		store,
		close: async () => {
			await close();
			transport.close();
			await db.destroy();
		}
	};
}
