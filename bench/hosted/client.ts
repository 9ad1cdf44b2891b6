// The hosted bench's load client, as its own process: N streamers sign in through the instances
// (the real sign-in: the instance's /auth/start, the simulator's consent page, the callback, the
// dashboard's overlay URL), then play their browser sources with the widgets' own client code in
// Node: src/client/api.ts (POST /token, /api/...) and src/client/realtime.ts with `ws` for the
// connect storm and the reads, the TTS widget itself (sources.ts) for tips. A source reaches the
// instances as through a load balancer: round robin, the next one when one is down.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { ApiClient, type FetchLike } from '../../src/client/api.ts';
import { RealtimeConnection } from '../../src/client/realtime.ts';
import { EVENT_CATALOG } from '../../src/contract/index.ts';
import { ttsQueue } from '../../src/contract/routes.ts';
import { readRateLimitHeaders } from '../../src/core/rate-budget.ts';
import { keepAliveFetch } from '../../src/server/upstream.ts';
import { quantile } from '../lib.ts';
import type { SimReady } from './sim.ts';
import { floodReads, type FloodResult } from './flood-reader.ts';
import { floodAddress, forwardedFor, PageReads, sourceAddress } from './page-reads.ts';
import { inParallel, signIn } from './signin.ts';
import { TtsSource } from './sources.ts';

export type ClientMessage =
	| { type: 'signin'; instances: string[]; sim: SimReady; streamers: number; tenants: string[] }
	| { type: 'connect'; windowMs: number; sources: number }
	| { type: 'reads'; ms: number; everyMs: number }
	/**
	 * Each streamer's `sources` TTS sources (of the first `streamers` only, when given), `shown` of
	 * them on air, with these URL parameters, through a balancer that adds X-Forwarded-For when
	 * `xff` (page-reads.ts); none: all closed.
	 */
	| { type: 'sources'; on: false }
	| {
			type: 'sources';
			on: true;
			sources: number;
			shown: number;
			spreadMs: number;
			streamers?: number;
			params?: Record<string, string>;
			xff?: boolean;
			/** The whole page's start: its stored settings read and followed, its push channel. */
			page?: boolean;
	  }
	/** The read flood (flood-reader.ts): the last GETs of the first `streamers` streamers' sources. */
	| {
			type: 'flood';
			streamers: number;
			ms: number;
			everyMs: number;
			atOnce: number;
			xff?: boolean;
	  }
	/** From now on the sources reach only these instances. */
	| { type: 'route'; instances: string[] }
	/** The calls to the instances since the last `calls`. */
	| { type: 'calls' };

export interface ConnectResult {
	mintMs: number[];
	mintFailures: number;
	/** The refused mints by kind and status (`http 429`, `network`, ...). */
	mintFailureKinds: Record<string, number>;
	/** Sources that never reached `open`. */
	notOpen: number;
	/**
	 * This process's event-loop delay during the storm (ms): a mint measured here includes it, so a
	 * saturated client inflates the figures it reports.
	 */
	loopDelayMs: { p50: number; p99: number; max: number };
	/** CPU this process used during the storm, as a share of one core. */
	cpuShare: number;
}

export interface ReadsResult {
	calls: number;
	failed: number;
	failures: Record<string, number>;
	/** When each failed read was sent (ms since the epoch): to set beside the sampler's view. */
	failedAt: number[];
	/** The failed reads by kind, status and the answer's message: what the page would show. */
	why: Record<string, number>;
	/** Every answer to the reads by instance and status, and those that timed out (`unreachable`). */
	byInstance: Record<string, Record<string, number>>;
	/** How long the reads took, as this process saw them (ms). */
	p50Ms: number;
	p99Ms: number;
	maxMs: number;
}

export interface SourcesResult {
	sources: number;
	/** Sources whose realtime connection was not open 30 s after they started. */
	notOpen: number;
}

/** One kind of call (`POST /api/tts/{id}/start`, ...): how many and how long they took. */
export interface CallKind {
	count: number;
	p50Ms: number;
	p99Ms: number;
	maxMs: number;
	statuses: Record<string, number>;
}

export interface CallsResult {
	kinds: Record<string, CallKind>;
	/** The first 429s the sources received, oldest first. */
	limited: { at: number; call: string; budget: 'ip' | 'authorization' | 'unknown' }[];
}

let instances: string[] = [];
// The widgets' notes (`[tts] alert sound skipped ...`) are for a streamer's console, not the bench's.
console.info = () => {};
/** The client modules' warnings (a source that cannot connect while an instance is down). */
let warnings = 0;
const warn = () => void (warnings += 1);
let keys: string[] = [];
let next = 0;

/** Calls since the last `calls` message, by kind. */
let timings = new Map<string, { ms: number[]; statuses: Record<string, number> }>();
let limited: CallsResult['limited'] = [];
/** Answers by instance and status while `reads` runs (null otherwise). */
let byInstance: Record<string, Record<string, number>> | null = null;

/** `POST /api/tts/t_1/start` as `POST /api/tts/{id}/start`. */
const callKind = (method: string, path: string) =>
	`${method} ${path.split('?')[0].replace(/\/(tts|media)\/[^/]+\/(start|finish|release)$/, '/$1/{id}/$2')}`;

function record(method: string, path: string, ms: number, res: Response | null): void {
	const kind = callKind(method, path);
	const t = timings.get(kind) ?? { ms: [], statuses: {} };
	timings.set(kind, t);
	t.ms.push(ms);
	const status = res ? String(res.status) : 'unreachable';
	t.statuses[status] = (t.statuses[status] ?? 0) + 1;
	if (res?.status === 429 && limited.length < 20) {
		const limit = readRateLimitHeaders(res.headers)?.limit;
		const budget = limit === 240 ? 'ip' : limit === 120 ? 'authorization' : 'unknown';
		limited.push({ at: Date.now(), call: kind, budget });
	}
}

/**
 * The sources' HTTP: node:http on keep-alive agents (the instances' own upstream transport), not
 * Node's global fetch, whose per-call cost (undici's Request, streams and abort signals, about a
 * sixth of this process's CPU in a 1,000-streamer storm) would be the client's, not the instances'.
 */
const transport = keepAliveFetch();

/** The balancer's next instance for a WebSocket (the push channel's). */
const nextOrigin = () => instances[next++ % instances.length];

/** A load balancer in front of the instances: round robin, skipping one that refuses. */
const balanced: FetchLike = async (input, init) => {
	let lastError: unknown;
	const method = init?.method ?? 'GET';
	for (let tries = 0; tries < instances.length; tries++) {
		const origin = instances[next++ % instances.length];
		const t0 = performance.now();
		try {
			const res = await transport(origin + input, init);
			record(method, String(input), performance.now() - t0, res);
			countAt(origin, String(res.status));
			return res;
		} catch (err) {
			// The page gave up (its timeout): a balancer does not send it on to the next instance.
			if (init?.signal?.aborted) {
				countAt(origin, 'no answer');
				record(method, String(input), performance.now() - t0, null);
				throw err;
			}
			countAt(origin, 'unreachable');
			lastError = err;
		}
	}
	record(method, String(input), 0, null);
	throw lastError;
};

function countAt(origin: string, status: string): void {
	if (!byInstance) return;
	const at = (byInstance[origin] ??= {});
	at[status] = (at[status] ?? 0) + 1;
}

function takeCalls(): CallsResult {
	const kinds: Record<string, CallKind> = {};
	for (const [kind, t] of timings) {
		kinds[kind] = {
			count: t.ms.length,
			p50Ms: quantile(t.ms, 0.5),
			p99Ms: quantile(t.ms, 0.99),
			maxMs: t.ms.reduce((a, b) => Math.max(a, b), -Infinity),
			statuses: t.statuses
		};
	}
	const result = { kinds, limited };
	timings = new Map();
	limited = [];
	return result;
}

const source = () => (i: number) => new ApiClient({ overlayKey: keys[i], fetch: balanced, warn });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counts a failed call by kind and status (`http 429`, `network`, ...). */
function tally(counts: Record<string, number>, r: { kind: string; status?: number }): void {
	const why = `${r.kind}${r.status !== undefined ? ` ${r.status}` : ''}`;
	counts[why] = (counts[why] ?? 0) + 1;
}
const LOOP_RESOLUTION_MS = 10;

/** N streamers x `sources` connecting, spread evenly over `windowMs`; all closed afterwards. */
async function connectStorm(windowMs: number, sources: number): Promise<ConnectResult> {
	const mintMs: number[] = [];
	let mintFailures = 0;
	const mintFailureKinds: Record<string, number> = {};
	const total = keys.length * sources;
	const conns: RealtimeConnection[] = [];
	const opened = new Set<RealtimeConnection>();
	const make = source();
	const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
	loop.enable();
	const cpu0 = process.cpuUsage();
	const t0 = performance.now();
	await Promise.all(
		Array.from({ length: total }, async (_, n) => {
			await sleep((windowMs * n) / total);
			const api = make(n % keys.length);
			const timed = {
				mintToken: async () => {
					const t0 = performance.now();
					const r = await api.mintToken();
					mintMs.push(performance.now() - t0);
					if (!r.ok) {
						mintFailures += 1;
						tally(mintFailureKinds, r);
					}
					return r;
				}
			};
			const conn = new RealtimeConnection({
				api: timed,
				events: EVENT_CATALOG,
				WebSocket: WebSocket as never,
				warn,
				onState: (state) => {
					if (state === 'open') opened.add(conn);
				}
			});
			conns.push(conn);
			conn.start();
		})
	);
	for (let waited = 0; opened.size < total && waited < 20_000; waited += 250) await sleep(250);
	const notOpen = total - opened.size;
	loop.disable();
	const cpu = process.cpuUsage(cpu0);
	const cpuShare = (cpu.user + cpu.system) / 1000 / (performance.now() - t0);
	for (const c of conns) c.close();
	// The histogram counts from the timer's due time plus its own interval: the delay is the rest.
	const ms = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
	return {
		mintMs,
		mintFailures,
		mintFailureKinds,
		notOpen,
		loopDelayMs: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
		cpuShare
	};
}

/** Each streamer's source reads its queue every `everyMs` for `ms` (spread out). */
async function reads(ms: number, everyMs: number): Promise<ReadsResult> {
	const make = source();
	const result: ReadsResult = {
		calls: 0,
		failed: 0,
		failures: {},
		failedAt: [],
		why: {},
		byInstance: {},
		p50Ms: 0,
		p99Ms: 0,
		maxMs: 0
	};
	const took: number[] = [];
	byInstance = result.byInstance;
	const end = Date.now() + ms;
	await Promise.all(
		keys.map(async (_, i) => {
			const api = make(i);
			await sleep((everyMs * i) / keys.length);
			while (Date.now() < end) {
				const sent = Date.now();
				const t0 = performance.now();
				const r = await api.request(ttsQueue);
				took.push(performance.now() - t0);
				result.calls += 1;
				if (!r.ok) {
					result.failed += 1;
					result.failedAt.push(sent);
					tally(result.failures, r);
					const message =
						'error' in r ? String(r.error) : 'body' in r ? JSON.stringify(r.body) : '';
					const why = `${r.kind}${'status' in r ? ` ${r.status}` : ''}: ${message.slice(0, 90)}`;
					result.why[why] = (result.why[why] ?? 0) + 1;
				}
				await sleep(everyMs);
			}
		})
	);
	byInstance = null;
	return {
		...result,
		p50Ms: quantile(took, 0.5),
		p99Ms: quantile(took, 0.99),
		maxMs: took.reduce((a, b) => Math.max(a, b), 0)
	};
}

let sources: TtsSource[] = [];
/** Each source's streamer, in the order of `sources`; and what each source read. */
let sourceStreamers: number[] = [];
const pageReads = new PageReads();

/** The streamers' TTS sources, started spread over `spreadMs`; resolves when they are open. */
async function startSources(
	m: Extract<ClientMessage, { type: 'sources'; on: true }>
): Promise<SourcesResult> {
	const t0 = Date.now();
	const streamers = Math.min(keys.length, m.streamers ?? keys.length);
	for (let i = 0; i < streamers; i++) {
		await sleep(t0 + (m.spreadMs * i) / streamers - Date.now());
		const origin = m.page ? nextOrigin : null;
		const through = m.xff ? forwardedFor(balanced, sourceAddress(i)) : balanced;
		for (let j = 0; j < m.sources; j++) {
			const fetch = pageReads.wrap(sources.length, through);
			const shown = j < m.shown;
			sources.push(await TtsSource.open(keys[i], fetch, shown, warn, m.params ?? {}, origin));
			sourceStreamers.push(i);
		}
	}
	// The widget says `ready` once its connection is open (and its audio unlocked: always, here).
	const open = (s: TtsSource) => s.player.view.status === 'ready';
	for (let waited = 0; waited < 30_000 && !sources.every(open); waited += 250) await sleep(250);
	return { sources: sources.length, notOpen: sources.filter((s) => !open(s)).length };
}

/** The read flood: each source of the first `m.streamers` streamers replays its own last GET. */
async function flood(m: Extract<ClientMessage, { type: 'flood' }>): Promise<FloodResult> {
	const flooded = sourceStreamers.flatMap((streamer, n) =>
		streamer < m.streamers
			? [
					{
						last: () => pageReads.last(n),
						fetch: m.xff ? forwardedFor(balanced, floodAddress(streamer)) : balanced
					}
				]
			: []
	);
	return { ...(await floodReads(flooded, m)), pageGets: pageReads.paths() };
}

process.on('message', async (m: ClientMessage) => {
	try {
		if (m.type === 'signin') {
			instances = m.instances;
			keys = await inParallel(m.streamers, 6, (i) =>
				signIn(m.instances[i % m.instances.length], m.sim, m.tenants[i])
			);
			process.send!({ type: 'done', result: { streamers: keys.length } });
		} else if (m.type === 'connect')
			process.send!({ type: 'done', result: await connectStorm(m.windowMs, m.sources) });
		else if (m.type === 'reads')
			process.send!({ type: 'done', result: await reads(m.ms, m.everyMs) });
		else if (m.type === 'sources') {
			for (const s of sources) s.close();
			sources = [];
			sourceStreamers = [];
			pageReads.clear();
			const result = m.on ? await startSources(m) : null;
			process.send!({ type: 'done', result });
		} else if (m.type === 'route') {
			instances = m.instances;
			process.send!({ type: 'done', result: null });
		} else if (m.type === 'calls') process.send!({ type: 'done', result: takeCalls() });
		else if (m.type === 'flood') process.send!({ type: 'done', result: await flood(m) });
	} catch (err) {
		process.send!({ type: 'error', error: err instanceof Error ? err.stack : String(err) });
	}
});
// Stopped by the bench: exit normally (a --cpu-prof profile is written on exit).
process.on('SIGTERM', () => process.exit(0));
process.send!({ type: 'ready' });
