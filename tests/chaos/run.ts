// One chaos run: the simulator and the token endpoint on loopback, a main consumer (an overlay page
// with a TTS and a media widget, the real client code in Node) and extra consumers that appear and
// vanish, tips and video requests sent fast, random faults from one seeded source, a streamer who
// pauses, resumes, skips, removes and clears. Then a drain (faults lifted, queues resumed) and the
// ledger check (ledger.ts) over the simulator's log and the consumers' play records.
import { startSimulator, type RunningSimulator } from '../../src/sim/index.ts';
import type { LogEntry } from '../../src/sim/log.ts';
import { demoVideos } from '../../src/sim/demo-videos.ts';
import { serveTokenEndpoint, type ServedEndpoint } from '../fixtures/served-endpoint.ts';
import { OVERLAY_KEY, simUpstream } from '../fixtures/token-endpoint.ts';
import {
	CHAOS_TIMING,
	ChaosConsumer,
	chaosTakeoverMs,
	type ChaosRecorder,
	type ChaosTiming
} from './consumers.ts';
import { checkLedger, type LedgerResult } from './ledger.ts';

export interface ChaosOptions {
	seed: number;
	/** How long tips and faults keep coming (ms); the drain comes after. */
	durationMs: number;
	/** Consumers at most at once, the main one included (1 to 3). */
	consumers: number;
	/** Also a real overlay page (built dist/) in headless Chromium. */
	page?: boolean;
	/** Mean time between two new queue items (ms). */
	itemEveryMs: number;
	/** Mean time between two faults (ms). */
	faultEveryMs: number;
	/** Mean time between two streamer actions (ms). */
	streamerEveryMs: number;
	/** The longest the drain may take before the run is declared stuck (ms). */
	drainMs: number;
	timing: ChaosTiming;
	/** Progress lines (the CLI prints them). */
	progress?: (line: string) => void;
}

export const DEFAULT_CHAOS: Omit<ChaosOptions, 'seed' | 'durationMs'> = {
	consumers: 3,
	itemEveryMs: 450,
	faultEveryMs: 1_200,
	streamerEveryMs: 2_500,
	drainMs: 60_000,
	timing: CHAOS_TIMING
};

export interface ChaosReport {
	seed: number;
	durationMs: number;
	ledger: LedgerResult;
	/** What was injected, by kind. */
	faults: Record<string, number>;
	/** What the streamer did, by kind. */
	streamer: Record<string, number>;
	items: { tips: number; media: number };
	drainMs: number;
	logs: string[];
	/** The simulator's log and the play records the ledger was computed from. */
	log: LogEntry[];
	plays: ChaosRecorder['plays'];
}

/** A small seeded PRNG (mulberry32): one seed, one sequence of decisions. */
export function seeded(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const NAMES = ['Ada', 'محمد', 'Zoë', '李雷', 'O’Brien', '🎉Party', 'Jörg', 'אורי'];
const MESSAGES = [
	'Hello stream!',
	'Great play',
	'مرحبا بالجميع',
	'Привет из Москвы',
	'gg 🎮🔥',
	'Keep going, you can do it',
	'<b>not bold</b>'
];

export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
	const rnd = seeded(opts.seed);
	const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
	const chance = (p: number) => rnd() < p;
	const between = (a: number, b: number) => Math.round(a + rnd() * (b - a));
	const say = opts.progress ?? (() => {});

	const sim: RunningSimulator = await startSimulator({
		quiet: true,
		audioDelayMs: 50,
		// The chaos injects its own 429s; the real budget would throttle three fast consumers, and
		// a short window keeps an injected 429's RateLimit-Reset short.
		perKeyPerMinute: 1_000_000,
		perIpPerMinute: 1_000_000,
		rateWindowMs: 2_000
	});
	const endpoint: ServedEndpoint = await serveTokenEndpoint(simUpstream(sim));
	const control = sim.control;
	const model = control.model;
	const rec: ChaosRecorder = { plays: [], lives: [], logs: [] };
	const faults: Record<string, number> = {};
	const streamer: Record<string, number> = {};
	const count = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
	const mediaPaths: Record<string, string> = {};
	const log: LogEntry[] = [];
	let lastSeq = 0;
	const collect = () => {
		const fresh = control.log.since(lastSeq);
		if (fresh.length) lastSeq = fresh[fresh.length - 1].seq;
		log.push(...fresh);
	};

	const reload = (c: ChaosConsumer) => c.reload();
	const vanish = (c: ChaosConsumer) => c.vanish();

	const main = new ChaosConsumer('A', endpoint.origin, OVERLAY_KEY, rec, opts.timing);
	main.start();
	// Loaded only when wanted: the Node-only run (in vitest) needs no browser.
	const page = opts.page ? await (await import('./page.ts')).PageConsumer.open(sim, rec) : null;
	const extras: ChaosConsumer[] = [];
	let extraCount = 0;

	let items = 0;
	let tips = 0;
	let media = 0;
	const addItem = () => {
		items += 1;
		const withMedia = chance(0.35);
		const videoOnly = withMedia && chance(0.4);
		let mediaInput: Parameters<typeof model.createTip>[0]['media'];
		if (withMedia) {
			const video = pick(demoVideos);
			const kind = rnd();
			// Every request its own URL, so that the ledger can tell whose video was fetched.
			let url = `${sim.origin}${video.file}?n=${items}`;
			if (kind < 0.08) {
				url = `https://www.twitch.tv/videos/${100000 + items}`;
				count(faults, 'video unsupported');
			} else if (kind < 0.2) {
				control.breakVideo(url, chance(0.5) ? 'missing' : 'corrupt');
				count(faults, 'video broken');
			}
			mediaInput = {
				url,
				title: video.title,
				duration: url.includes('twitch') ? 0 : video.duration,
				start_time: chance(0.2) ? 1 : 0,
				requested_via: 'tip'
			};
		}
		if (!videoOnly && chance(0.12)) {
			control.breakNextAudio(1, chance(0.5) ? 'missing' : 'corrupt');
			count(faults, 'audio broken');
		}
		const tip = model.createTip({
			name: pick(NAMES),
			amount: between(1, 50),
			message: videoOnly ? null : pick(MESSAGES),
			paid: true,
			source: 'test',
			media: mediaInput
		});
		tips += 1;
		if (mediaInput) {
			media += 1;
			if (mediaInput.url.startsWith(sim.origin))
				mediaPaths[tip.order_id] = mediaInput.url.slice(sim.origin.length);
		}
	};

	const injectFault = () => {
		const r = rnd();
		if (r < 0.14) {
			control.dropSockets(chance(0.5) ? between(200, 1500) : 0);
			count(faults, 'socket drop');
		} else if (r < 0.28) {
			control.duplicateEvents(between(1, 6));
			count(faults, 'duplicate events');
		} else if (r < 0.42) {
			control.reorderEvents(between(1, 4));
			count(faults, 'reorder events');
		} else if (r < 0.54) {
			control.delayEvents(between(1, 4), between(200, 1200));
			count(faults, 'delay events');
		} else if (r < 0.66) {
			control.failHttp({
				status: 429,
				...(chance(0.5) ? { count: between(1, 5) } : { forMs: between(300, 1500) })
			});
			count(faults, '429 burst');
		} else if (r < 0.8) {
			control.failHttp({
				status: 502,
				...(chance(0.5) ? { count: between(1, 5) } : { forMs: between(300, 1500) })
			});
			count(faults, '502 burst');
		} else if (r < 0.85) {
			// Another consumer that claims the head and crashes (never releases): a takeover.
			try {
				control.holdRivalClaim(chance(0.5) ? 'tts' : 'media', chance(0.5) ? { forMs: 1500 } : {});
				count(faults, 'rival claim');
			} catch {
				// Empty queue or a claim already held: nothing to hold.
			}
		} else if (r < 0.93) {
			const alive = [main, ...extras.filter((c) => c.alive)];
			if (page && chance(0.35)) {
				void page.reload();
				count(faults, 'browser page reload');
			} else {
				reload(pick(alive));
				count(faults, 'page reload');
			}
		} else if (opts.consumers > 1) {
			// A second or third consumer appears, or one of them vanishes for good.
			const alive = extras.filter((c) => c.alive);
			if (alive.length < opts.consumers - 1 && (alive.length === 0 || chance(0.5))) {
				extraCount += 1;
				const c = new ChaosConsumer(
					`X${extraCount}`,
					endpoint.origin,
					OVERLAY_KEY,
					rec,
					opts.timing
				);
				extras.push(c);
				c.start();
				count(faults, 'consumer appears');
			} else if (alive.length > 0) {
				vanish(pick(alive));
				count(faults, 'consumer vanishes');
			}
		}
	};

	const streamerAction = () => {
		const r = rnd();
		try {
			if (r < 0.2) {
				// A pause lasts a few seconds (the streamer resumes), unless a later action resumes it.
				if (!model.tts.paused) {
					model.setPaused('tts', true);
					count(streamer, 'tts pause');
					later(between(1_000, 5_000), () => model.tts.paused && model.setPaused('tts', false));
				}
			} else if (r < 0.4) {
				if (!model.media.paused) {
					model.setPaused('media', true);
					count(streamer, 'media pause');
					later(between(1_000, 5_000), () => model.media.paused && model.setPaused('media', false));
				}
			} else if (r < 0.55) {
				if (model.skip('tts')) count(streamer, 'tts skip');
			} else if (r < 0.65) {
				if (model.skip('media')) count(streamer, 'media skip');
			} else if (r < 0.8) {
				const q = chance(0.6) ? 'tts' : 'media';
				const list: { order_id: string }[] = q === 'tts' ? model.tts.items : model.media.items;
				if (list.length) {
					const id = pick(list).order_id;
					model.remove(q, id);
					count(streamer, `${q} remove`);
				}
			} else if (r < 0.85) {
				model.ttsClear();
				count(streamer, 'tts clear');
			} else if (r < 0.95) {
				if (model.tts.paused) model.setPaused('tts', false);
				if (model.media.paused) model.setPaused('media', false);
				count(streamer, 'resume all');
			}
		} catch {
			// Nothing to skip or remove right now.
		}
	};

	const started = Date.now();
	const timers: ReturnType<typeof setTimeout>[] = [];
	let running = true;
	function later(ms: number, fn: () => void): void {
		timers.push(setTimeout(() => running && fn(), ms));
	}
	const every = (meanMs: number, fn: () => void) => {
		const next = () => {
			if (!running) return;
			const t = setTimeout(
				() => {
					if (!running) return;
					fn();
					next();
				},
				between(meanMs * 0.3, meanMs * 1.7)
			);
			timers.push(t);
		};
		next();
	};
	const collector = setInterval(collect, 500);
	const ticker = setInterval(() => {
		say(
			`  ${Math.round((Date.now() - started) / 1000)} s: ${items} items, tts queued ${model.tts.items.length}, media queued ${model.media.items.length}, consumers ${1 + extras.filter((c) => c.alive).length}`
		);
	}, 10_000);
	every(opts.itemEveryMs, addItem);
	every(opts.faultEveryMs, injectFault);
	every(opts.streamerEveryMs, streamerAction);
	await new Promise((r) => setTimeout(r, opts.durationMs));
	running = false;
	for (const t of timers) clearTimeout(t);

	// Drain: faults lifted, queues resumed, the main consumer alive; everything still queued must
	// now be played, or refused as unplayable.
	const drainStart = Date.now();
	say('  drain: faults lifted, queues resumed');
	control.clearFaults();
	if (model.tts.paused) model.setPaused('tts', false);
	if (model.media.paused) model.setPaused('media', false);
	const refusedOnly = () =>
		model.media.items.every((i) => {
			const p = rec.plays.filter((x) => x.queue === 'media' && x.orderId === i.order_id);
			return p.length > 0 && p.every((x) => x.how === 'failed');
		});
	const drained = () =>
		model.tts.items.every((t) => t.tts_url === null) &&
		model.tts.current === null &&
		model.media.current === null &&
		refusedOnly();
	let settled = false;
	while (Date.now() - drainStart < opts.drainMs) {
		if (drained()) {
			// Still so a moment later: no claim about to start.
			await new Promise((r) => setTimeout(r, 1_000));
			if (drained()) {
				settled = true;
				break;
			}
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	const drainMs = Date.now() - drainStart;
	clearInterval(ticker);
	clearInterval(collector);
	const endAt = Date.now();
	const remaining = {
		tts: model.tts.items.map((i) => i.order_id),
		media: model.media.items.map((i) => i.order_id)
	};
	for (const c of [main, ...extras]) c.close();
	await page?.close();
	collect();
	await endpoint.close();
	await sim.close();

	const durations: Record<string, number> = {};
	for (const v of demoVideos) durations[v.file] = v.duration;
	const ledger = checkLedger({
		log,
		plays: rec.plays,
		lives: rec.lives,
		allRecorded: !page,
		mediaPaths,
		claimLimitMs: (queue, orderId) => {
			if (queue === 'tts') return chaosTakeoverMs(opts.timing, 'tts', undefined) + 2_000;
			const path = mediaPaths[orderId];
			const file = path?.replace(/\?.*$/, '');
			const d = file ? (durations[file] ?? 0) : 0;
			return chaosTakeoverMs(opts.timing, 'media', { video_duration: d, media_start_time: 0 });
		},
		slackMs: 12_000,
		overlapGraceMs: 1_500,
		endAt,
		drained: true,
		remaining
	});
	if (!settled) ledger.violations.push(`the queues did not drain within ${opts.drainMs} ms`);
	ledger.ok = ledger.violations.length === 0;
	return {
		seed: opts.seed,
		durationMs: opts.durationMs,
		ledger,
		faults,
		streamer,
		items: { tips, media },
		drainMs,
		logs: rec.logs,
		log,
		plays: rec.plays
	};
}
