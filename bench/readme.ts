// `--publish` puts a bench run into docs/performance.md (Latest published run): the figures a streamer or a
// maintainer looks for (the floor of the specified stack, our code above it, the heap, the
// timings, the hosted storms), each beside the previous published run's, with the machines. The
// tracked runs are bench/results/latest.json (`npm run bench`) and hosted-latest.json
// (`npm run bench:hosted`); the table is rendered from both, so either run refreshes it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fmt, type Machine, type Row } from './lib.ts';

/** A published run as its JSON holds it; `previous` is the run it replaced (its summary rows). */
export interface Published {
	machine: Machine | string;
	/** What ran: the hosted bench's setup, or (`npm run bench`) the command. */
	setup?: string;
	command?: string;
	rows: Row[];
	previous?: { machine: string; rows: Row[] };
}

/** The README's figures: each the start of a row's figure in its bench's table. */
export const SUMMARY = {
	widgets: [
		'floor weight stack',
		'our code on widget-tts',
		'our code on widget-counters',
		'our code on overlay',
		'floor resident JS heap after GC, stack page',
		'resident JS heap after GC, TTS page',
		'resident JS heap after GC, full overlay',
		'idle animation frames, full overlay',
		'reaction p95',
		'gap p95',
		'idle main-thread task time, full overlay',
		'idle main-thread task time, empty page',
		'recovery p95',
		'plays lost or doubled',
		'token endpoint added latency p99'
	],
	hosted: [
		'connect: token mint p99',
		'connect: failures',
		'refresh: rotated-out tokens presented',
		'refresh: streamers revoked',
		'refresh: calls failed',
		'chaos: tips lost',
		'chaos: tips doubled',
		'capacity: streamers per egress IP',
		'flood: tip created to started p99',
		'flood: tips started more than 1 s late'
	]
} as const;
export type Bench = keyof typeof SUMMARY;

export const RESULTS: Record<Bench, string> = {
	widgets: 'bench/results/latest.json',
	hosted: 'bench/results/hosted-latest.json'
};

const find = (rows: readonly Row[], key: string) => rows.find((r) => r.figure.startsWith(key));

/** One figure as the README shows it: the median, and the range when the runs differ. */
function shown(r: Row | undefined): string {
	if (!r) return '–';
	const { min, median, max, n } = r.value;
	return n > 1 && min !== max ? `${fmt(median)} (${fmt(min)}–${fmt(max)})` : fmt(median);
}

/** A run's machine in one line: when, what, how loaded. */
export function machineText(m: Machine | string): string {
	if (typeof m === 'string') return m;
	return `${m.date.slice(0, 10)} on ${m.cpu}, ${m.cores} cores, load average ${m.loadAverage.join(' ')}`;
}

/** The published run of `bench` under `root`, or null when there is none yet. */
export function published(root: string, bench: Bench): Published | null {
	const file = `${root}${RESULTS[bench]}`;
	return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Published) : null;
}

/** `run` to publish, with the summary rows of the run it replaces as its `previous`. */
export function replacing(root: string, bench: Bench, run: Published): Published {
	const old = published(root, bench);
	if (!old) return run;
	const keys: readonly string[] = SUMMARY[bench];
	const rows = old.rows.filter((r) => keys.some((k) => r.figure.startsWith(k)));
	return { ...run, previous: { machine: machineText(old.machine), rows } };
}

/** The README block: both benches' summary rows, this run beside the previous one. */
export function summary(runs: Partial<Record<Bench, Published | null>>): string {
	const cells: string[][] = [];
	const about: string[] = [];
	for (const bench of ['widgets', 'hosted'] as const) {
		const run = runs[bench];
		if (!run) continue;
		about.push(
			`${bench === 'widgets' ? 'Widgets' : 'Hosted'} (${run.setup ?? run.command}): ${machineText(run.machine)}` +
				(run.previous ? `; previous run ${run.previous.machine.slice(0, 10)}.` : '.')
		);
		for (const key of SUMMARY[bench]) {
			const now = find(run.rows, key);
			if (!now) continue;
			const met = now.met === null ? '' : now.met ? 'yes' : 'NO';
			const before = shown(find(run.previous?.rows ?? [], key));
			cells.push([key, now.unit, shown(now), before, now.budget, met]);
		}
	}
	const head = ['figure', 'unit', 'this run', 'previous run', 'budget', 'met'];
	const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
	const line = (c: string[]) => `| ${c.map((s, i) => s.padEnd(widths[i])).join(' | ')} |`;
	const rule = line(widths.map((w) => '-'.repeat(w)));
	return [about.join('\n'), '', line(head), rule, ...cells.map(line)].join('\n');
}

const START = '<!-- bench:summary -->';
const END = '<!-- /bench:summary -->';

/** The summary block of a page (docs/performance.md) as it stands, or null when it has none. */
export function readmeBlock(readme: string): string | null {
	const from = readme.indexOf(START);
	const to = readme.indexOf(END);
	return from < 0 || to < from ? null : readme.slice(from + START.length, to).trim();
}

/** Where the summary block lives (the README links to it). */
export const SUMMARY_PAGE = 'docs/performance.md';

/** Re-renders the summary block of SUMMARY_PAGE from the published runs under `root`. */
export function publishReadme(root: string): void {
	const file = `${root}${SUMMARY_PAGE}`;
	const readme = readFileSync(file, 'utf8');
	if (readmeBlock(readme) === null)
		throw new Error(`${SUMMARY_PAGE}: no ${START} ... ${END} block`);
	const body = summary({ widgets: published(root, 'widgets'), hosted: published(root, 'hosted') });
	const from = readme.indexOf(START) + START.length;
	writeFileSync(
		file,
		`${readme.slice(0, from)}\n\n${body}\n\n${readme.slice(readme.indexOf(END))}`
	);
}
