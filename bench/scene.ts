// `npm run bench:scene`: the scene of the README timed (tests/fixtures/scene.ts: the preview, the
// ten OBS sources and the dock in one browser context; tests/e2e/scene.spec.ts checks what it must
// hold). In demo mode (`npm start`'s embedded simulator) and in live mode (`npm run sim` as the
// upstream, the token endpoint in front of it), each as its own processes (bench/scene-stack.ts)
// in the system Chromium (bench/browser.ts), a tip every 6 s and a video every 20 s for --seconds
// (90). For each tip: its creation to its start, both in the simulator's log (tip.created,
// queue.tts.started), p50 and max and how many took longer than 1 s, each late one with where its
// time went; the requests the pages were refused; the streamer's reads of the upstream once the
// scene was loaded. The flood variant: while the scene runs, every page's and frame's own last GET
// of the token endpoint, exactly as it went out (path, query, every header), replayed 3 at once
// every 1.5 s, honouring no 429, as the hosted bench's read flood replays them
// (bench/hosted/flood-reader.ts). Writes bench-results/scene.json (--out to change); exits 1 when
// a target is missed. `npm run build` first.
//
//   npm run bench:scene                              demo and live, each without and with the flood
//   npm run bench:scene -- --modes=live --flood=on   one variant
//   npm run bench:scene -- --seconds=60
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { expectedRefusal, runScene, type SceneRun } from '../tests/fixtures/scene-run.ts';
import { SCENE_TARGETS, SceneSim } from '../tests/fixtures/scene-traffic.ts';
import { launch } from './browser.ts';
import { floodReads, type FloodResult } from './hosted/flood-reader.ts';
import { machine, quantile } from './lib.ts';
import { sceneReport, type SceneFiguresRow } from './scene-report.ts';
import { startSceneStack } from './scene-stack.ts';

const { values: args } = parseArgs({
	options: {
		modes: { type: 'string', default: 'demo,live' },
		flood: { type: 'string', default: 'both' },
		seconds: { type: 'string', default: '90' },
		out: { type: 'string' }
	}
});
const modes = args.modes.split(',').map((m) => m.trim());
const floods = { off: [false], on: [true], both: [false, true] }[args.flood];
if (!floods || modes.some((m) => m !== 'demo' && m !== 'live')) {
	console.error('bench: --modes is demo, live or both (demo,live); --flood is off, on or both');
	process.exit(2);
}
const ms = Number(args.seconds) * 1000;

/** The hosted bench's read flood (bench/hosted/args.ts, FLOOD): 3 at once every 1.5 s. */
const FLOOD = { readsAtOnce: 3, readsEveryMs: 1_500 };

const began = Date.now();
const log = (msg: string) =>
	console.error(`[bench:scene ${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${msg}`);

async function variant(mode: 'demo' | 'live', flood: boolean): Promise<SceneFiguresRow> {
	const label = `${mode}${flood ? ' + read flood' : ''}`;
	log(`${label}: starting`);
	const stack = await startSceneStack(mode);
	const b = await launch();
	try {
		const context = await b.browser.newContext();
		const run: SceneRun<FloodResult | null> = await runScene(context, {
			origin: stack.origin,
			keys: stack.keys,
			sim: new SceneSim(stack.simOrigin, stack.apiKey),
			ms,
			beside: async (scene, forMs) => {
				log(`${label}: scene loaded, ${forMs / 1000} s of traffic${flood ? ' and flood' : ''}`);
				if (!flood) return null;
				const sources = scene.sources().map((source) => ({
					last: () => scene.lastGet(source),
					fetch: (path: string, init?: RequestInit) => fetch(`${stack.origin}${path}`, init)
				}));
				return floodReads(sources, {
					ms: forMs,
					everyMs: FLOOD.readsEveryMs,
					atOnce: FLOOD.readsAtOnce
				});
			}
		});
		await context.close();
		return row(label, run, b.version);
	} finally {
		await b.close();
		await stack.close();
	}
}

function row(label: string, run: SceneRun<FloodResult | null>, chromium: string): SceneFiguresRow {
	const { figures } = run;
	const refused: Record<string, number> = {};
	for (const a of run.failures.filter((f) => !expectedRefusal(f))) {
		// Who refused, in words when there is no code (the budget's "rate limit: ... for N s more").
		const why = a.code ?? a.error?.replace(/\d+/g, 'N').concat(a.limit ? ` of ${a.limit}` : '');
		const kind = `${a.page}: ${a.method} ${a.path} ${a.status}${why ? ` ${why}` : ''}`;
		refused[kind] = (refused[kind] ?? 0) + 1;
	}
	const tips = figures.tips;
	const late = tips.flatMap((t, i) => {
		const took = t.startedAt[0] - t.createdAt;
		if (took <= SCENE_TARGETS.startMs) return [];
		const before = tips[i - 1]?.finishedAt;
		return [
			`${t.orderId}: ${took} ms (audio ready after ${t.readyAt - t.createdAt} ms, started ` +
				`${t.startedAt[0] - t.readyAt} ms later` +
				(before > t.createdAt ? `; the alert before it ended ${before - t.createdAt} ms in)` : ')')
		];
	});
	const minutes = figures.windowMs / 60_000;
	const flood = run.beside;
	return {
		label,
		chromium,
		tips: tips.length,
		videos: run.traffic.videos.length,
		startP50Ms: quantile(figures.startMs, 0.5),
		startMaxMs: Math.max(...figures.startMs),
		startMs: figures.startMs,
		later: figures.startMs.filter((t) => t > SCENE_TARGETS.startMs).length,
		late,
		notStarted: tips.filter((t) => t.startedAt.length === 0).length,
		notOnce: tips.filter((t) => t.startedAt.length !== 1 || t.granted !== 1).length,
		refused,
		reads: figures.reads.length,
		readsPerMinute: Math.round((figures.reads.length / minutes) * 10) / 10,
		peakReadsPerMinute: figures.peakReadsPerMinute,
		readsByPath: figures.readsByPath,
		upstream429: figures.upstream429.length,
		loading: run.loading,
		flood: flood && {
			reads: flood.reads,
			refused: Object.entries(flood.statuses)
				.filter(([status]) => !/^2/.test(status))
				.reduce((n, [, k]) => n + k, 0),
			byPath: flood.byPath
		}
	};
}

const rows: SceneFiguresRow[] = [];
for (const mode of modes as ('demo' | 'live')[])
	for (const flood of floods) rows.push(await variant(mode, flood));

const m = machine(rows[0]?.chromium ?? 'not launched');
const report = sceneReport(rows, ms, m);
console.log(report.text);
const root = fileURLToPath(new URL('..', import.meta.url));
const out = args.out ?? `${root}bench-results/scene.json`;
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ machine: m, seconds: ms / 1000, rows }, null, '\t') + '\n');
console.log(`\nWritten: ${out}`);
if (report.missed) process.exitCode = 1;
