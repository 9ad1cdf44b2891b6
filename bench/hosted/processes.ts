// The hosted bench's processes: the simulator and the load client (forked, spoken to over IPC) and
// the instances of the hosted server (`npm start` with HOSTED=1, each on its own port and its own
// loopback address, killed and restarted at will).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export { freePort } from '../../tests/fixtures/ports.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SVELTE_MODULES = new URL('./svelte-modules.mjs', import.meta.url).href;
/** The upstream's per-IP limit an instance keeps (BENCH_UPSTREAM_PER_IP, instance-limits.ts). */
const INSTANCE_LIMITS = new URL('./instance-limits.ts', import.meta.url).href;

/**
 * BENCH_CPU_PROF=<dir>: every process of the bench (simulator, client, instances) writes a V8 CPU
 * profile there when it exits (open it in Chrome DevTools' Performance panel).
 */
const profile = process.env.BENCH_CPU_PROF
	? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
	: [];

/** The simulator's bench streamers: tn_bench_0, tn_bench_1, ... */
export const tenantOf = (i: number) => `tn_bench_${i}`;

/** A forked TypeScript process and a request/answer exchange over its IPC channel. */
export class Worker {
	private constructor(readonly child: ChildProcess) {}

	static async start<R>(file: string, env: Record<string, string>): Promise<[Worker, R]> {
		const child = fork(fileURLToPath(new URL(file, import.meta.url)), [], {
			// tsx for TypeScript; svelte-modules.mjs for the widgets' rune modules (sources.ts).
			execArgv: ['--import', 'tsx', '--import', SVELTE_MODULES, ...profile],
			env: { ...process.env, ...env },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc']
		});
		const first = await new Promise<{ ready?: R }>((resolve, reject) => {
			child.once('message', (m) => resolve(m as { ready?: R }));
			child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before ready`)));
		});
		return [new Worker(child), first.ready as R];
	}

	ask<T>(message: object): Promise<T> {
		return new Promise((resolve, reject) => {
			this.child.once('message', (m: { type: string; result?: T; stats?: T; error?: string }) =>
				m.type === 'error' ? reject(new Error(m.error)) : resolve((m.result ?? m.stats) as T)
			);
			this.child.send(message);
		});
	}

	stop(): void {
		this.child.kill('SIGTERM');
	}
}

/** One instance of the hosted server; `kill()` is SIGKILL, `start()` runs it again. */
export class Instance {
	private child: ChildProcess | null = null;
	readonly origin: string;
	/** Settings over its own from its next start on (the read flood's one upstream address). */
	overrides: Record<string, string> = {};

	constructor(
		readonly port: number,
		private readonly env: Record<string, string>
	) {
		this.origin = `http://127.0.0.1:${port}`;
	}

	async start(): Promise<void> {
		const argv = [...profile, '--import', 'tsx', '--import', INSTANCE_LIMITS, 'src/main.ts'];
		const child = spawn(process.execPath, argv, {
			cwd: root,
			env: {
				...process.env,
				...this.env,
				...this.overrides,
				HOST: '127.0.0.1',
				PORT: String(this.port)
			},
			stdio: ['ignore', 'ignore', 'pipe']
		});
		let stderr = '';
		// BENCH_LOG_DIR=<dir>: each instance's stderr also goes to <dir>/instance-<port>.log.
		const logFile = process.env.BENCH_LOG_DIR
			? `${process.env.BENCH_LOG_DIR}/instance-${this.port}.log`
			: null;
		child.stderr!.on('data', (d: Buffer) => {
			stderr = (stderr + d.toString()).slice(-4000);
			if (logFile) appendFileSync(logFile, d);
		});
		this.child = child;
		const deadline = Date.now() + 60_000;
		while (Date.now() < deadline) {
			if (child.exitCode !== null) throw new Error(`instance :${this.port} exited: ${stderr}`);
			const ok = await fetch(`${this.origin}/healthz`)
				.then((r) => r.ok)
				.catch(() => false);
			if (ok) return;
			await new Promise((r) => setTimeout(r, 200));
		}
		throw new Error(`instance :${this.port} did not start in 60 s: ${stderr}`);
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** Every sample of its /metrics (`name{labels}` -> value); empty if it does not answer. */
	async metrics(): Promise<Map<string, number>> {
		const out = new Map<string, number>();
		try {
			const text = await (await fetch(`${this.origin}/metrics`)).text();
			for (const m of text.matchAll(/^([a-z_]+(?:\{[^}]*\})?) (\S+)$/gm))
				out.set(m[1], Number(m[2]));
		} catch {
			// Down (chaos): nothing.
		}
		return out;
	}

	kill(): void {
		this.child?.kill('SIGKILL');
		this.child = null;
	}

	async stop(): Promise<void> {
		const child = this.child;
		if (!child) return;
		this.child = null;
		child.kill('SIGTERM');
		await new Promise<void>((resolve) => {
			const t = setTimeout(() => {
				child.kill('SIGKILL');
				resolve();
			}, 5000);
			child.once('exit', () => {
				clearTimeout(t);
				resolve();
			});
		});
	}
}

/** POST /token as an instance timed it: its histogram's cumulative buckets (s -> count) in `metrics`. */
export function mintBuckets(metrics: Map<string, number>): Map<number, number> {
	const out = new Map<number, number>();
	for (const [name, v] of metrics) {
		const le = /^tip_token_mint_seconds_bucket\{le="([^"]+)"\}$/.exec(name)?.[1];
		if (le !== undefined) out.set(le === '+Inf' ? Infinity : Number(le), v);
	}
	return out;
}

/** A summary's mean over a phase, all instances together: (sum after - before) / (count ...). */
export function summaryMean(
	before: Map<string, number>[],
	after: Map<string, number>[],
	name: string,
	labels = ''
): { mean: number; count: number } {
	const delta = (suffix: string) =>
		after.reduce(
			(n, a, i) =>
				n +
				(a.get(`${name}_${suffix}${labels}`) ?? 0) -
				(before[i]?.get(`${name}_${suffix}${labels}`) ?? 0),
			0
		);
	const count = delta('count');
	return { mean: count ? delta('sum') / count : NaN, count };
}

/**
 * The quantile q of the mints counted between two readings of every instance's histogram, as
 * Prometheus' histogram_quantile estimates it (linear within the bucket; ms).
 */
export function histogramQuantile(
	before: Map<number, number>[],
	after: Map<number, number>[],
	q: number
): number {
	const bounds = [...(after[0]?.keys() ?? [])].sort((a, b) => a - b);
	const counts = bounds.map((le) =>
		after.reduce((n, a, i) => n + (a.get(le) ?? 0) - (before[i]?.get(le) ?? 0), 0)
	);
	const total = counts.at(-1) ?? 0;
	if (!total) return NaN;
	const rank = q * total;
	for (let i = 0; i < bounds.length; i++) {
		if (counts[i] < rank) continue;
		if (bounds[i] === Infinity) return bounds[i - 1] * 1000;
		const lo = i === 0 ? 0 : bounds[i - 1];
		const below = i === 0 ? 0 : counts[i - 1];
		return (lo + ((bounds[i] - lo) * (rank - below)) / (counts[i] - below)) * 1000;
	}
	return NaN;
}
