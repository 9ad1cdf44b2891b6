// The hosted bench's read flood (bench/hosted/run.ts): what a streamer sees when something floods
// their overlay's reads. Three streamers at once, one TTS source each on air (the widget page's own
// modules, sources.ts: the stored settings read, the queue read, the push channel; short alerts), a
// tip for each every 3 s, while each source's own last GET, exactly as the page sent it (path,
// query, every header; page-reads.ts), is replayed three times at once every 1.5 s
// (flood-reader.ts), and one instance after another is restarted (SIGTERM, drained) every 20 s.
// The balancer adds no X-Forwarded-For (`--xff` to add it). Every instance calls the upstream from
// one address, and the simulator keeps the documented limits for all of them together: 240 calls a
// minute per address, 120 per authorization. The figure is how late tips start: from created to
// the start the upstream accepted.
import { quantile, sleep } from '../lib.ts';
import { args, FLOOD, INSTANCES, minutes, N, PER_IP, PER_KEY } from './args.ts';
import type { CallsResult, SourcesResult } from './client.ts';
import type { FloodResult } from './flood-reader.ts';
import { log, type Deployment } from './deployment.ts';
import type { Figures } from './report.ts';
import type { StepStats } from './sim.ts';

const CLAIM = /\/(start|finish|release)$/;

export async function flood(
	{ client, instances, sim }: Deployment,
	{ add, notes }: Figures
): Promise<void> {
	const streamers = Math.min(FLOOD.streamers, N);
	await oneAddress(instances, true);
	await sim.ask({ type: 'limits', perIp: PER_IP, perKey: PER_KEY, windowMs: 60_000 });
	const open = await client.ask<SourcesResult>({
		type: 'sources',
		on: true,
		sources: 1,
		shown: 1,
		spreadMs: 1000,
		streamers,
		// Alerts shorter than the 3 s between tips (the alert's 4 s and its pause would queue them).
		params: { min_display: '1', gap: '0.5', tiers: 'off' },
		xff: args.xff,
		page: true
	});
	log(`flood: ${open.sources} sources, ${open.notOpen} not open`);
	await sim.ask({ type: 'mark' });
	await client.ask({ type: 'calls' });
	await sim.ask({ type: 'schedule', streamers, periodMs: FLOOD.tipEveryMs });
	const ms = minutes * 60_000;
	const [reads] = await Promise.all([
		client.ask<FloodResult>({
			type: 'flood',
			streamers,
			ms,
			everyMs: FLOOD.readsEveryMs,
			atOnce: FLOOD.readsAtOnce,
			xff: args.xff
		}),
		restarts(instances, ms)
	]);
	await sim.ask({ type: 'schedule', streamers: 0, periodMs: FLOOD.tipEveryMs });
	// The last tips start within a few seconds; a tip that never does counts as not started.
	await sleep(10_000);
	const step = await sim.ask<StepStats>({ type: 'step' });
	const calls = await client.ask<CallsResult>({ type: 'calls' });
	await client.ask({ type: 'sources', on: false });
	// The parts after this one run as before: unlimited per address, each instance its own.
	await sim.ask({ type: 'limits', perIp: 1_000_000, perKey: PER_KEY, windowMs: 60_000 });
	await oneAddress(instances, false);

	const claims429 = Object.entries(calls.kinds)
		.filter(([kind]) => CLAIM.test(kind))
		.reduce((n, [, k]) => n + (k.statuses['429'] ?? 0), 0);
	const upstream429 = step.limited.length;
	const upstreamClaims429 = step.limited.filter((l) => CLAIM.test(l.call)).length;
	const refused = Object.entries(reads.statuses)
		.filter(([status]) => !/^2/.test(status))
		.reduce((n, [, k]) => n + k, 0);
	const addresses = Object.entries(step.sentPerIpWindow);
	const peak = Math.max(0, ...addresses.map(([, n]) => n));
	const queueReads = step.byKind['GET /tts/queue'] ?? 0;
	add('flood: tip created to started p99', quantile(step.startMs, 0.99));
	add('flood: tips started more than 1 s late', step.startMs.filter((t) => t > 1000).length);
	add('flood: tips not started', step.tipsCreated - step.startMs.length);
	add('flood: claim calls refused 429', claims429);
	add('flood: upstream claim calls refused 429', upstreamClaims429);
	add('flood: replayed reads refused', refused);
	add(`flood: peak upstream calls in one window at the address (of ${PER_IP})`, peak);
	add('flood: upstream queue reads per replayed read', queueReads / Math.max(1, reads.reads));
	notes.push(
		`flood: ${streamers} streamers, a tip each every ${FLOOD.tipEveryMs / 1000} s, each source's ` +
			`last GET replayed ${FLOOD.readsAtOnce} at once every ${FLOOD.readsEveryMs / 1000} s, ` +
			`an instance restarted every ${FLOOD.restartEveryMs / 1000} s; ${step.tipsCreated} tips, ` +
			`start p50 ${quantile(step.startMs, 0.5).toFixed(0)} ms, max ${Math.max(0, ...step.startMs).toFixed(0)} ms; ` +
			`${reads.reads} replayed reads ${JSON.stringify(reads.byPath)}; the pages' own GETs ` +
			`${JSON.stringify(reads.pageGets ?? {})}; ${queueReads} queue reads upstream, ` +
			`${upstream429} upstream 429s; calls per window by address ${JSON.stringify(step.sentPerIpWindow)}`
	);
	log(`${notes.at(-1)}; upstream calls ${JSON.stringify(step.byKind)}`);
	if (reads.nothingToReplay) log(`flood: ${reads.nothingToReplay} bursts had no GET to replay`);
}

/**
 * Every instance restarted calling the upstream from one address (`on`), or from its own again:
 * the per-IP limit then counts the whole deployment's calls, as from one machine or one NAT.
 */
async function oneAddress(instances: Deployment['instances'], on: boolean): Promise<void> {
	for (const instance of instances) {
		// The documented limit at the instances too, as at the simulator (instance-limits.ts).
		instance.overrides = on
			? { UPSTREAM_LOCAL_ADDRESS: FLOOD.address, BENCH_UPSTREAM_PER_IP: String(PER_IP) }
			: {};
		await instance.stop();
		await instance.start();
	}
}

/** One instance after another stopped (SIGTERM: it drains) and started again, for `ms`. */
async function restarts(instances: Deployment['instances'], ms: number): Promise<void> {
	const end = Date.now() + ms;
	for (let victim = 0; Date.now() + FLOOD.restartEveryMs < end; victim++) {
		await sleep(FLOOD.restartEveryMs);
		const instance = instances[victim % INSTANCES];
		await instance.stop();
		await instance.start();
		log(`flood: restarted :${instance.port}`);
	}
}
