// `npm run bench:hosted`: hosted mode on several instances under load. A throwaway PostgreSQL
// server, the simulator with N streamers, three instances of the hosted server (each its own
// process, each calling from its own loopback address, each reaching PostgreSQL over its Unix
// socket unless --db=tcp) and a load client that signs the streamers
// in and plays N x 5 browser sources with the widgets' client code in Node. Prints min, median and
// max over the runs and writes bench-results/hosted-latest.{json,md} (ignored); `--publish` writes
// them to bench/results/ instead (tracked) and refreshes the README's Performance table.
//
//   npm run bench:hosted                          50 streamers, 3 runs, 60 s connect window,
//                                                 5-minute refresh storm and chaos
//   npm run bench:hosted -- --quick               1 run, 15 s window, 1-minute storm and chaos
//   npm run bench:hosted -- --streamers=1000 --minutes=2 --only=connect,refresh
//   npm run bench:hosted -- --only=capacity --streamers=800 --from=200 --step=50
//   npm run bench:hosted -- --only=refresh --cut=at-once   every held token dies at the same instant
//   npm run bench:hosted -- --only=refresh --db=tcp        the instances reach PostgreSQL over TCP
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { postgresMissing, startPostgres } from '../../tests/integration/postgres-server.ts';
import { machine, quantile, row, table, type Row } from '../lib.ts';
import { publishReadme, replacing, RESULTS } from '../readme.ts';
import type { CallsResult, ConnectResult, ReadsResult, SourcesResult } from './client.ts';
import { cpuMeter, postgresPids } from './cpu.ts';
import { startSampler } from './sampler.ts';
import {
	freePort,
	histogramQuantile,
	Instance,
	summaryMean,
	tenantOf,
	Worker
} from './processes.ts';
import type { SimReady, SimStats, StepStats } from './sim.ts';

const PARTS = ['connect', 'refresh', 'chaos', 'capacity'] as const;
const { values: args } = parseArgs({
	options: {
		streamers: { type: 'string', default: '50' },
		minutes: { type: 'string' },
		runs: { type: 'string' },
		window: { type: 'string' },
		quick: { type: 'boolean', default: false },
		only: { type: 'string' },
		sources: { type: 'string', default: '5' },
		// How the refresh storm cuts the access tokens the instances hold (an hour long): each at a
		// random moment of the first 5 s (`spread`: as if they had always been 5-second tokens), or
		// all at 5 s (`at-once`: a mass revocation, 1,000 streamers refreshing in the same second).
		cut: { type: 'string', default: 'spread' },
		// The capacity ramp: streamers from `from` up to --streamers by `step`, each step `periods`
		// tip periods long, on a clock `scale` times faster than the documented one.
		from: { type: 'string' },
		step: { type: 'string' },
		periods: { type: 'string' },
		scale: { type: 'string' },
		// How the instances reach PostgreSQL: its Unix socket (`socket`), as a deployment with the
		// database on the same machine would, or TCP on loopback (`tcp`), whose every send also runs
		// the receiving side of the kernel's TCP stack in the sender's turn (docs/performance.md).
		db: { type: 'string', default: 'socket' },
		publish: { type: 'boolean', default: false }
	}
});
const quick = args.quick;
const N = Number(args.streamers);
const minutes = Number(args.minutes ?? (quick ? 1 : 5));
const runs = Number(args.runs ?? (quick ? 1 : 3));
const windowS = Number(args.window ?? (quick ? 15 : 60));
const only = new Set(args.only ? args.only.split(',') : PARTS);
/** Browser sources per streamer (the connect storm's, and the TTS sources of chaos and capacity). */
const SOURCES = Number(args.sources);
if (args.cut !== 'spread' && args.cut !== 'at-once') {
	console.error(`bench:hosted: --cut is spread or at-once, not ${args.cut}`);
	process.exit(2);
}
if (args.db !== 'socket' && args.db !== 'tcp') {
	console.error(`bench:hosted: --db is socket or tcp, not ${args.db}`);
	process.exit(2);
}
const INSTANCES = 3;
/** service-api.md, Limits. */
const PER_IP = 240;
const PER_KEY = 120;
const TIP_EVERY_MIN = 5;
// The ramp's clock: a 15 s window and a tip every 75 s (4x), 6 s and 30 s with --quick (10x).
const scale = Number(args.scale ?? (quick ? 10 : 4));
const rampStep = Number(args.step ?? (quick ? 100 : 50));
const rampFrom = Number(args.from ?? rampStep);
const rampPeriods = Number(args.periods ?? (quick ? 1 : 2));

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
			DATABASE_URL: args.db === 'tcp' ? pg.url : pg.socketUrl,
			OAUTH_CLIENT_ID: ready.clientId,
			TIP_OAUTH_URL: ready.oauthUrl,
			TIP_API_BASE_URL: ready.baseUrl,
			TIP_WS_URL: ready.wsUrl,
			PUBLIC_URL: origins[i],
			SECRET_KEY: 'bench-hosted-secret-key-0123456789abcdefghijkl',
			UPSTREAM_LOCAL_ADDRESS: `127.0.0.${i + 2}`,
			// Names its backends in pg_stat_activity (the sampler's view).
			PGAPPNAME: `instance-${i + 1}`
		})
);
const [client] = await Worker.start<void>('./client.ts', {});
const stats = () => sim.ask<SimStats>({ type: 'stats' });

const figures: Record<string, number[]> = {};
/** Lines printed under the table (what a number cannot say: the first 429's call and budget). */
const notes: string[] = [];
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
			const before = await Promise.all(instances.map((i) => i.mintBuckets()));
			const cpu = meterCpu();
			const r = await client.ask<ConnectResult>({
				type: 'connect',
				windowMs: windowS * 1000,
				sources: SOURCES
			});
			const used = cpu();
			// CPU per source connected (its mint and its socket), per process: what the load costs,
			// whatever else the machine runs.
			const perSource = Object.fromEntries(
				Object.entries(used.seconds).map(([k, v]) => [
					k,
					+((v * 1000) / r.mintMs.length).toFixed(2)
				])
			);
			const after = await Promise.all(instances.map((i) => i.mintBuckets()));
			add('connect: token mint p99', quantile(r.mintMs, 0.99));
			add('connect: token mint p50', quantile(r.mintMs, 0.5));
			add('connect: failures', r.mintFailures + r.notOpen);
			add('connect: mint p99 at the instances', histogramQuantile(before, after, 0.99));
			add('connect: client event-loop delay p99', r.loopDelayMs.p99);
			log(
				`connect: ${r.mintMs.length} mints, p50 ${quantile(r.mintMs, 0.5).toFixed(1)} ms, p99 ${quantile(r.mintMs, 0.99).toFixed(1)} ms, ` +
					`${r.mintFailures} refused ${JSON.stringify(r.mintFailureKinds)}, ${r.notOpen} not open; at the instances p50 ${histogramQuantile(before, after, 0.5).toFixed(1)} ms, ` +
					`p99 ${histogramQuantile(before, after, 0.99).toFixed(1)} ms; client event loop delay p50 ${r.loopDelayMs.p50.toFixed(1)} ms, ` +
					`p99 ${r.loopDelayMs.p99.toFixed(1)} ms, max ${r.loopDelayMs.max.toFixed(0)} ms; CPU (cores) ${JSON.stringify(used.share)}, CPU ms per mint ${JSON.stringify(perSource)}`
			);
		}
		if (only.has('refresh')) {
			const cpu = meterCpu();
			const before = await stats();
			const metricsBefore = await Promise.all(instances.map((i) => i.metrics()));
			const sampler = startSampler(pg.url, origins);
			await sampler.start();
			await sim.ask({ type: 'access-ttl', seconds: 5, spread: args.cut === 'spread' });
			const r = await client.ask<ReadsResult>({
				type: 'reads',
				ms: minutes * 60_000,
				everyMs: 2000
			});
			await sim.ask({ type: 'access-ttl', seconds: 3600 });
			const sampled = await sampler.stop();
			const used = cpu();
			mkdirSync('bench-results', { recursive: true });
			writeFileSync(
				`bench-results/hosted-refresh-samples-${run}.json`,
				JSON.stringify({ failedAt: r.failedAt, ...sampled }, null, 1)
			);
			const after = await stats();
			add('refresh: refreshes', after.refreshes - before.refreshes);
			add('refresh: rotated-out tokens presented', after.reuseDetected - before.reuseDetected);
			add('refresh: streamers revoked', after.revoked - before.revoked);
			add('refresh: calls failed', r.failed);
			const metricsAfter = await Promise.all(instances.map((i) => i.metrics()));
			const delta = (name: string) =>
				metricsAfter.reduce(
					(n, a, i) => n + (a.get(name) ?? 0) - (metricsBefore[i].get(name) ?? 0),
					0
				);
			const mean = (name: string, labels = '') => {
				const m = summaryMean(metricsBefore, metricsAfter, name, labels);
				return `${(m.mean * 1000).toFixed(0)} ms x ${m.count}`;
			};
			log(
				`refresh: at the instances, mean time to the lock (or a stored result) ${mean('tip_refresh_lock_wait_seconds')}, ` +
					`holding it ${mean('tip_refresh_lock_held_seconds')}, upstream OAuth request ${mean('tip_upstream_request_seconds', '{kind="oauth"}')}, ` +
					`upstream API request ${mean('tip_upstream_request_seconds', '{kind="api"}')}, ` +
					`API answers 4xx (401s among them: a token that expired on the way) ${delta('tip_upstream_requests_total{kind="api",outcome="4xx"}')}`
			);
			log(
				`refresh: ${r.calls} calls, failures ${JSON.stringify(r.failures)}, why ${JSON.stringify(r.why)}, ` +
					`answers by instance ${JSON.stringify(r.byInstance)}, read p50 ${r.p50Ms.toFixed(0)} ms, ` +
					`p99 ${r.p99Ms.toFixed(0)} ms, max ${r.maxMs.toFixed(0)} ms; peaks once a second ${JSON.stringify(sampled.peaks)}; ` +
					`CPU (cores) ${JSON.stringify(used.share)}`
			);
		}
		if (only.has('chaos')) await chaos();
		if (only.has('capacity')) await capacity();
	}
} finally {
	await client.ask({ type: 'sources', on: false }).catch(() => {});
	client.stop();
	await Promise.all(instances.map((i) => i.stop()));
	sim.stop();
	await pg.stop();
}

/** Tips to every streamer while one instance after another is SIGKILLed and restarted. */
async function chaos(): Promise<void> {
	const before = await stats();
	// Two of each streamer's five sources on air: their claims race for every tip.
	await client.ask({
		type: 'sources',
		on: true,
		sources: SOURCES,
		shown: Math.min(2, SOURCES),
		spreadMs: windowS * 1000
	});
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
	// Let the last tips play. A start whose answer died with its instance leaves a claim that no
	// source can prove its own; another source takes it over after the takeover time (90 s,
	// DEFAULT_CLAIM_CONFIG), so a tip still queued a minute after the end may only be late.
	// Two takeovers in a row (a streamer whose next start was lost too) fit in 300 s.
	const queuedAt: Record<number, number> = {};
	for (let waited = 0; waited < 300_000; waited += 1000) {
		const { pending } = await stats();
		if (waited % 60_000 === 0 && waited > 0) queuedAt[waited / 1000] = pending;
		if (pending === 0) break;
		await sleep(1000);
	}
	await client.ask({ type: 'sources', on: false });
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
	log(
		`chaos: ${tips} tips, ${played} played, ${after.pending} still queued; still queued after the end (claims waiting for a takeover), by seconds: ${JSON.stringify(queuedAt)}`
	);
}

/** CPU from now on (cpu.ts): the simulator, the client, each instance and PostgreSQL. */
function meterCpu() {
	return cpuMeter({
		client: () => [client.child.pid!],
		sim: () => [sim.child.pid!],
		...Object.fromEntries(instances.map((i, k) => [`instance ${k + 1}`, () => [i.pid!]])),
		postgres: () => postgresPids(new URL(pg.url).port)
	});
}

/** What one step of the capacity ramp saw. */
interface Step {
	streamers: number;
	sim: StepStats;
	calls: CallsResult;
}

/**
 * Streamers per egress address: every streamer's five TTS sources connected (one on air), all
 * calls through one instance (one address, 127.0.0.2) under the documented limits, and ever more
 * streamers getting a tip per period until the first 429 reaches a call, from the upstream or
 * from the instance's own budget. The clock runs `scale` times faster: the simulator's rate window
 * and the tip period both shrink by it, so a step sees the calls a real one would in a minute.
 */
async function capacity(): Promise<void> {
	const windowMs = 60_000 / scale;
	const periodMs = (TIP_EVERY_MIN * 60_000) / scale;
	// Connecting is the connect storm's figure: here it runs through every instance, unlimited.
	await sim.ask({ type: 'limits', perIp: 1_000_000, perKey: PER_KEY, windowMs: 60_000 });
	const open = await client.ask<SourcesResult>({
		type: 'sources',
		on: true,
		sources: SOURCES,
		shown: 1,
		spreadMs: windowS * 1000
	});
	log(`capacity: ${open.sources} sources, ${open.notOpen} not open`);
	// Their first snapshots read, the sources are idle: nothing is called until a tip comes.
	await sleep(5000);
	await client.ask({ type: 'route', instances: [origins[0]] });
	await sim.ask({ type: 'limits', perIp: PER_IP, perKey: PER_KEY, windowMs });
	let clean: Step | null = null;
	let limited: Step | null = null;
	for (let n = Math.min(rampFrom, N); n <= N && !limited; n += rampStep) {
		await sim.ask({ type: 'mark' });
		await client.ask({ type: 'calls' });
		await sim.ask({ type: 'schedule', streamers: n, periodMs });
		await sleep(rampPeriods * periodMs);
		const step: Step = {
			streamers: n,
			sim: await sim.ask<StepStats>({ type: 'step' }),
			calls: await client.ask<CallsResult>({ type: 'calls' })
		};
		log(`capacity: ${describe(step)}`);
		if (step.sim.limited.length || step.calls.limited.length) limited = step;
		else clean = step;
	}
	await sim.ask({ type: 'schedule', streamers: 0, periodMs });
	for (let waited = 0; waited < 60_000 && (await stats()).pending > 0; waited += 500)
		await sleep(500);
	await client.ask({ type: 'sources', on: false });
	await client.ask({ type: 'route', instances: origins });
	await sim.ask({ type: 'limits', perIp: 1_000_000, perKey: PER_KEY, windowMs: 60_000 });
	// The first instance still counts its address's budget as the ramp's last window left it
	// (spent, until that window's reset, which it honours): the next part starts after it.
	await sleep(windowMs + 1000);
	if (clean) {
		add('capacity: streamers per egress IP, no 429', clean.streamers);
		add('capacity: upstream calls per tip', clean.sim.requests / clean.sim.tipsCreated);
		add('capacity: peak calls in one window (of 240)', clean.sim.peakPerIpWindow);
		add('capacity: claim call p99', slowest(clean.calls, /\/(start|finish|release)$/, 'p99Ms'));
		add('capacity: slowest claim call', slowest(clean.calls, /\/(start|finish|release)$/));
		const reads = slowest(clean.calls, /^GET \/api\//);
		if (reads > 0) add('capacity: slowest read', reads);
		add('capacity: tip queued to played p99', quantile(clean.sim.tipMs, 0.99));
	}
	if (limited) {
		add('capacity: streamers at the first 429', limited.streamers);
		notes.push(`capacity, first 429: ${first429(limited)}`);
	} else notes.push(`capacity: no 429 up to ${N} streamers (the most this run signed in)`);
}

/** The longest call of these kinds in a step (ms), or the worst kind's p99: how late calls got. */
function slowest(calls: CallsResult, kinds: RegExp, of: 'maxMs' | 'p99Ms' = 'maxMs'): number {
	const max = Object.entries(calls.kinds)
		.filter(([kind]) => kinds.test(kind))
		.map(([, k]) => k[of]);
	return max.length ? Math.max(...max) : 0;
}

/** Where the first 429s came from: the upstream's first and the instance's own first. */
function first429(step: Step): string {
	const budget = (b: string) => (b === 'ip' ? 'per-IP budget' : `per-${b} budget`);
	const up = step.sim.limited[0];
	const here = step.calls.limited.find((c) => !up || c.at < up.t) ?? null;
	const parts = [
		here &&
			`the instance's own budget answered 429 to ${here.call} (its ${budget(here.budget)}) before sending it`,
		up &&
			`the upstream answered 429 to ${up.call} (its ${budget(up.budget)}; ${step.sim.limited.length} in the step)`
	].filter(Boolean);
	return `at ${step.streamers} streamers, first ${parts.join('; then ')}`;
}

function describe(step: Step): string {
	const { sim: s, calls } = step;
	const claims = slowest(calls, /\/(start|finish|release)$/);
	return (
		`${step.streamers} streamers: ${s.tipsCreated} tips, ${s.tipsPlayed} played, ` +
		`${s.requests} upstream calls (${(s.requests / Math.max(1, s.tipsCreated)).toFixed(2)} a tip; ` +
		`${JSON.stringify(s.byKind)}), peak ${s.peakPerIpWindow} in a window, ` +
		`429s ${s.limited.length} upstream / ${calls.limited.length} at the client, ` +
		`slowest claim ${claims.toFixed(0)} ms, slowest read ${slowest(calls, /^GET \/api\//).toFixed(0)} ms, ` +
		`tip p50 ${quantile(s.tipMs, 0.5).toFixed(0)} ms p99 ${quantile(s.tipMs, 0.99).toFixed(0)} ms`
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
	'connect: token mint p50': 'ms',
	'connect: mint p99 at the instances': 'ms',
	'connect: client event-loop delay p99': 'ms',
	'capacity: claim call p99': 'ms',
	'capacity: slowest claim call': 'ms',
	'capacity: slowest read': 'ms',
	'capacity: tip queued to played p99': 'ms'
};
const rows: Row[] = Object.entries(figures).map(([name, values]) =>
	row(name, UNITS[name] ?? 'count', values, BUDGETS[name])
);
const m = machine('none (Node clients)');
const setup = [
	`${N} streamers x ${SOURCES} sources, ${INSTANCES} instances, ${runs} run(s)`,
	`PostgreSQL over ${args.db === 'tcp' ? 'TCP on loopback' : 'its Unix socket'}`,
	only.has('connect') && `connect window ${windowS} s`,
	(only.has('refresh') || only.has('chaos')) &&
		`refresh storm (held tokens cut ${args.cut === 'spread' ? 'over 5 s' : 'at once'}) and chaos ${minutes} min`,
	only.has('capacity') &&
		`capacity ramp from ${rampFrom} by ${rampStep}, ${rampPeriods} tip period(s) a step, clock x${scale}`
]
	.filter(Boolean)
	.join(', ');
const md = [
	`Hosted bench (${setup}) on ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}, load average ${m.loadAverage.join(' ')} at the end, ${m.date}`,
	'',
	table(rows),
	...(notes.length ? ['', ...notes.map((n) => `- ${n}`)] : [])
].join('\n');
console.log('\n' + md);
mkdirSync('bench-results', { recursive: true });
writeFileSync(
	'bench-results/hosted-latest.json',
	JSON.stringify({ machine: m, setup, rows }, null, 2)
);
writeFileSync('bench-results/hosted-latest.md', md + '\n');
if (args.publish) {
	// The whole table beside its JSON, as `npm run bench -- --publish` keeps bench/results/latest.md;
	// docs/performance.md links it and quotes the main figures.
	const table = RESULTS.hosted.replace(/\.json$/, '.md');
	writeFileSync(table, md + '\n');
	const kept = replacing('./', 'hosted', { machine: m, setup, rows });
	writeFileSync(RESULTS.hosted, JSON.stringify(kept, null, '\t') + '\n');
	publishReadme('./');
	console.log(`published into ${table}, ${RESULTS.hosted} and README.md`);
}
process.exit(rows.every((r) => r.met !== false) ? 0 : 1);
