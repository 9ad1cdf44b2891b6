// The process's one entry point (`npm start` runs its build, dist-server/server/main.js; tests and
// `npx tsx src/main.ts` run it as it is). It reads which mode the environment asks for, starts that
// mode, and is the only module that knows every part:
//   HOSTED=1                          hosted mode: many streamers sign in (src/hosted/); without
//                                     OAuth settings it runs on the embedded simulator (src/sim/)
//                                     with three demo streamers.
//   TIP_API_KEY or OAuth settings     live mode: one streamer's token endpoint (src/server/) in front
//                                     of the real upstream.
//   neither                           demo mode: the same token endpoint on the embedded simulator.
// src/server never imports src/hosted, src/sim or widgets: what it needs of the simulator, and the
// widgets' schemas that check stored settings, are handed in here.
// Hosted mode and the simulator are loaded only when the mode needs them.
import { hostedRequested } from './hosted/config.ts';
import { DIST, ensureBundle } from './server/build.ts';
import { ConfigError, loadConfig, type Config } from './server/config.ts';
import { cannotListen, launchSingle } from './server/launch.ts';
// The widgets' parameter schemas, which check a save of stored settings (the server layer does not
// import widgets: they are handed in).
import { checkSettings } from '../widgets/settings/schemas.ts';
import { installCssColourNames } from './server/css-supports.ts';

async function main(): Promise<void> {
	// The colour parameters of a save are checked as a browser would check them.
	installCssColourNames();
	let config: Config;
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
	if (config.upstream) return launchSingle(config, config.upstream, checkSettings);

	const { startSimulator } = await import('./sim/index.ts');
	const sim = await startSimulator({ trafficPerMinute: config.demoTraffic, quiet: true });
	await launchSingle(
		config,
		{ baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: sim.apiKey },
		checkSettings,
		{
			origin: sim.origin,
			close: sim.close,
			oauth: {
				oauthUrl: sim.oauthUrl,
				registerPublicApp({ id, name, redirectUri }) {
					if (sim.control.oauth.apps.has(id)) return;
					sim.control.oauth.registerApp({ id, name, secret: null, redirectUris: [redirectUri] });
				}
			}
		}
	);
}

/** HOSTED=1: many streamers sign in (src/hosted/); the demo runs on the embedded simulator. */
async function startHosted(): Promise<void> {
	const { loadHostedConfig } = await import('./hosted/config.ts');
	const { serveHosted } = await import('./hosted/serve.ts');
	const config = loadHostedConfig();
	let upstream;
	let closeSim: (() => Promise<void>) | null = null;
	let simulatorOrigin: string | undefined;
	if (config.oauth) upstream = config.oauth;
	else {
		const { startSimulator, DEMO_TENANTS } = await import('./sim/index.ts');
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
	const hosted = await serveHosted({
		config,
		upstream,
		dist: DIST,
		simulatorOrigin,
		checkSettings
	}).catch(cannotListen(config.port));
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

await main();
