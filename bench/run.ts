// `npm run bench`: builds the product, runs it against the simulator in headless Chromium, prints a
// table (min, median and max over repeated runs, against each budget) and writes it with the
// machine it ran on to bench-results/latest.json and .md (an ignored folder: measuring leaves the
// checkout clean). `--publish` writes bench/results/latest.* instead, the tracked run that
// docs/performance.md quotes; `--out FILE` anywhere else.
//
//   npm run bench                 the full bench (~9.5 min on a 2-core machine)
//   npm run bench -- --quick      fewer repeats and tips (~5 min: the idle part still waits 2 min
//                                 for the pages to settle), same figures
//   npm run bench -- --only=weight,idle   a subset: weight, floor, play, idle, soak, recovery,
//                                         endpoint, thanks
//   npm run bench -- --no-build   use dist/ as it is
//   npm run bench:weight          page weights only (no browser)
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { args, only, quick, SETTINGS } from './args.ts';
import { launch } from './browser.ts';
import { endpointRun, type EndpointRun } from './endpoint.ts';
import { floorName, floorRun, floorWeights, type FloorPage } from './floor.ts';
import { idleRun, type IdleRun } from './idle.ts';
import { machine, table, type Row } from './lib.ts';
import { publishReadme, replacing } from './readme.ts';
import {
	endpointRows,
	floorRows,
	idleRows,
	libsOf,
	playRows,
	recoveryRows,
	soakRows,
	weightRows
} from './rows.ts';
import {
	playRun,
	recoveryRun,
	soakRun,
	type PlayRun,
	type RecoveryRun,
	type SoakRun
} from './scenarios.ts';
import { pageShares, type PageShares } from './shares.ts';
import { thanksRows, thanksRun, type ThanksRun } from './thanks.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const began = Date.now();
const log = (msg: string) =>
	console.error(`[bench ${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${msg}`);

// The floor part builds its own pages (bench/floor.ts); every other browser part needs dist/.
if (!args['no-build'] && [...only].some((p) => p !== 'floor' && p !== 'thanks')) {
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

// Each page's weight, split between the stack's libraries and our code (bench/shares.ts: its own
// build of the product, about 5 s), and the floor page of the same libraries (bench/floor.ts), which
// our code is measured against (weightRows in rows.ts).
if (only.has('weight')) {
	log("weight: page sizes, library shares, the floor of each page's libraries");
	const weights: PageShares[] = await pageShares();
	const floors = await floorWeights(weights.map(libsOf));
	raw.weight = weights.map((w) => ({ ...w, floor: floorName(libsOf(w)) }));
	rows.push(...weightRows(weights, floors));
}

// The floor of the specified stack (Svelte 5 alone, with zod/mini, and with every library), built
// from bench/floor/: what the weight and heap budgets can at best get down to before our code.
if (only.has('floor')) {
	log('floor: Svelte, Svelte + zod/mini and whole-stack pages (build, weight, heap)');
	const pages: FloorPage[] = await floorRun({ loads: SETTINGS.floorLoads });
	raw.floor = pages;
	rows.push(...floorRows(pages));
}

async function repeat<T>(name: string, times: number, run: () => Promise<T>): Promise<T[]> {
	const out: T[] = [];
	for (let i = 0; i < times; i++) {
		log(`${name} ${i + 1}/${times}`);
		out.push(await run());
	}
	return out;
}

if (only.has('play')) {
	const runs: PlayRun[] = await repeat('reaction, gap, API economy', SETTINGS.repeats, () =>
		playRun(SETTINGS.play)
	);
	raw.play = runs;
	rows.push(...playRows(runs));
}

if (only.has('idle')) {
	const { seconds, windows, settleS } = SETTINGS.idle;
	log(`idle cost (${settleS} s to settle, then ${windows} windows of ${seconds} s)`);
	const run: IdleRun = await idleRun(SETTINGS.idle);
	raw.idle = run;
	rows.push(...idleRows(run));
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
	rows.push(...recoveryRows(runs));
}

if (only.has('soak')) {
	const runs: SoakRun[] = [await soaking!];
	raw.soak = runs;
	rows.push(...soakRows(runs, SETTINGS.soak));
}

if (only.has('endpoint')) {
	const runs: EndpointRun[] = await repeat('token endpoint', SETTINGS.repeats, () =>
		endpointRun(SETTINGS.endpoint)
	);
	raw.endpoint = runs;
	rows.push(...endpointRows(runs));
}

if (only.has('thanks')) {
	const runs: ThanksRun[][] = await repeat(
		`thanks on a finish (${SETTINGS.thanks.thanked} thanked today against none)`,
		SETTINGS.repeats,
		() => thanksRun(SETTINGS.thanks)
	);
	raw.thanks = runs;
	rows.push(...thanksRows(runs));
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
	console.log('Published into docs/performance.md (Latest published run)');
}
const missed = rows.filter((r) => r.met === false);
if (missed.length) console.log(`Budgets missed: ${missed.length} (see docs/performance.md)`);
