// The hosted bench's intake part (bench/hosted/run.ts; docs/hosted-intake.md): the server's own
// upstream sockets, one per signed-in streamer across the instances. Once every streamer is signed
// in: one intake each (the instances' /healthz `intakes`, summed) and one socket each at the
// upstream on the streamer's access token (the simulator's count by credential, the pages' handoff
// tokens apart), and how they spread over the instances. Then every streamer's browser sources
// connected and nothing happening: the upstream reads (GETs) per streamer and minute. Then one
// instance killed with SIGKILL: how long until the others have every intake connected again, and
// how many moved; and, started again, how long until the spread is even (nobody over its share
// plus a tenth, intakes.ts). Once, the heap one streamer's live view takes with 50 tips and 20
// videos queued (bench/view-memory.ts, in a process of its own with its GC exposed).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sleep } from '../lib.ts';
import { INSTANCES, N, restMinutes, SOURCES, windowS } from './args.ts';
import type { SourcesResult } from './client.ts';
import { log, type Deployment } from './deployment.ts';
import type { Figures } from './report.ts';
import type { StepStats } from './sim.ts';

/** An instance's /healthz `intakes` (src/hosted/intakes.ts IntakesStatus). */
interface IntakeCounts {
	held: number;
	connected: number;
	takeovers: number;
}
type Counts = (IntakeCounts | null)[];

/** Each instance's /healthz `intakes`; null for one that does not answer within 2 s. */
function intakesAt(origins: string[]): Promise<Counts> {
	return Promise.all(
		origins.map(async (origin) => {
			try {
				const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
				return ((await res.json()) as { intakes?: IntakeCounts }).intakes ?? null;
			} catch {
				return null;
			}
		})
	);
}

const total = (counts: Counts, k: keyof IntakeCounts) =>
	counts.reduce((n, c) => n + (c?.[k] ?? 0), 0);
const helds = (counts: Counts) => counts.map((c) => c?.held ?? NaN);

/**
 * Reads the instances' intakes every `everyMs` until `done`; how long that took from `from` (ms),
 * null after `timeoutMs`, and the last reading.
 */
async function until(
	origins: string[],
	done: (counts: Counts) => boolean,
	o: { everyMs: number; timeoutMs: number; from?: number; progress?: (c: Counts) => void }
): Promise<{ ms: number | null; counts: Counts }> {
	const from = o.from ?? Date.now();
	let told = from;
	for (;;) {
		const counts = await intakesAt(origins);
		if (done(counts)) return { ms: Date.now() - from, counts };
		if (Date.now() - from > o.timeoutMs) return { ms: null, counts };
		if (o.progress && Date.now() - told >= 30_000) {
			told = Date.now();
			o.progress(counts);
		}
		await sleep(o.everyMs);
	}
}

const everyConnected = (counts: Counts) =>
	total(counts, 'held') === N && total(counts, 'connected') === N;

/** How long the intakes took from the last sign-in: to all be connected, to read their last (ms). */
export interface WarmUp {
	connectedMs: number | null;
	readMs: number | null;
}

/**
 * When the upstream's last GET came (ms since the epoch) once none has come for `quietS`, polled
 * every second; null past `timeoutMs`.
 */
async function lastRead(
	stats: Deployment['stats'],
	quietS: number,
	timeoutMs: number
): Promise<number | null> {
	const end = Date.now() + timeoutMs;
	let last = (await stats()).gets;
	let lastAt = Date.now();
	while (Date.now() - lastAt < quietS * 1000) {
		if (Date.now() > end) return null;
		await sleep(1000);
		const gets = (await stats()).gets;
		if (gets !== last) lastAt = Date.now();
		last = gets;
	}
	return lastAt;
}

/**
 * Started as the last streamer is signed in: how long their intakes took from then to all be held
 * and connected (null after 15 minutes), and until the upstream's last read of their views (none
 * for 5 s after it; null after an hour: under the documented address budget reads share 96 calls
 * a minute per address, about 12 an intake).
 */
export async function warmUp({ origins, stats }: Deployment): Promise<WarmUp> {
	const from = Date.now();
	const r = await until(origins, everyConnected, {
		everyMs: 500,
		timeoutMs: 15 * 60_000,
		progress: (c) =>
			log(
				`intake: warming up, held ${JSON.stringify(helds(c))}, connected ${total(c, 'connected')}`
			)
	});
	const readAt = await lastRead(stats, 5, 60 * 60_000);
	const readMs = readAt === null ? null : Math.max(0, readAt - from);
	log(
		`intake: ${r.ms === null ? 'not every intake connected in 15 min' : `every intake connected ${(r.ms / 1000).toFixed(1)} s after the last sign-in`}, ` +
			`${readMs === null ? 'reads still going after an hour' : `the last upstream read ${(readMs / 1000).toFixed(1)} s after it`}; held by instance ${JSON.stringify(helds(r.counts))}, ${(await stats()).gets} upstream GETs so far`
	);
	return { connectedMs: r.ms, readMs };
}

/** The intake part: the sockets held, the reads at rest, a takeover and the spread after it. */
export async function intake(
	d: Deployment,
	figures: Figures,
	run: number,
	warm: Promise<WarmUp>
): Promise<void> {
	const { connectedMs, readMs } = await warm;
	if (run === 1) {
		figures.add(
			'intake: warm-up, last sign-in to every intake connected',
			(connectedMs ?? NaN) / 1000
		);
		figures.add("intake: warm-up, last sign-in to the intakes' last read", (readMs ?? NaN) / 1000);
		await viewMemory(figures);
	}
	await held(d, figures);
	const open = await d.client.ask<SourcesResult>({
		type: 'sources',
		on: true,
		sources: SOURCES,
		shown: Math.min(2, SOURCES),
		spreadMs: windowS * 1000,
		page: true
	});
	log(`intake: ${open.sources} sources, ${open.notOpen} not open`);
	await atRest(d, figures);
	await takeover(d, figures, run);
	await d.client.ask({ type: 'sources', on: false });
}

/**
 * The heap one live view adds (KB) for a streamer with 50 tips and 20 videos queued and 25 of each
 * played: bench/view-memory.ts's figure, measured in a process of its own whose GC it can run.
 */
async function viewMemory({ add }: Figures): Promise<void> {
	const script = fileURLToPath(new URL('../view-memory.ts', import.meta.url));
	const { stdout } = await promisify(execFile)(process.execPath, [
		'--expose-gc',
		'--import',
		'tsx',
		script
	]).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
	const kb = /heap per view: ([\d.]+) KB/.exec(stdout)?.[1];
	add("intake: a live view's heap, 50 tips and 20 videos queued", kb ? Number(kb) : NaN);
	log(`intake: ${stdout.trim().split('\n').join('; ')}`);
}

/** One intake and one upstream socket per streamer, and how they spread over the instances. */
async function held({ origins, stats }: Deployment, { add }: Figures): Promise<void> {
	const { counts } = await until(origins, everyConnected, { everyMs: 100, timeoutMs: 30_000 });
	const { realtime } = await stats();
	const spread = helds(counts);
	add(`intake: intakes held, all instances (of ${N})`, total(counts, 'held'));
	add(`intake: intakes connected, all instances (of ${N})`, total(counts, 'connected'));
	add(`intake: upstream sockets on streamers' tokens (of ${N})`, realtime.apiKey.sockets);
	add('intake: fewest held by one instance', Math.min(...spread));
	add('intake: most held by one instance', Math.max(...spread));
	log(
		`intake: held by instance ${JSON.stringify(spread)}, connected ${JSON.stringify(counts.map((c) => c?.connected))}; ` +
			`upstream sockets on streamers' tokens ${realtime.apiKey.sockets} (of ${realtime.apiKey.streamers} streamers, ${realtime.apiKey.opened} opened since the start), ` +
			`on pages' handoff tokens ${realtime.token.sockets}`
	);
}

/**
 * The upstream reads with every source connected and nothing happening, per streamer and minute,
 * once the sources' start has settled (no GET for 5 s, or 2 minutes gone).
 */
async function atRest({ sim, stats }: Deployment, { add }: Figures): Promise<void> {
	await lastRead(stats, 5, 120_000);
	const before = await stats();
	await sim.ask({ type: 'mark' });
	await sleep(restMinutes * 60_000);
	const after = await stats();
	const step = await sim.ask<StepStats>({ type: 'step' });
	const gets = after.gets - before.gets;
	add('intake: upstream reads per streamer per minute at rest', gets / N / restMinutes);
	const byKind = Object.fromEntries(
		Object.entries(step.byKind).filter(([k]) => k.startsWith('GET'))
	);
	log(
		`intake: at rest ${restMinutes} min, ${gets} upstream GETs ${JSON.stringify(byKind)}, every call ${JSON.stringify(step.byKind)}; ` +
			`upstream sockets opened meanwhile: ${after.realtime.apiKey.opened - before.realtime.apiKey.opened} on streamers' tokens, ` +
			`${after.realtime.token.opened - before.realtime.token.opened} on handoff tokens (${after.realtime.token.sockets} connected)`
	);
}

/**
 * One instance SIGKILLed (a different one each run): from the kill until the others hold and
 * have connected every intake, polled every 100 ms; then started again, until the spread is even.
 */
async function takeover(d: Deployment, figures: Figures, run: number): Promise<void> {
	const { add } = figures;
	const { instances, origins, stats } = d;
	const k = (run - 1) % INSTANCES;
	const others = origins.filter((_, i) => i !== k);
	const before = await intakesAt(origins);
	const moved = before[k]?.held ?? 0;
	const getsBefore = (await stats()).gets;
	const killedAt = Date.now();
	instances[k].kill();
	const taken = await until(others, everyConnected, {
		everyMs: 100,
		timeoutMs: 60_000,
		from: killedAt
	});
	add('intake: SIGKILL to every intake connected again', taken.ms ?? NaN);
	add('intake: intakes moved by the SIGKILL', moved);
	log(
		`intake: killed :${instances[k].port} holding ${moved} of ${JSON.stringify(helds(before))}; ` +
			`${taken.ms === null ? 'not every intake connected again in 60 s' : `every intake connected again ${taken.ms} ms later`}, ` +
			`held by the others ${JSON.stringify(helds(taken.counts))}; upstream GETs meanwhile ${(await stats()).gets - getsBefore}`
	);
	await evenAgain(d, figures, k, taken.counts);
}

/** The killed instance started again: how long until nobody holds more than its share plus a tenth. */
async function evenAgain(
	{ instances, origins, stats }: Deployment,
	{ add }: Figures,
	k: number,
	afterKill: Counts
): Promise<void> {
	const startedAt = Date.now();
	await instances[k].start();
	const share = Math.ceil(N / INSTANCES);
	const most = share + Math.max(1, Math.ceil(share / 10));
	const even = await until(
		origins,
		(c) => everyConnected(c) && c.every((x) => x !== null && x.held <= most),
		{ everyMs: 500, timeoutMs: 5 * 60_000, from: startedAt }
	);
	// Every lease taken counts as a takeover where it is taken: the moves made to even the spread.
	const moves = total(even.counts, 'takeovers') - total(afterKill, 'takeovers');
	add('intake: restart to an even spread', (even.ms ?? NaN) / 1000);
	add('intake: intakes moved to even the spread', moves);
	log(
		`intake: :${instances[k].port} started again; ${even.ms === null ? 'the spread not even in 5 min' : `the spread even ${(even.ms / 1000).toFixed(1)} s after its start`} ` +
			`(at most ${most} each): held ${JSON.stringify(helds(even.counts))}, ${moves} intakes moved`
	);
	// The last intakes moved read their views: the next part (the connect storm) starts after.
	await lastRead(stats, 5, 120_000);
}
