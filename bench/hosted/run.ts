// `npm run bench:hosted`: hosted mode on several instances under load. A throwaway PostgreSQL
// server, the simulator with N streamers, three instances of the hosted server (each its own
// process, each calling from its own loopback address) and a load client that signs the streamers
// in and plays N x 5 browser sources with the widgets' client code in Node. Prints min, median and
// max over the runs and writes bench-results/hosted-latest.{json,md} (ignored); `--publish` puts the
// table into docs/performance.md.
//
//   npm run bench:hosted                          50 streamers, 3 runs, 60 s connect window,
//                                                 5-minute refresh storm and chaos
//   npm run bench:hosted -- --quick               1 run, 15 s window, 1-minute storm and chaos
//   npm run bench:hosted -- --streamers=1000 --minutes=2 --only=connect,refresh
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { postgresMissing, startPostgres } from '../../tests/integration/postgres-server.ts';
import { machine, quantile, row, table, type Row } from '../lib.ts';
import { publishReadme, replacing, RESULTS } from '../readme.ts';
import type { ConnectResult, ReadsResult } from './client.ts';
import { freePort, Instance, tenantOf, Worker } from './processes.ts';
import type { SimReady, SimStats } from './sim.ts';

const PARTS = ['connect', 'refresh', 'chaos', 'capacity'] as const;
const { values: args } = parseArgs({
	options: {
		streamers: { type: 'string', default: '50' },
		minutes: { type: 'string' },
		runs: { type: 'string' },
		window: { type: 'string' },
		quick: { type: 'boolean', default: false },
		only: { type: 'string' },
		publish: { type: 'boolean', default: false }
	}
});
const quick = args.quick;
const N = Number(args.streamers);
const minutes = Number(args.minutes ?? (quick ? 1 : 5));
const runs = Number(args.runs ?? (quick ? 1 : 3));
const windowS = Number(args.window ?? (quick ? 15 : 60));
const only = new Set(args.only ? args.only.split(',') : PARTS);
const SOURCES = 5;
const INSTANCES = 3;
/** service-api.md, Limits. */
const PER_IP = 240;
const TIP_EVERY_MIN = 5;

if (postgresMissing()) {
	console.error(`bench:hosted: ${postgresMissing()}`);
	process.exit(2);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (m: string) =>
	console.log(`[bench:hosted ${new Date().toISOString().slice(11, 19)}] ${m}`);

const pg = await startPostgres();
const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
const origins = ports.map((p) => `http://127.0.0.1:${p}`);
// The storms measure the instances, not the upstream's per-IP limit: 5 x N mints in a minute from
// three addresses would need N / 144 addresses. Per authorization it is the documented 120.
const [sim, ready] = await Worker.start<SimReady>('./sim.ts', {
	BENCH_SIM: JSON.stringify({
		streamers: N,
		perIpPerMinute: 1_000_000,
		perKeyPerMinute: 120,
		redirectUris: origins.map((o) => `${o}/auth/callback`)
	})
});
const instances = ports.map(
	(port, i) =>
		new Instance(port, {
			HOSTED: '1',
			SKIP_BUILD: '1',
			DATABASE_URL: pg.url,
			OAUTH_CLIENT_ID: ready.clientId,
			TIP_OAUTH_URL: ready.oauthUrl,
			TIP_API_BASE_URL: ready.baseUrl,
			TIP_WS_URL: ready.wsUrl,
			PUBLIC_URL: origins[i],
			SECRET_KEY: 'bench-hosted-secret-key-0123456789abcdefghijkl',
			UPSTREAM_LOCAL_ADDRESS: `127.0.0.${i + 2}`
		})
);
const [client] = await Worker.start<void>('./client.ts', {});
const stats = () => sim.ask<SimStats>({ type: 'stats' });

const figures: Record<string, number[]> = {};
const add = (name: string, v: number) => (figures[name] ??= []).push(v);

try {
	// The first instance migrates the empty database; the others start once it has.
	await instances[0].start();
	await Promise.all(instances.slice(1).map((i) => i.start()));
	log(`${INSTANCES} instances up; signing in ${N} streamers`);
	const tenants = Array.from({ length: N }, (_, i) => tenantOf(i));
	await client.ask({ type: 'signin', instances: origins, sim: ready, streamers: N, tenants });

	for (let run = 1; run <= runs; run++) {
		log(`run ${run} of ${runs}`);
		if (only.has('connect')) {
			const r = await client.ask<ConnectResult>({
				type: 'connect',
				windowMs: windowS * 1000,
				sources: SOURCES
			});
			add('connect: token mint p99', quantile(r.mintMs, 0.99));
			add('connect: token mint p50', quantile(r.mintMs, 0.5));
			add('connect: failures', r.mintFailures + r.notOpen);
			log(`connect: ${r.mintMs.length} mints, p99 ${quantile(r.mintMs, 0.99).toFixed(1)} ms`);
		}
		if (only.has('refresh')) {
			const before = await stats();
			await sim.ask({ type: 'access-ttl', seconds: 5 });
			const r = await client.ask<ReadsResult>({
				type: 'reads',
				ms: minutes * 60_000,
				everyMs: 2000
			});
			await sim.ask({ type: 'access-ttl', seconds: 3600 });
			const after = await stats();
			add('refresh: refreshes', after.refreshes - before.refreshes);
			add('refresh: rotated-out tokens presented', after.reuseDetected - before.reuseDetected);
			add('refresh: streamers revoked', after.revoked - before.revoked);
			add('refresh: calls failed', r.failed);
			log(`refresh: ${r.calls} calls, failures ${JSON.stringify(r.failures)}`);
		}
		if (only.has('chaos')) await chaos();
		if (only.has('capacity')) await capacity();
	}
} finally {
	await client.ask({ type: 'claimers', on: false }).catch(() => {});
	client.stop();
	await Promise.all(instances.map((i) => i.stop()));
	sim.stop();
	await pg.stop();
}

/** Tips to every streamer while one instance after another is SIGKILLed and restarted. */
async function chaos(): Promise<void> {
	const before = await stats();
	await client.ask({ type: 'claimers', on: true });
	const end = Date.now() + minutes * 60_000;
	let tips = 0;
	let victim = 0;
	let nextKill = Date.now() + 20_000;
	const tenants = Array.from({ length: N }, (_, i) => tenantOf(i));
	while (Date.now() < end) {
		// A tip for every streamer every 20 s (the figures count each one).
		await sim.ask({ type: 'tips', tenants });
		tips += N;
		while (Date.now() < Math.min(end, nextKill) && Date.now() < end) await sleep(500);
		if (Date.now() >= nextKill) {
			const instance = instances[victim++ % INSTANCES];
			instance.kill();
			log(`chaos: killed :${instance.port}`);
			await instance.start();
			nextKill = Date.now() + 20_000;
		}
	}
	// Let the last tips play.
	for (let waited = 0; waited < 60_000 && (await stats()).pending > 0; waited += 1000)
		await sleep(1000);
	await client.ask({ type: 'claimers', on: false });
	const after = await stats();
	let played = 0;
	let doubled = 0;
	for (const t of tenants) {
		const ids = after.played[t].slice(0, after.played[t].length - before.played[t].length);
		played += new Set(ids).size;
		doubled += ids.length - new Set(ids).size;
	}
	add('chaos: tips lost', tips - played);
	add('chaos: tips doubled', doubled);
	add('chaos: streamers revoked', after.revoked - before.revoked);
	add('chaos: claim calls refused 429', after.limited.claims - before.limited.claims);
	log(`chaos: ${tips} tips, ${played} played, ${after.pending} still queued`);
}

/** Upstream calls per tip per streamer, and so the streamers one egress address carries. */
async function capacity(): Promise<void> {
	await client.ask({ type: 'claimers', on: true });
	await sleep(3000);
	const before = await stats();
	await sim.ask({ type: 'tips', tenants: Array.from({ length: N }, (_, i) => tenantOf(i)) });
	for (let waited = 0; waited < 60_000 && (await stats()).pending > 0; waited += 500)
		await sleep(500);
	const after = await stats();
	await client.ask({ type: 'claimers', on: false });
	const perTip = (after.requests - before.requests) / N;
	add('capacity: upstream calls per tip', perTip);
	add(
		'capacity: streamers per egress IP (computed)',
		Math.floor(PER_IP / (perTip / TIP_EVERY_MIN))
	);
}

const BUDGETS: Record<string, { max?: number; exactly?: number }> = {
	'connect: token mint p99': { max: 50 },
	'connect: failures': { exactly: 0 },
	'refresh: rotated-out tokens presented': { exactly: 0 },
	'refresh: streamers revoked': { exactly: 0 },
	'refresh: calls failed': { exactly: 0 },
	'chaos: tips lost': { exactly: 0 },
	'chaos: tips doubled': { exactly: 0 },
	'chaos: streamers revoked': { exactly: 0 },
	'chaos: claim calls refused 429': { exactly: 0 }
};
const UNITS: Record<string, string> = {
	'connect: token mint p99': 'ms',
	'connect: token mint p50': 'ms'
};
const rows: Row[] = Object.entries(figures).map(([name, values]) =>
	row(name, UNITS[name] ?? 'count', values, BUDGETS[name])
);
const m = machine('none (Node clients)');
const setup = `${N} streamers x ${SOURCES} sources, ${INSTANCES} instances, ${runs} run(s), connect window ${windowS} s, refresh storm and chaos ${minutes} min`;
const md = [
	`Hosted bench (${setup}) on ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}, load average ${m.loadAverage.join(' ')} at the end, ${m.date}`,
	'',
	table(rows)
].join('\n');
console.log('\n' + md);
mkdirSync('bench-results', { recursive: true });
writeFileSync(
	'bench-results/hosted-latest.json',
	JSON.stringify({ machine: m, setup, rows }, null, 2)
);
writeFileSync('bench-results/hosted-latest.md', md + '\n');
if (args.publish) {
	const doc = 'docs/performance.md';
	const text = readFileSync(doc, 'utf8');
	const start = '<!-- bench:hosted -->';
	const end = '<!-- /bench:hosted -->';
	const block = `${start}\n${md}\n${end}`;
	writeFileSync(
		doc,
		text.includes(start)
			? text.replace(new RegExp(`${start}[\\s\\S]*${end}`), block)
			: `${text.trimEnd()}\n\n${block}\n`
	);
	const kept = replacing('./', 'hosted', { machine: m, setup, rows });
	writeFileSync(RESULTS.hosted, JSON.stringify(kept, null, '\t') + '\n');
	publishReadme('./');
	console.log(`published into ${doc}, ${RESULTS.hosted} and README.md`);
}
process.exit(rows.every((r) => r.met !== false) ? 0 : 1);
