// `npm run sim`: the simulator alone, configured from the environment.
import { z } from 'zod';
import { DEMO_API_KEY } from './auth.ts';
import { startSimulator } from './index.ts';

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
	SIM_HEARTBEAT_S: z.coerce.number().positive('expected seconds > 0').default(30)
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

console.log(`Tip service simulator running
  base URL   ${sim.baseUrl}
  ws URL     ${sim.wsUrl}
  OAuth URL  ${sim.oauthUrl}
  API key    ${sim.apiKey}
  control    ${sim.origin}/_sim  (faults and demo actions)
  demo traffic: ${env.data.SIM_TRAFFIC ? `${env.data.SIM_TRAFFIC} per minute` : 'off (SIM_TRAFFIC=6 for six events a minute)'}`);

const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
