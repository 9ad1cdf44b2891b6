// The hosted bench's load parts (bench/hosted/run.ts): the connect storm (every browser source
// of every streamer connecting within a window), the refresh storm (every held access token cut,
// reads going on) and chaos (tips to every streamer while one instance after another is killed).
// Each adds its figures to the table and logs what the table cannot show.
import { mkdirSync, writeFileSync } from 'node:fs';
import { quantile, sleep } from '../lib.ts';
import { args, INSTANCES, minutes, N, SOURCES, windowS } from './args.ts';
import type { ConnectResult, ReadsResult } from './client.ts';
import { log, type Deployment } from './deployment.ts';
import { histogramQuantile, mintBuckets, summaryMean, tenantOf } from './processes.ts';
import type { Figures } from './report.ts';
import { startSampler } from './sampler.ts';

/** Every streamer's browser sources connecting within the window: each mints a token, opens a socket. */
export async function connect(
	{ client, instances, meterCpu }: Deployment,
	{ add }: Figures
): Promise<void> {
	const metricsBefore = await Promise.all(instances.map((i) => i.metrics()));
	const before = metricsBefore.map(mintBuckets);
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
		Object.entries(used.seconds).map(([k, v]) => [k, +((v * 1000) / r.mintMs.length).toFixed(2)])
	);
	const metricsAfter = await Promise.all(instances.map((i) => i.metrics()));
	const after = metricsAfter.map(mintBuckets);
	add('connect: token mint p99', quantile(r.mintMs, 0.99));
	add('connect: token mint p50', quantile(r.mintMs, 0.5));
	add('connect: failures', r.mintFailures + r.notOpen);
	add('connect: mint p99 at the instances', histogramQuantile(before, after, 0.99));
	add('connect: client event-loop delay p99', r.loopDelayMs.p99);
	// The mean mint at the instances, and within it the upstream's answer to POST /realtime/token
	// (the API calls of the window: the mints, and the pages' reads the views did not answer). Their
	// difference is what the instances themselves spend on a mint, whatever the simulator's load.
	const mint = summaryMean(metricsBefore, metricsAfter, 'tip_token_mint_seconds');
	const call = summaryMean(
		metricsBefore,
		metricsAfter,
		'tip_upstream_request_seconds',
		'{kind="api"}'
	);
	add('connect: mint mean at the instances', mint.mean * 1000);
	add('connect: upstream API call mean', call.mean * 1000);
	add('connect: upstream API calls', call.count);
	log(
		`connect: ${r.mintMs.length} mints, p50 ${quantile(r.mintMs, 0.5).toFixed(1)} ms, p99 ${quantile(r.mintMs, 0.99).toFixed(1)} ms, ` +
			`${r.mintFailures} refused ${JSON.stringify(r.mintFailureKinds)}, ${r.notOpen} not open; at the instances p50 ${histogramQuantile(before, after, 0.5).toFixed(1)} ms, ` +
			`p99 ${histogramQuantile(before, after, 0.99).toFixed(1)} ms; client event loop delay p50 ${r.loopDelayMs.p50.toFixed(1)} ms, ` +
			`p99 ${r.loopDelayMs.p99.toFixed(1)} ms, max ${r.loopDelayMs.max.toFixed(0)} ms; CPU (cores) ${JSON.stringify(used.share)}, CPU ms per mint ${JSON.stringify(perSource)}`
	);
}

/**
 * The refresh storm: every access token the instances hold cut within 5 s (or at once), while
 * every streamer reads; run `run`'s samples are written to bench-results/.
 */
export async function refresh(
	{ client, instances, meterCpu, origins, pg, sim, stats }: Deployment,
	{ add }: Figures,
	run: number
): Promise<void> {
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
		metricsAfter.reduce((n, a, i) => n + (a.get(name) ?? 0) - (metricsBefore[i].get(name) ?? 0), 0);
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

/** Tips to every streamer while one instance after another is SIGKILLed and restarted. */
export async function chaos(
	{ client, instances, sim, stats }: Deployment,
	{ add }: Figures
): Promise<void> {
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
