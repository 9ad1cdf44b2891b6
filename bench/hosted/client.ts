// The hosted bench's load client, as its own process: N streamers sign in through the instances
// (the real sign-in: the instance's /auth/start, the simulator's consent page, the callback, the
// dashboard's overlay URL), then play their browser sources with the widgets' own client code in
// Node: src/client/api.ts (POST /token, /api/...) and src/client/realtime.ts with `ws`. A source
// reaches the instances as through a load balancer: round robin, the next one when one is down.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { ApiClient, type FetchLike } from '../../src/client/api.ts';
import { RealtimeConnection } from '../../src/client/realtime.ts';
import { EVENT_CATALOG } from '../../src/contract/index.ts';
import { ttsFinish, ttsQueue, ttsStart } from '../../src/contract/routes.ts';
import { keepAliveFetch } from '../../src/server/upstream.ts';
import type { SimReady } from './sim.ts';

export type ClientMessage =
	| { type: 'signin'; instances: string[]; sim: SimReady; streamers: number; tenants: string[] }
	| { type: 'connect'; windowMs: number; sources: number }
	| { type: 'reads'; ms: number; everyMs: number }
	| { type: 'claimers'; on: boolean };

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
}

let instances: string[] = [];
/** The client modules' warnings (a source that cannot connect while an instance is down). */
let warnings = 0;
const warn = () => void (warnings += 1);
let keys: string[] = [];
let next = 0;

/**
 * The sources' HTTP: node:http on keep-alive agents (the instances' own upstream transport), not
 * Node's global fetch, whose per-call cost (undici's Request, streams and abort signals, about a
 * sixth of this process's CPU in a 1,000-streamer storm) would be the client's, not the instances'.
 */
const transport = keepAliveFetch();

/** A load balancer in front of the instances: round robin, skipping one that refuses. */
const balanced: FetchLike = async (input, init) => {
	let lastError: unknown;
	for (let tries = 0; tries < instances.length; tries++) {
		const origin = instances[next++ % instances.length];
		try {
			return await transport(origin + input, init);
		} catch (err) {
			lastError = err;
		}
	}
	throw lastError;
};

const source = () => (i: number) => new ApiClient({ overlayKey: keys[i], fetch: balanced, warn });

/** One streamer's sign-in, through instance `origin`: returns their overlay key. */
async function signIn(origin: string, sim: SimReady, tenant: string): Promise<string> {
	const start = await fetch(`${origin}/auth/start`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin }
	});
	const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
	const requestId = /name="request_id" value="([^"]+)"/.exec(await consent.text())?.[1];
	if (!requestId) throw new Error(`no consent page (${consent.status})`);
	const decided = await fetch(`${sim.oauthUrl}/oauth/authorize`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: sim.origin },
		body: new URLSearchParams({ request_id: requestId, decision: 'approve', tenant })
	});
	const back = await fetch(decided.headers.get('location')!, { redirect: 'manual' });
	const cookie = back.headers.get('set-cookie')?.split(';')[0];
	if (back.status !== 303 || !cookie) throw new Error(`the callback answered ${back.status}`);
	const html = await (await fetch(`${origin}/dashboard`, { headers: { cookie } })).text();
	const key = /\?key=([A-Za-z0-9_-]{20,})/.exec(html)?.[1];
	if (!key) throw new Error('no overlay URL on the dashboard');
	return key;
}

async function inParallel<T>(n: number, width: number, job: (i: number) => Promise<T>) {
	const out: T[] = new Array(n);
	let at = 0;
	await Promise.all(
		Array.from({ length: Math.min(width, n) }, async () => {
			while (at < n) {
				const i = at++;
				out[i] = await job(i);
			}
		})
	);
	return out;
}

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
	const result: ReadsResult = { calls: 0, failed: 0, failures: {} };
	const end = Date.now() + ms;
	await Promise.all(
		keys.map(async (_, i) => {
			const api = make(i);
			await sleep((everyMs * i) / keys.length);
			while (Date.now() < end) {
				const r = await api.request(ttsQueue);
				result.calls += 1;
				if (!r.ok) {
					result.failed += 1;
					tally(result.failures, r);
				}
				await sleep(everyMs);
			}
		})
	);
	return result;
}

/**
 * Each streamer's TTS source plays its tips: on a realtime event (and on every reconnect) it reads
 * the queue and claims, plays (200 ms) and finishes the head; a failed call is retried later.
 */
class Claimer {
	private conn: RealtimeConnection | null = null;
	private busy = false;
	private again = false;
	private retry: ReturnType<typeof setTimeout> | null = null;
	constructor(private readonly api: ApiClient) {}

	start(): void {
		this.conn = new RealtimeConnection({
			api: this.api,
			events: EVENT_CATALOG,
			WebSocket: WebSocket as never,
			warn,
			onEvent: (e) => {
				if (e.type === 'tip.tts_ready' || e.type === 'queue.tts.released') void this.play();
			},
			onResync: () => void this.play()
		}).start();
	}

	stop(): void {
		this.conn?.close();
		if (this.retry) clearTimeout(this.retry);
	}

	/** A call failed (an instance died, a 429): look again a little later (no polling else). */
	private later(ms = 2000): void {
		if (this.retry || !this.conn) return;
		this.retry = setTimeout(() => {
			this.retry = null;
			void this.play();
		}, ms);
	}

	private async play(): Promise<void> {
		if (this.busy) {
			this.again = true;
			return;
		}
		this.busy = true;
		try {
			do {
				this.again = false;
				const q = await this.api.request(ttsQueue);
				if (!q.ok) {
					this.later();
					continue;
				}
				const head = q.body.items.find((t) => t.tts_url);
				// Audio still rendering: its tip.tts_ready event comes.
				if (!head) continue;
				// Ours from before a failure (started, never finished): finish it; else claim it.
				if (q.body.current_order_id !== head.order_id || !q.body.currently_playing) {
					if (q.body.currently_playing) continue;
					const started = await this.api.request(ttsStart, { orderId: head.order_id });
					if (!started.ok) {
						this.later();
						continue;
					}
					await sleep(200);
				}
				const done = await this.api.request(ttsFinish, { orderId: head.order_id });
				if (!done.ok) this.later();
				else this.again = true;
			} while (this.again);
		} finally {
			this.busy = false;
		}
	}
}

let claimers: Claimer[] = [];

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
		else if (m.type === 'claimers') {
			for (const c of claimers) c.stop();
			claimers = [];
			if (m.on) {
				const make = source();
				claimers = keys.map((_, i) => new Claimer(make(i)));
				for (const c of claimers) c.start();
			}
			process.send!({ type: 'done', result: null });
		}
	} catch (err) {
		process.send!({ type: 'error', error: err instanceof Error ? err.stack : String(err) });
	}
});
// Stopped by the bench: exit normally (a --cpu-prof profile is written on exit).
process.on('SIGTERM', () => process.exit(0));
process.send!({ type: 'ready' });
