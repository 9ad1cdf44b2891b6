// The hosted bench's capacity ramp (bench/hosted/run.ts): how many streamers one egress address
// serves before the first 429, and what each step of the ramp saw on the way.
import { quantile, sleep } from '../lib.ts';
import {
	N,
	PER_IP,
	PER_KEY,
	rampFrom,
	rampPeriods,
	rampStep,
	scale,
	SOURCES,
	TIP_EVERY_MIN,
	windowS
} from './args.ts';
import type { CallsResult, SourcesResult } from './client.ts';
import { log, type Deployment } from './deployment.ts';
import type { Figures } from './report.ts';
import type { StepStats } from './sim.ts';

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
export async function capacity(
	{ client, origins, sim, stats }: Deployment,
	{ add, notes }: Figures
): Promise<void> {
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
		log(`capacity: ${describeStep(step)}`);
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

/** One step of the ramp in a line of the log. */
function describeStep(step: Step): string {
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
