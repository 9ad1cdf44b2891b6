// The hosted bench's read flood (issue 41; bench/hosted/run.ts): the scenario on the bench's
// deployment. A few streamers, one TTS source each on air (the widget's own modules, short alerts),
// a tip for each every 3 s, while something re-reads each one's queue through the overlay key (three
// GETs at once every 1.5 s, flood-reader.ts) and one instance after another is restarted (SIGTERM,
// drained) every 20 s, under the documented per-authorization limit. The figure is how late tips
// start: from created to the start the upstream accepted.
import { quantile, sleep } from '../lib.ts';
import { FLOOD, INSTANCES, minutes, N } from './args.ts';
import type { CallsResult, SourcesResult } from './client.ts';
import type { FloodResult } from './flood-reader.ts';
import { log, type Deployment } from './deployment.ts';
import type { Figures } from './report.ts';
import type { StepStats } from './sim.ts';

export async function flood(
	{ client, instances, sim }: Deployment,
	{ add, notes }: Figures
): Promise<void> {
	const streamers = Math.min(FLOOD.streamers, N);
	const open = await client.ask<SourcesResult>({
		type: 'sources',
		on: true,
		sources: 1,
		shown: 1,
		spreadMs: 1000,
		streamers,
		// Alerts shorter than the 3 s between tips (the alert's 4 s and its pause would queue them).
		params: { min_display: '1', gap: '0.5', tiers: 'off' }
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
			atOnce: FLOOD.readsAtOnce
		}),
		restarts(instances, ms)
	]);
	await sim.ask({ type: 'schedule', streamers: 0, periodMs: FLOOD.tipEveryMs });
	// The last tips start within a few seconds; a tip that never does counts as not started.
	await sleep(10_000);
	const step = await sim.ask<StepStats>({ type: 'step' });
	const calls = await client.ask<CallsResult>({ type: 'calls' });
	await client.ask({ type: 'sources', on: false });
	const claims429 = Object.entries(calls.kinds)
		.filter(([kind]) => /\/(start|finish|release)$/.test(kind))
		.reduce((n, [, k]) => n + (k.statuses['429'] ?? 0), 0);
	const queueReads = step.byKind['GET /tts/queue'] ?? 0;
	add('flood: tip created to started p99', quantile(step.startMs, 0.99));
	add('flood: tips started more than 1 s late', step.startMs.filter((t) => t > 1000).length);
	add('flood: tips not started', step.tipsCreated - step.startMs.length);
	add('flood: claim calls refused 429', claims429);
	add('flood: reads refused 429 by the instances', reads.statuses['429'] ?? 0);
	add('flood: upstream queue reads per flooded read', queueReads / Math.max(1, reads.reads));
	notes.push(
		`flood: ${streamers} streamers, a tip each every ${FLOOD.tipEveryMs / 1000} s, ` +
			`${FLOOD.readsAtOnce} reads of the queue at once every ${FLOOD.readsEveryMs / 1000} s, ` +
			`an instance restarted every ${FLOOD.restartEveryMs / 1000} s; ${step.tipsCreated} tips, ` +
			`start p50 ${quantile(step.startMs, 0.5).toFixed(0)} ms, max ${Math.max(0, ...step.startMs).toFixed(0)} ms; ` +
			`${reads.reads} flooded reads ${JSON.stringify(reads.statuses)}, ${queueReads} queue reads upstream`
	);
	log(`flood: ${notes.at(-1)}; upstream calls ${JSON.stringify(step.byKind)}`);
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
