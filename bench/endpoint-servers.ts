// Child process of the endpoint bench: `sim` runs the simulator (rate limits lifted), `endpoint
// <base_url> <ws_url> <api_key>` runs the token endpoint in front of it. Each prints one JSON line
// with its origin and runs until killed; run.ts pins each to its own core with taskset.
import { serveApp } from '../src/server/serve.ts';
import { startSimulator } from '../src/sim/index.ts';
import { DIST, OVERLAY_KEY } from './stack.ts';

const [role, baseUrl, wsUrl, apiKey] = process.argv.slice(2);
if (role === 'sim') {
	const sim = await startSimulator({
		quiet: true,
		audioDelayMs: 0,
		perKeyPerMinute: 100_000_000,
		perIpPerMinute: 100_000_000
	});
	console.log(
		JSON.stringify({
			origin: sim.origin,
			baseUrl: sim.baseUrl,
			wsUrl: sim.wsUrl,
			apiKey: sim.apiKey
		})
	);
} else if (role === 'endpoint') {
	const served = await serveApp({
		mode: 'live',
		upstream: { baseUrl, wsUrl, apiKey },
		overlayKey: OVERLAY_KEY,
		dist: DIST
	});
	console.log(JSON.stringify({ origin: served.origin }));
} else {
	console.error('usage: endpoint-servers.ts sim | endpoint <base_url> <ws_url> <api_key>');
	process.exit(2);
}
