// `npm run sim`: the simulator alone, configured from the environment.
import { z } from 'zod';
import { DEMO_API_KEY } from './auth.ts';
import { startSimulator } from './index.ts';
import { redirectUriAllowed } from './oauth.ts';

const DEMO_OAUTH_CLIENT_ID = 'oc_demo_overlay_kit';
const DEMO_OAUTH_SECRET = 'ocs_demo_secret_0v3rl4yk1t_local';
/** Where the token endpoint (npm start) receives the redirect by default. */
const DEMO_OAUTH_REDIRECT_URI = 'http://localhost:8787/oauth/callback';

const Env = z.object({
	SIM_PORT: z.coerce
		.number({ error: 'expected a port number' })
		.int('expected a whole port number')
		.min(0, 'expected 0 to 65535')
		.max(65535, 'expected 0 to 65535')
		.default(8788),
	SIM_HOST: z.string().min(1, 'expected a host name or address').default('127.0.0.1'),
	SIM_API_KEY: z
		.string()
		.regex(/^\S{16,200}$/, 'expected 16 to 200 characters without spaces')
		.default(DEMO_API_KEY),
	SIM_TRAFFIC: z.coerce
		.number({ error: 'expected demo events per minute' })
		.min(0, 'expected 0 (off) to 600')
		.max(600, 'expected 0 (off) to 600')
		.default(0),
	SIM_HEARTBEAT_S: z.coerce.number().positive('expected seconds > 0').default(30),
	SIM_OAUTH_CLIENT_ID: z
		.string()
		.regex(/^oc_[A-Za-z0-9_-]{1,100}$/, 'expected oc_ followed by letters, digits, _ or -')
		.default(DEMO_OAUTH_CLIENT_ID),
	SIM_OAUTH_REDIRECT_URIS: z
		.string()
		.transform((v) =>
			v
				.split(',')
				.map((u) => u.trim())
				.filter(Boolean)
		)
		.refine(
			(uris) => uris.length > 0 && uris.every(redirectUriAllowed),
			'expected comma-separated redirect URIs: https://, http://localhost:<port>/ (or 127.0.0.1) or a reverse-domain scheme such as com.example.app:/callback'
		)
		.default([DEMO_OAUTH_REDIRECT_URI])
});

// Empty variables count as unset.
const raw = Object.fromEntries(
	Object.entries(process.env).filter(([k, v]) => k.startsWith('SIM_') && v !== '')
);
const env = Env.safeParse(raw);
if (!env.success) {
	for (const issue of env.error.issues)
		console.error(
			`Invalid ${String(issue.path[0])}: ${issue.message} (got "${raw[String(issue.path[0])]}")`
		);
	process.exit(2);
}

const sim = await startSimulator({
	port: env.data.SIM_PORT,
	host: env.data.SIM_HOST,
	apiKey: env.data.SIM_API_KEY,
	trafficPerMinute: env.data.SIM_TRAFFIC,
	heartbeatS: env.data.SIM_HEARTBEAT_S
}).catch((err: NodeJS.ErrnoException) => {
	console.error(
		err.code === 'EADDRINUSE'
			? `Invalid SIM_PORT: port ${env.data.SIM_PORT} is already in use`
			: `The simulator could not start: ${err.message}`
	);
	process.exit(1);
});

// SIM_OAUTH_CLIENT_SECRET set but empty: a public client (no secret, PKCE required).
const secretVar = process.env.SIM_OAUTH_CLIENT_SECRET;
const oauthApp = sim.control.oauth.registerApp({
	id: env.data.SIM_OAUTH_CLIENT_ID,
	name: 'Tip Overlay Kit (demo app)',
	secret: secretVar === undefined ? DEMO_OAUTH_SECRET : secretVar === '' ? null : secretVar,
	redirectUris: env.data.SIM_OAUTH_REDIRECT_URIS
});

console.log(`Tip service simulator running
  base URL   ${sim.baseUrl}
  ws URL     ${sim.wsUrl}
  OAuth URL  ${sim.oauthUrl}
  API key    ${sim.apiKey}
  control    ${sim.origin}/_sim  (faults and demo actions)
  OAuth app  client id      ${oauthApp.app.id}
             client secret  ${oauthApp.secret ?? '(none: a public client, PKCE required)'}
             redirect URIs  ${oauthApp.app.redirectUris.join(', ')}
  demo traffic: ${env.data.SIM_TRAFFIC ? `${env.data.SIM_TRAFFIC} per minute` : 'off (SIM_TRAFFIC=6 for six events a minute)'}`);

const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
