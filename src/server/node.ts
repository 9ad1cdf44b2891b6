// `npm start`: the token endpoint on Node. Demo mode (no TIP_API_KEY) starts the embedded simulator.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Me, Overlay } from '../contract/index.ts';
import { WIDGET_PAGES } from './app.ts';
import { buildBundle, bundleIsStale, canBuild } from './build.ts';
import { ConfigError, loadConfig, type Upstream } from './config.ts';
import { hostedRequested } from '../hosted/config.ts';
import { setupOAuth } from './oauth-setup.ts';
import { serveApp } from './serve.ts';
import type { UpstreamClient } from './upstream.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = fileURLToPath(new URL('../../dist', import.meta.url));

/** The scopes the widgets use (issue list: TTS, media, counters, overlays and goals). */
export const NEEDED_SCOPES = {
	'tts:read': 'the TTS player cannot read the queue',
	'tts:control': 'the TTS player cannot claim and finish tips',
	'media:read': 'the media player cannot read the queue',
	'media:control': 'the media player cannot claim and finish videos',
	'counters:manage': 'counters cannot be shown',
	'overlays:manage': 'overlays, tip goals and celebrations will not work'
} as const;

async function main(): Promise<void> {
	let config;
	try {
		if (hostedRequested()) return await startHosted();
		config = loadConfig();
	} catch (err) {
		if (err instanceof ConfigError) {
			console.error(err.message);
			process.exit(2);
		}
		throw err;
	}

	let upstream: Upstream;
	let closeSim: (() => Promise<void>) | null = null;
	let simulatorOrigin: string | undefined;
	let oauth: Awaited<ReturnType<typeof setupOAuth>> = null;
	if (config.upstream) {
		upstream = config.upstream;
		try {
			oauth = await setupOAuth(config, upstream.baseUrl);
		} catch (err) {
			console.error(`OAUTH_TOKEN_FILE: ${(err as Error).message}`);
			process.exit(2);
		}
	} else {
		const { startSimulator } = await import('../sim/index.ts');
		const sim = await startSimulator({ trafficPerMinute: config.demoTraffic, quiet: true });
		upstream = { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: sim.apiKey };
		closeSim = sim.close;
		simulatorOrigin = sim.origin;
		oauth = await setupOAuth(config, upstream.baseUrl, sim);
	}

	if (!config.skipBuild) await ensureBundle();

	const served = await serveApp({
		mode: config.mode,
		upstream,
		overlayKey: config.overlayKey,
		dist,
		host: config.host,
		port: config.port,
		allowedHosts: config.allowedHosts,
		simulatorOrigin,
		oauth: oauth?.connection
	}).catch((err: NodeJS.ErrnoException) => {
		console.error(
			err.code === 'EADDRINUSE'
				? `Invalid PORT: ${config.port} is already in use`
				: `Could not start: ${err.message}`
		);
		process.exit(2);
	});
	const redirectUri = oauth?.listening(
		new URL(served.origin).port ? Number(new URL(served.origin).port) : config.port
	);
	// OAuth only and not connected yet: there is nothing to ask the upstream until Connect.
	const waitingForConnect =
		!upstream.apiKey && oauth && (await oauth.connection.status()).state !== 'connected';
	if (waitingForConnect)
		console.log('Not connected with OAuth yet: open the preview below and press Connect.');
	const overlays = waitingForConnect ? [] : await describeUpstream(served.upstream, config.mode);
	const { origin, server } = served;
	const k = encodeURIComponent(config.overlayKey);
	const built = async (name: string) =>
		(await readFile(`${dist}/${name}.html`).catch(() => null)) !== null;
	const link = async (page: string, path: string) =>
		(await built(page)) ? `${origin}${path}?key=${k}` : 'not in this build yet';
	const lines = [
		`Tip Overlay Kit running in ${config.mode} mode${config.mode === 'demo' ? ' (embedded simulator, no account needed)' : ''}`,
		`  Listening on ${origin}`,
		'',
		`  Preview (open in your browser):  ${await link('preview', '/preview')}`,
		'',
		'  Widgets (OBS browser source URLs):',
		...(await Promise.all(
			WIDGET_PAGES.map(
				async (w) => `    ${w.padEnd(12)} ${await link(`widget-${w}`, `/widget/${w}`)}`
			)
		)),
		...(overlays.length
			? [
					'',
					'  Overlays:',
					...(await Promise.all(
						overlays.map(
							async (o) =>
								`    ${o.name} (${o.width}x${o.height})  ${await link('overlay', `/overlay/${o.id}`)}`
						)
					))
				]
			: []),
		...(redirectUri
			? [
					'',
					`  Connect with OAuth: press Connect in the preview (redirect URI ${redirectUri}${config.oauth ? `, token kept in ${config.oauth.tokenFile}` : ', demo app on the simulator'})`
				]
			: []),
		'',
		'  Keep these URLs private: the key in them lets a page use your overlays.'
	];
	console.log(lines.join('\n'));

	const stop = () => {
		server.close();
		void closeSim?.().finally(() => process.exit(0));
		if (!closeSim) process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

/** Builds the widgets when their sources changed (and Vite is installed); stops if none exist. */
async function ensureBundle(): Promise<void> {
	if (!bundleIsStale(root, dist)) return;
	if (canBuild(root)) {
		console.log('Building the widgets…');
		await buildBundle(root, dist);
	} else if (existsSync(join(dist, 'index.html'))) {
		// An installation without the development dependencies (npm ci --omit=dev) serves what
		// `npm run build` built; its files may just look newer after a copy.
		console.warn(
			'Note: the widgets were built before their sources last changed (no Vite to rebuild).'
		);
	} else {
		console.error(
			'The widgets are not built, and this installation cannot build them (no Vite: installed with --omit=dev?). Run `npm ci && npm run build` first.'
		);
		process.exit(2);
	}
}

/** HOSTED=1: many streamers sign in (src/hosted/); the demo runs on the embedded simulator. */
async function startHosted(): Promise<void> {
	const { loadHostedConfig } = await import('../hosted/config.ts');
	const { serveHosted } = await import('../hosted/serve.ts');
	const config = loadHostedConfig();
	let upstream;
	let closeSim: (() => Promise<void>) | null = null;
	let simulatorOrigin: string | undefined;
	if (config.oauth) upstream = config.oauth;
	else {
		const { startSimulator, DEMO_TENANTS } = await import('../sim/index.ts');
		// Three demo streamers: the consent page asks which one is signing in.
		const sim = await startSimulator({ quiet: true, tenants: DEMO_TENANTS });
		const { app } = sim.control.oauth.registerApp({
			secret: null,
			redirectUris: [`${config.publicUrl}/auth/callback`]
		});
		upstream = { issuer: sim.oauthUrl, clientId: app.id, baseUrl: sim.baseUrl, wsUrl: sim.wsUrl };
		closeSim = sim.close;
		simulatorOrigin = sim.origin;
	}
	if (process.env.SKIP_BUILD !== '1') await ensureBundle();
	const hosted = await serveHosted({ config, upstream, dist, simulatorOrigin }).catch(
		(err: NodeJS.ErrnoException) => {
			console.error(
				err.code === 'EADDRINUSE'
					? `Invalid PORT: ${config.port} is already in use`
					: `Could not start: ${err.message}`
			);
			process.exit(2);
		}
	);
	console.log(
		[
			`Tip Overlay Kit running in hosted ${config.mode} mode${config.mode === 'demo' ? ' (embedded simulator)' : ''}`,
			`  Listening on ${hosted.origin}; streamers open ${config.publicUrl}`,
			`  Database: ${config.databaseUrl ? 'PostgreSQL server (DATABASE_URL)' : `embedded, in ${config.dataDir}`}`
		].join('\n')
	);
	// Drains (hosted.close: requests and refreshes in flight finish); a second signal stops at once.
	let stopping = false;
	const stop = () => {
		if (stopping) process.exit(1);
		stopping = true;
		console.log('Stopping: finishing the requests in flight…');
		void hosted
			.close()
			.then(() => closeSim?.())
			.finally(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

/** Live mode: who the key belongs to and what it may do; both modes: the overlays to list. */
async function describeUpstream(client: UpstreamClient, mode: 'live' | 'demo'): Promise<Overlay[]> {
	try {
		const meRes = await client.call('GET', '/me');
		const me = Me.safeParse(await meRes.json().catch(() => null));
		if (!me.success) {
			console.warn(
				`Warning: GET /me answered ${meRes.status}; check TIP_API_KEY and TIP_API_BASE_URL.`
			);
			return [];
		}
		const scopes = me.data.key.scopes;
		if (mode === 'live') {
			console.log(
				`Upstream: ${me.data.tenant.name} (${me.data.tenant.currency}), key "${me.data.key.name}" with scopes: ${scopes.join(', ')}`
			);
			const needed = Object.keys(NEEDED_SCOPES);
			const extra = scopes.filter((s) => !needed.includes(s));
			if (extra.length)
				console.warn(
					`Warning: the key carries scopes the overlay does not need (${extra.join(', ')}). It needs only: ${needed.join(', ')}.`
				);
			for (const [scope, effect] of Object.entries(NEEDED_SCOPES))
				if (!scopes.includes(scope)) console.warn(`Warning: the key lacks ${scope}: ${effect}.`);
		}
		if (!scopes.includes('overlays:manage')) return [];
		const res = await client.call('GET', '/overlays');
		const body = (await res.json().catch(() => null)) as { overlays?: unknown[] } | null;
		return (body?.overlays ?? []).flatMap((o) => {
			const parsed = Overlay.safeParse(o);
			return parsed.success ? [parsed.data] : [];
		});
	} catch (err) {
		console.warn(
			`Warning: the upstream could not be reached (${err instanceof Error ? err.message : err}).`
		);
		return [];
	}
}

await main();
