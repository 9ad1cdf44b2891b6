// Child processes of the endpoint bench (endpoint.ts): `sim` runs the simulator (rate limits lifted),
// `endpoint <base_url> <ws_url> <api_key>` runs the token endpoint in front of it; each prints one
// JSON line with its origin and runs until killed (endpoint.ts pins each to its own core with
// taskset). `client <settings JSON>` measures them and prints one JSON line with the figures.
import http from 'node:http';
import { DOCUMENTED_POLICY } from '../src/core/rate-budget.ts';
import { UNLIMITED_READS } from '../src/core/read-allowance.ts';
import { serveApp } from '../src/server/serve.ts';
import { startSimulator } from '../src/sim/index.ts';
import { quantile } from './lib.ts';
import { DIST, OVERLAY_KEY } from './stack.ts';

export interface ClientSettings {
	simBaseUrl: string;
	apiKey: string;
	endpointOrigin: string;
	/** Alternating pairs run first and are not counted (JIT tiers, heap sizes: see endpoint.ts). */
	warmupPairs: number;
	pairs: number;
	rpsSeconds: number;
}

export interface ClientFigures {
	addedP50Ms: number;
	addedP99Ms: number;
	directP50Ms: number;
	proxiedP50Ms: number;
	noiseP99Ms: number;
	rps: number;
}

const [role, ...rest] = process.argv.slice(2);
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
	const [baseUrl, wsUrl, apiKey] = rest;
	const served = await serveApp({
		mode: 'live',
		upstream: { baseUrl, wsUrl, apiKey },
		overlayKey: OVERLAY_KEY,
		dist: DIST,
		// The figure is the endpoint's cost per call: thousands of reads on one key, never refused
		// by the read allowance or held for the upstream's limits (the simulator's are lifted too).
		readLimits: UNLIMITED_READS,
		budgetPolicy: { ...DOCUMENTED_POLICY, perIp: 100_000_000, perAuthorization: 100_000_000 },
		// A forwarded call's cost: with the live view on, the queue read would be answered from it.
		intake: false
	});
	console.log(JSON.stringify({ origin: served.origin }));
} else if (role === 'client') {
	const figures = await measure(JSON.parse(rest[0]) as ClientSettings);
	process.stdout.write(JSON.stringify(figures) + '\n', () => process.exit(0));
} else {
	console.error(
		'usage: endpoint-servers.ts sim | endpoint <base_url> <ws_url> <api_key> | client <settings JSON>'
	);
	process.exit(2);
}

/**
 * The measuring client: node:http on a keep-alive Agent (one connection per server while the calls
 * are one at a time). Global fetch would add its own garbage (it keeps each call's objects until a
 * full GC) and with it client GC pauses to whichever call they land in.
 */
async function measure(s: ClientSettings): Promise<ClientFigures> {
	const agent = new http.Agent({ keepAlive: true });
	const timed = (url: string, headers: Record<string, string>) =>
		new Promise<number>((resolve, reject) => {
			const t = performance.now();
			http
				.get(url, { agent, headers }, (res) => {
					res.resume();
					res.once('error', reject);
					res.once('end', () => {
						if (res.statusCode !== 200)
							reject(new Error(`bench: ${url} answered ${res.statusCode}`));
						else resolve(performance.now() - t);
					});
				})
				.once('error', reject);
		});
	const direct = () => timed(`${s.simBaseUrl}/tts/queue`, { authorization: `Bearer ${s.apiKey}` });
	const proxied = () =>
		timed(`${s.endpointOrigin}/api/tts/queue`, { 'x-overlay-key': OVERLAY_KEY });

	/**
	 * Per pair, b's time minus a's; which of the two goes first alternates, so that neither always
	 * meets a warmer connection.
	 */
	async function pairs(n: number, a: () => Promise<number>, b: () => Promise<number>) {
		const diff: number[] = [];
		const as: number[] = [];
		const bs: number[] = [];
		for (let i = 0; i < n; i++) {
			let ta: number, tb: number;
			if (i % 2) {
				ta = await a();
				tb = await b();
			} else {
				tb = await b();
				ta = await a();
			}
			as.push(ta);
			bs.push(tb);
			diff.push(tb - ta);
		}
		return { diff, as, bs };
	}

	await pairs(s.warmupPairs, direct, proxied);
	const measured = await pairs(s.pairs, direct, proxied);
	// The same measurement with the endpoint left out: what a proxy that cost nothing would score
	// on this machine at this moment.
	const noise = await pairs(s.pairs, direct, direct);

	// Throughput: 16 callers back to back for rpsSeconds.
	let count = 0;
	const end = performance.now() + s.rpsSeconds * 1000;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: 16 }, async () => {
			while (performance.now() < end) {
				await proxied();
				count++;
			}
		})
	);
	const rps = count / ((performance.now() - started) / 1000);
	agent.destroy();
	return {
		addedP50Ms: quantile(measured.diff, 0.5),
		addedP99Ms: quantile(measured.diff, 0.99),
		directP50Ms: quantile(measured.as, 0.5),
		proxiedP50Ms: quantile(measured.bs, 0.5),
		noiseP99Ms: quantile(noise.diff, 0.99),
		rps
	};
}
