// `npm run bench`: builds the product, runs it against the simulator in headless Chromium, prints a
// table (min, median and max over repeated runs, against each budget) and writes it with the
// machine it ran on to bench-results/latest.json and .md (an ignored folder: measuring leaves the
// checkout clean). `--publish` writes bench/results/latest.* instead, the tracked run the README
// quotes; `--out FILE` anywhere else.
//
//   npm run bench                 the full bench (~9.5 min on a 2-core machine)
//   npm run bench -- --quick      fewer repeats and tips (~5 min: the idle part still waits 2 min
//                                 for the pages to settle), same figures
//   npm run bench -- --only=weight,idle   a subset: weight, floor, play, idle, soak, recovery,
//                                         endpoint
//   npm run bench -- --no-build   use dist/ as it is
//   npm run bench:weight          page weights only (no browser)
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { args, only, quick, SETTINGS } from './args.ts';
import { BUDGETS } from './budgets.ts';
import { launch } from './browser.ts';
import { endpointRun, type EndpointRun } from './endpoint.ts';
import { floorName, floorRun, floorWeights, type FloorPage, type Library } from './floor.ts';
import { machine, quantile, row, table, type Row } from './lib.ts';
import { publishReadme, replacing } from './readme.ts';
import { LIBRARIES, pageShares, type PageShares } from './shares.ts';
import {
	idleRun,
	p95,
	playRun,
	recoveryRun,
	soakRun,
	type IdleRun,
	type PlayRun,
	type RecoveryRun,
	type SoakRun
} from './scenarios.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const began = Date.now();
const log = (msg: string) =>
	console.error(`[bench ${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${msg}`);

// The floor part builds its own pages (bench/floor.ts); every other browser part needs dist/.
if (!args['no-build'] && [...only].some((p) => p !== 'floor')) {
	log('building (vite build)');
	execFileSync(
		process.execPath,
		[`${root}node_modules/vite/bin/vite.js`, 'build', '--logLevel', 'warn'],
		{
			cwd: root,
			stdio: 'inherit'
		}
	);
}

const rows: Row[] = [];
const raw: Record<string, unknown> = {};
const KB = 1000;

// Each page's weight, split between the stack's libraries and our code (bench/shares.ts: its own
// build of the product, about 5 s), and our code measured the way the budget states it: the page
// minus the floor page of the same libraries (bench/floor.ts), so a page is not credited with a
// library it does not load.
if (only.has('weight')) {
	log("weight: page sizes, library shares, the floor of each page's libraries");
	const weights: PageShares[] = await pageShares();
	const libsOf = (w: PageShares) =>
		LIBRARIES.filter((lib) => lib !== 'svelte' && w.shares[lib] > 0) as Library[];
	const floors = await floorWeights(weights.map(libsOf));
	raw.weight = weights.map((w) => ({ ...w, floor: floorName(libsOf(w)) }));
	const kb = (n: number) => (n / KB).toFixed(1);
	for (const w of weights) {
		const split = [...LIBRARIES, 'other packages' as const]
			.filter((g) => w.shares[g] > 0)
			.map((g) => `${g === 'reconnecting-websocket' ? 'rws' : g} ${kb(w.shares[g])}`);
		rows.push(
			row(
				`weight ${w.page}: ${split.join(', ')}, ours ${kb(w.shares.ours)} (CSS ${kb(w.cssGz)})`,
				'kB gz',
				[w.totalGz / KB]
			)
		);
		const budget = BUDGETS.ownWeightBytes[w.page];
		if (budget === undefined) continue;
		const floor = floors.get(floorName(libsOf(w)))!;
		rows.push(
			row(
				`our code on ${w.page}: page − floor ${floorName(libsOf(w))} (${kb(floor.totalGz)})`,
				'kB gz',
				[(w.totalGz - floor.totalGz) / KB],
				{ max: budget / KB }
			)
		);
	}
}

// The floor of the specified stack (Svelte 5 alone, with zod/mini, and with every library), built
// from bench/floor/: what the weight and heap budgets can at best get down to before our code.
if (only.has('floor')) {
	log('floor: Svelte, Svelte + zod/mini and whole-stack pages (build, weight, heap)');
	const pages: FloorPage[] = await floorRun({ loads: SETTINGS.floorLoads });
	raw.floor = pages;
	for (const p of pages) {
		if (p.page !== 'empty')
			rows.push(
				row(
					`floor weight ${p.page} (JS ${(p.jsGz / KB).toFixed(1)} + CSS ${(p.cssGz / KB).toFixed(1)})`,
					'kB gz',
					[p.totalGz / KB]
				)
			);
		rows.push(row(`floor resident JS heap after GC, ${p.page} page`, 'MB', p.heapMb));
	}
}

async function repeat<T>(name: string, times: number, run: () => Promise<T>): Promise<T[]> {
	const out: T[] = [];
	for (let i = 0; i < times; i++) {
		log(`${name} ${i + 1}/${times}`);
		out.push(await run());
	}
	return out;
}

const median = (v: number[]) => quantile(v, 0.5);

if (only.has('play')) {
	const runs: PlayRun[] = await repeat('reaction, gap, API economy', SETTINGS.repeats, () =>
		playRun(SETTINGS.play)
	);
	raw.play = runs;
	rows.push(
		row(
			'reaction p95 (tts_ready sent → start call in)',
			'ms',
			runs.map((r) => p95(r.reactionMs)),
			{
				max: BUDGETS.reactionP95Ms
			}
		),
		row(
			'reaction median',
			'ms',
			runs.map((r) => median(r.reactionMs))
		),
		row(
			'gap p95 (audio end → next ready tip audio)',
			'ms',
			runs.map((r) => p95(r.gapMs)),
			{
				max: BUDGETS.gapP95Ms
			}
		),
		row(
			'gap median',
			'ms',
			runs.map((r) => median(r.gapMs))
		),
		row(
			'gap part median: audio end → its finish answered upstream',
			'ms',
			runs.map((r) => median(r.gapParts.finish))
		),
		row(
			'gap part median: → the next start answered upstream',
			'ms',
			runs.map((r) => median(r.gapParts.start))
		),
		row(
			'gap part median: → the next audio playing',
			'ms',
			runs.map((r) => median(r.gapParts.play))
		),
		row(
			'upstream calls per played tip (steady)',
			'calls',
			runs.map((r) => r.callsPerTip),
			{
				exactly: BUDGETS.callsPerTip
			}
		),
		row(
			'upstream calls at first connect',
			'calls',
			runs.map((r) => r.callsAtConnect)
		),
		row(
			'upstream calls per clean reconnect',
			'calls',
			runs.flatMap((r) => r.callsPerReconnect)
		)
	);
}

if (only.has('idle')) {
	const { seconds, windows, settleS } = SETTINGS.idle;
	log(`idle cost (${settleS} s to settle, then ${windows} windows of ${seconds} s)`);
	const run: IdleRun = await idleRun(SETTINGS.idle);
	raw.idle = run;
	// Each window is one figure ("runs" in the table): they follow one another on the same pages.
	const w = run.windows;
	for (const page of ['tts', 'overlay'] as const) {
		const label = page === 'tts' ? 'TTS page' : 'full overlay';
		rows.push(
			row(
				`idle animation frames, ${label}`,
				'/s',
				w.map((r) => r[page].framesPerS),
				{
					max: BUDGETS.idleFramesPerS
				}
			),
			row(
				`idle main-thread task time, ${label}`,
				'ms/s',
				w.map((r) => r[page].taskMsPerS),
				{
					max: BUDGETS.idleTaskMsPerS
				}
			),
			row(
				`idle CPU above empty page, ${label}`,
				'% pts',
				w.map((r) => r[page].cpuPct - r.blank.cpuPct),
				{ max: BUDGETS.idleCpuOverBlankPts }
			)
		);
	}
	rows.push(
		row(
			'idle main-thread task time, empty page',
			'ms/s',
			w.map((r) => r.blank.taskMsPerS)
		),
		row(
			'idle CPU, empty page (browser process tree)',
			'%',
			w.map((r) => r.blank.cpuPct)
		),
		row('resident JS heap after GC, TTS page', 'MB', [run.resident.tts.heapMb], {
			max: BUDGETS.residentHeapMb.tts
		}),
		row('resident JS heap after GC, full overlay', 'MB', [run.resident.overlay.heapMb], {
			max: BUDGETS.residentHeapMb.overlay
		}),
		row('resident JS heap after GC, empty page', 'MB', [run.resident.blank.heapMb])
	);
}

// The soak is long and measures memory, not time: it runs alongside the recovery runs, whose
// figures are dominated by the reconnect backoff (0.5 to 1 s), not by CPU.
const soaking = only.has('soak')
	? (log(`memory soak (${SETTINGS.soak.tips} tips, alongside what follows)`),
		soakRun(SETTINGS.soak))
	: undefined;
soaking?.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled

if (only.has('recovery')) {
	const runs: RecoveryRun[] = await repeat(
		`recovery (${SETTINGS.recovery.drops} drops)`,
		SETTINGS.repeats,
		() => recoveryRun(SETTINGS.recovery)
	);
	raw.recovery = runs;
	rows.push(
		row(
			'recovery p95 (accepting again → missed tip started)',
			'ms',
			runs.map((r) => p95(r.recoveryMs)),
			{
				max: BUDGETS.recoveryP95Ms
			}
		),
		row(
			'recovery median',
			'ms',
			runs.map((r) => median(r.recoveryMs))
		),
		row(
			`plays lost or doubled (${runs.reduce((n, r) => n + r.drops, 0)} drops in all)`,
			'plays',
			runs.map((r) => r.lostOrDoubled),
			{ exactly: BUDGETS.recoveryLostOrDoubled }
		),
		row(
			'upstream calls per drop (refused attempts included)',
			'calls',
			runs.map((r) => median(r.callsPerDrop))
		)
	);
}

if (only.has('soak')) {
	const runs: SoakRun[] = [await soaking!];
	raw.soak = runs;
	const at = SETTINGS.soak.checkAt;
	const n = SETTINGS.soak.tips;
	rows.push(
		row(
			`soak JS heap growth, tip ${at} → ${n}`,
			'MB',
			runs.map((r) => r.heapMbEnd - r.heapMbAt),
			{
				max: BUDGETS.soakHeapGrowthMb
			}
		),
		row(
			`soak DOM nodes growth, tip ${at} → ${n}`,
			'nodes',
			runs.map((r) => r.domEnd - r.domAt),
			{
				max: BUDGETS.soakDomGrowth
			}
		),
		row(
			'soak tips not played exactly once',
			'tips',
			runs.map((r) => r.lostOrDoubled),
			{
				exactly: 0
			}
		),
		row(
			'soak tips per second',
			'tips/s',
			runs.map((r) => r.tips / r.seconds)
		)
	);
}

if (only.has('endpoint')) {
	const runs: EndpointRun[] = await repeat('token endpoint', SETTINGS.repeats, () =>
		endpointRun(SETTINGS.endpoint)
	);
	raw.endpoint = runs;
	rows.push(
		row(
			'token endpoint added latency p99',
			'ms',
			runs.map((r) => r.addedP99Ms),
			{
				max: BUDGETS.endpointAddedP99Ms
			}
		),
		row(
			'token endpoint added latency p50',
			'ms',
			runs.map((r) => r.addedP50Ms)
		),
		// What a zero-cost hop scores at the same moment: the machine's own noise in that p99.
		row(
			'noise p99 (direct call against direct call)',
			'ms',
			runs.map((r) => r.noiseP99Ms)
		),
		row(
			`token endpoint proxied calls/s${runs[0]?.pinned ? ', one core' : ' (not pinned)'}`,
			'calls/s',
			runs.map((r) => r.rps)
		)
	);
}

let chromium = 'not launched';
try {
	const b = await launch();
	chromium = b.version;
	await b.close();
} catch {
	// reported as not launched
}
const m = machine(chromium);
const seconds = (Date.now() - began) / 1000;
const result = {
	command: [
		'npm run bench',
		quick || args.only ? ' --' : '',
		quick ? ' --quick' : '',
		args.only ? ` --only=${args.only}` : ''
	].join(''),
	machine: m,
	seconds: Math.round(seconds),
	settings: SETTINGS,
	rows,
	raw
};
const out = args.out ?? `${root}${args.publish ? 'bench/results' : 'bench-results'}/latest.json`;
mkdirSync(new URL('.', `file://${out}`).pathname, { recursive: true });
const kept = args.publish ? replacing(root, 'widgets', result) : result;
writeFileSync(out, JSON.stringify(kept, null, '\t') + '\n');

const machineLine =
	`Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB; load average ${m.loadAverage.join(' ')}; ` +
	`Node ${m.node}; Chromium ${m.chromium}; ${m.platform}; ${m.date}; \`${result.command}\` took ` +
	`${Math.round(seconds)} s.`;
// The same table as Markdown next to the JSON, for docs/performance.md.
writeFileSync(out.replace(/\.json$/, '.md'), `${machineLine}\n\n${table(rows)}\n`);
console.log(`\n${machineLine}\n`);
console.log(table(rows));
console.log(`\nWritten: ${out}`);
if (args.publish) {
	publishReadme(root);
	console.log('Published into README.md (Performance)');
}
const missed = rows.filter((r) => r.met === false);
if (missed.length) console.log(`Budgets missed: ${missed.length} (see docs/performance.md)`);
