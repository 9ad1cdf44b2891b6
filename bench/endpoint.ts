// Token endpoint cost: the latency it adds to a proxied call (the same call straight to the
// simulator and through the endpoint, alternately, on kept-alive loopback connections), and the
// proxied calls a second it serves on one core. The simulator and the endpoint run as separate
// processes, each pinned to its own core when taskset exists.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { hasTaskset, quantile } from './lib.ts';
import { OVERLAY_KEY } from './stack.ts';

const script = fileURLToPath(new URL('./endpoint-servers.ts', import.meta.url));

function child(core: number, args: string[]): Promise<{ proc: ChildProcess; info: any }> {
	// node --import tsx: one process per server (the tsx command would add a parent process).
	const node = [process.execPath, '--import', 'tsx', script, ...args];
	const [cmd, ...argv] = hasTaskset() ? ['taskset', '-c', String(core), ...node] : node;
	const proc = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
	return new Promise((resolve, reject) => {
		const lines = createInterface({ input: proc.stdout! });
		lines.once('line', (line) => resolve({ proc, info: JSON.parse(line) }));
		proc.once('exit', (code) => reject(new Error(`bench: ${args[0]} server exited (${code})`)));
	});
}

export interface EndpointRun {
	/** Per pair, proxied minus direct (ms): p50 and p99. */
	addedP50Ms: number;
	addedP99Ms: number;
	directP50Ms: number;
	proxiedP50Ms: number;
	/** Proxied calls answered per second, concurrency 16, endpoint on one core. */
	rps: number;
	pinned: boolean;
}

async function timed(url: string, headers: Record<string, string>): Promise<number> {
	const t = performance.now();
	const res = await fetch(url, { headers });
	await res.arrayBuffer();
	if (res.status !== 200) throw new Error(`bench: ${url} answered ${res.status}`);
	return performance.now() - t;
}

export async function endpointRun(opts: {
	pairs: number;
	rpsSeconds: number;
}): Promise<EndpointRun> {
	const sim = await child(1, ['sim']);
	let endpoint: { proc: ChildProcess; info: any } | undefined;
	try {
		endpoint = await child(0, ['endpoint', sim.info.baseUrl, sim.info.wsUrl, sim.info.apiKey]);
		const direct = () =>
			timed(`${sim.info.baseUrl}/tts/queue`, { authorization: `Bearer ${sim.info.apiKey}` });
		const proxied = () =>
			timed(`${endpoint!.info.origin}/api/tts/queue`, { 'x-overlay-key': OVERLAY_KEY });
		for (let i = 0; i < 100; i++) {
			await direct();
			await proxied();
		}
		const added: number[] = [];
		const d: number[] = [];
		const p: number[] = [];
		for (let i = 0; i < opts.pairs; i++) {
			// Alternate which goes first so that neither always meets a warmer connection.
			const [a, b] = i % 2 ? [await direct(), await proxied()] : [NaN, NaN];
			const [b2, a2] = i % 2 ? [NaN, NaN] : [await proxied(), await direct()];
			const dd = i % 2 ? a : a2;
			const pp = i % 2 ? b : b2;
			d.push(dd);
			p.push(pp);
			added.push(pp - dd);
		}
		// Throughput: 16 callers back to back for rpsSeconds.
		let count = 0;
		const end = performance.now() + opts.rpsSeconds * 1000;
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
		return {
			addedP50Ms: quantile(added, 0.5),
			addedP99Ms: quantile(added, 0.99),
			directP50Ms: quantile(d, 0.5),
			proxiedP50Ms: quantile(p, 0.5),
			rps,
			pinned: hasTaskset()
		};
	} finally {
		endpoint?.proc.kill();
		sim.proc.kill();
	}
}
