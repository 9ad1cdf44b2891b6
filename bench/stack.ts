// The product as OBS meets it: the simulator and the token endpoint serving the built dist/, both on
// loopback ports in this process (the e2e tier's stack), with the simulator's rate limits lifted so
// that thousands of tips fit in a minute.
import { fileURLToPath } from 'node:url';
import { VIEW_PARTS } from '../src/core/view/parts.ts';
import { serveApp } from '../src/server/serve.ts';
import { startSimulator, type RunningSimulator, type StartOptions } from '../src/sim/index.ts';
import type { RequestEntry } from '../src/sim/log.ts';

export const DIST = fileURLToPath(new URL('../dist', import.meta.url));
export const OVERLAY_KEY = 'bench_overlay_key_0123456789';

export interface Stack {
	sim: RunningSimulator;
	origin: string;
	url(path: string, params?: Record<string, string | number>): string;
	/** Requests the simulator answered after log sequence `since`. */
	requests(since?: number): RequestEntry[];
	/** Every request and event the simulator logs from now on, as it happens (no polling). */
	tracker: Tracker;
	close(): Promise<void>;
}

export async function startStack(options: StartOptions = {}): Promise<Stack> {
	const sim = await startSimulator({
		quiet: true,
		audioDelayMs: 0,
		perKeyPerMinute: 1_000_000,
		perIpPerMinute: 1_000_000,
		...options
	});
	const served = await serveApp({
		mode: 'demo',
		upstream: { baseUrl: sim.baseUrl, wsUrl: sim.wsUrl, apiKey: sim.apiKey },
		overlayKey: OVERLAY_KEY,
		dist: DIST,
		simulatorOrigin: sim.origin
	});
	// The server's own intake reads its live view as it connects: done before a page is measured.
	const intake = served.intake!;
	while (!VIEW_PARTS.every((part) => intake.view.sure(part)))
		await new Promise((resolve) => setTimeout(resolve, 20));
	const tracker = new Tracker(sim);
	return {
		sim,
		tracker,
		origin: served.origin,
		url: (path, params = {}) => {
			const q = new URLSearchParams({ key: OVERLAY_KEY });
			for (const [k, v] of Object.entries(params)) q.set(k, String(v));
			return `${served.origin}${path}?${q}`;
		},
		requests: (since = 0) =>
			sim.control.log.since(since).filter((e): e is RequestEntry => e.kind === 'request'),
		close: async () => {
			await served.close();
			await sim.close();
		}
	};
}

export interface Entry {
	kind: 'request' | 'event';
	/** Epoch ms when the simulator logged it (a request: when it answered). */
	t: number;
	method?: string;
	path?: string;
	status?: number;
	type?: string;
	order_id?: string;
}

/**
 * Taps the simulator's log: tip by tip, when its tts_ready left, when its start and finish calls
 * were answered, and every request (for call counts).
 */
export class Tracker {
	readonly entries: Entry[] = [];
	readonly ready = new Map<string, number>();
	/** Successful (200) start and finish calls per order id, with their times. */
	readonly starts = new Map<string, number[]>();
	readonly finishes = new Map<string, number[]>();
	private waiters: Array<() => void> = [];

	constructor(sim: RunningSimulator) {
		const log = sim.control.log;
		const request = log.request.bind(log);
		const event = log.event.bind(log);
		log.request = (e) => {
			request(e);
			const t = Date.now();
			this.entries.push({ kind: 'request', t, method: e.method, path: e.path, status: e.status });
			const add = (map: Map<string, number[]>, id: string) =>
				map.set(id, [...(map.get(id) ?? []), t]);
			if (e.method === 'POST' && e.status === 200) {
				const s = START.exec(e.path);
				if (s) add(this.starts, s[1]);
				const f = FINISH.exec(e.path);
				if (f) add(this.finishes, f[1]);
			}
			this.wake();
		};
		log.event = (e) => {
			event(e);
			const t = Date.now();
			this.entries.push({ kind: 'event', t, type: e.type, order_id: e.order_id });
			if (e.type === 'tip.tts_ready' && e.order_id) this.ready.set(e.order_id, t);
			this.wake();
		};
	}

	/** Resolves when `check` holds after some log entry (or now), rejects after `timeoutMs`. */
	async until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
		const end = Date.now() + timeoutMs;
		while (!check()) {
			const left = end - Date.now();
			if (left <= 0) throw new Error(`bench: timed out waiting for ${what}`);
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, Math.min(left, 250));
				this.waiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
	}

	/** Requests logged at or after epoch ms `from` (and before `to`). */
	requestsBetween(from: number, to = Infinity): Entry[] {
		return this.entries.filter((e) => e.kind === 'request' && e.t >= from && e.t < to);
	}

	private wake(): void {
		const w = this.waiters;
		this.waiters = [];
		for (const fn of w) fn();
	}
}

/** The order id of a tip's audio URL (`.../audio/<order id>.wav`). */
export function orderIdOfAudio(src: string): string | null {
	return /\/audio\/([^/?#]+)\.wav/.exec(src)?.[1] ?? null;
}

export const START = /^\/tts\/([^/]+)\/start$/;
export const FINISH = /^\/tts\/([^/]+)\/finish$/;
