// The hosted bench's deployment (bench/hosted/run.ts): a throwaway PostgreSQL server, the
// simulator in its own process, three instances of the hosted server (each its own process, each
// calling the upstream from its own loopback address) and the load client's process, which plays
// the streamers' browsers and browser sources.
import { startPostgres, type PostgresServer } from '../../tests/integration/postgres-server.ts';
import { args, INSTANCES, N, PER_IP } from './args.ts';
import { cpuMeter, postgresPids } from './cpu.ts';
import { freePort, Instance, Worker } from './processes.ts';
import type { SimReady, SimStats } from './sim.ts';

/** A line of the bench's progress, with the time of day. */
export const log = (m: string) =>
	console.log(`[bench:hosted ${new Date().toISOString().slice(11, 19)}] ${m}`);

export interface Deployment {
	pg: PostgresServer;
	/** The simulator's process, and what it told once ready (its addresses, the OAuth app). */
	sim: Worker;
	ready: SimReady;
	/** Constructed, not started: run.ts starts them. */
	instances: Instance[];
	/** Each instance's address, in the order of `instances`. */
	origins: string[];
	client: Worker;
	/** The simulator's counters (refreshes, tips played, 429s...). */
	stats(): Promise<SimStats>;
	/** CPU from now on (cpu.ts): the simulator, the client, each instance and PostgreSQL. */
	meterCpu(): ReturnType<typeof cpuMeter>;
}

/** The simulator's per-IP limit for the storms, and the instances' unless --address-budget=documented. */
export const STORM_PER_IP = 1_000_000;

export async function startDeployment(): Promise<Deployment> {
	const pg = await startPostgres();
	const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
	const origins = ports.map((p) => `http://127.0.0.1:${p}`);
	// The storms measure the instances, not the upstream's per-IP limit: 5 x N mints in a minute from
	// three addresses would need N / 144 addresses. Per authorization it is the documented 120.
	const [sim, ready] = await Worker.start<SimReady>('./sim.ts', {
		BENCH_SIM: JSON.stringify({
			streamers: N,
			perIpPerMinute: STORM_PER_IP,
			perKeyPerMinute: 120,
			redirectUris: origins.map((o) => `${o}/auth/callback`)
		})
	});
	const instances = ports.map(
		(port, i) =>
			new Instance(port, {
				HOSTED: '1',
				SKIP_BUILD: '1',
				DATABASE_URL: args.db === 'tcp' ? pg.url : pg.socketUrl,
				OAUTH_CLIENT_ID: ready.clientId,
				TIP_OAUTH_URL: ready.oauthUrl,
				TIP_API_BASE_URL: ready.baseUrl,
				TIP_WS_URL: ready.wsUrl,
				PUBLIC_URL: origins[i],
				SECRET_KEY: 'bench-hosted-secret-key-0123456789abcdefghijkl',
				UPSTREAM_LOCAL_ADDRESS: `127.0.0.${i + 2}`,
				// Names its backends in pg_stat_activity (the sampler's view).
				PGAPPNAME: `instance-${i + 1}`,
				// The per-IP limit its own budgets keep: the simulator's (instance-limits.ts).
				BENCH_UPSTREAM_PER_IP: String(args['address-budget'] === 'raised' ? STORM_PER_IP : PER_IP)
			})
	);
	const [client] = await Worker.start<void>('./client.ts', {});
	const stats = () => sim.ask<SimStats>({ type: 'stats' });
	const meterCpu = () =>
		cpuMeter({
			client: () => [client.child.pid!],
			sim: () => [sim.child.pid!],
			...Object.fromEntries(instances.map((i, k) => [`instance ${k + 1}`, () => [i.pid!]])),
			postgres: () => postgresPids(new URL(pg.url).port)
		});
	return { pg, sim, ready, instances, origins, client, stats, meterCpu };
}
