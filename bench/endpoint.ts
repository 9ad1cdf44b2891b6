// Token endpoint cost: the latency it adds to a proxied call (the same call straight to the
// simulator and through the endpoint, alternately, on kept-alive loopback connections), and the
// proxied calls a second it serves on one core. The simulator and the endpoint run as separate
// processes, each pinned to its own core when taskset exists; the measuring client runs in a third,
// fresh process (not the bench's own, which carries the heap of the parts before it).
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ClientFigures, ClientSettings } from './endpoint-servers.ts';
import { hasTaskset } from './lib.ts';

const script = fileURLToPath(new URL('./endpoint-servers.ts', import.meta.url));

/**
 * Pairs run before the counted ones. The first thousands of calls run in three cold processes
 * (V8 still compiling and tiering up the HTTP, Hono and simulator code, heaps still growing): on a
 * 2-core machine the added p99 kept falling for about 2,000 pairs (from about 5 ms to 2 to 3 ms with
 * 100 pairs of warm-up, as this bench had), and so did the direct calls' own p99 (3 to 4 ms to
 * 0.3 ms). The endpoint runs for hours: what counts is how it answers once warm.
 */
const WARMUP_PAIRS = 2_000;

function child(core: number | null, args: string[]): Promise<{ proc: ChildProcess; info: any }> {
	// node --import tsx: one process per role (the tsx command would add a parent process).
	const node = [process.execPath, '--import', 'tsx', script, ...args];
	const [cmd, ...argv] =
		core !== null && hasTaskset() ? ['taskset', '-c', String(core), ...node] : node;
	const proc = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
	return new Promise((resolve, reject) => {
		const lines = createInterface({ input: proc.stdout! });
		lines.once('line', (line) => resolve({ proc, info: JSON.parse(line) }));
		proc.once('exit', (code) => reject(new Error(`bench: ${args[0]} process exited (${code})`)));
	});
}

export interface EndpointRun {
	/** Per pair, proxied minus direct (ms): p50 and p99. */
	addedP50Ms: number;
	addedP99Ms: number;
	directP50Ms: number;
	proxiedP50Ms: number;
	/**
	 * The p99 of the same per-pair difference between two direct calls: the added p99 that an
	 * endpoint costing nothing would get on this machine at that moment.
	 */
	noiseP99Ms: number;
	warmupPairs: number;
	/** Proxied calls answered per second, concurrency 16, endpoint on one core. */
	rps: number;
	pinned: boolean;
}

export async function endpointRun(opts: {
	pairs: number;
	rpsSeconds: number;
}): Promise<EndpointRun> {
	const sim = await child(1, ['sim']);
	let endpoint: { proc: ChildProcess; info: any } | undefined;
	let client: { proc: ChildProcess; info: any } | undefined;
	try {
		endpoint = await child(0, ['endpoint', sim.info.baseUrl, sim.info.wsUrl, sim.info.apiKey]);
		const settings: ClientSettings = {
			simBaseUrl: sim.info.baseUrl,
			apiKey: sim.info.apiKey,
			endpointOrigin: endpoint.info.origin,
			warmupPairs: WARMUP_PAIRS,
			pairs: opts.pairs,
			rpsSeconds: opts.rpsSeconds
		};
		// Not pinned: it waits on one server or the other, on either core.
		client = await child(null, ['client', JSON.stringify(settings)]);
		const figures = client.info as ClientFigures;
		return { ...figures, warmupPairs: WARMUP_PAIRS, pinned: hasTaskset() };
	} finally {
		client?.proc.kill();
		endpoint?.proc.kill();
		sim.proc.kill();
	}
}
