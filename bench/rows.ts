// The bench's table (bench/run.ts): the rows each part's figures make, in the order the table
// shows them, each against its budget (bench/budgets.ts) where it has one.
import { BUDGETS } from './budgets.ts';
import type { EndpointRun } from './endpoint.ts';
import { floorName, type FloorPage, type FloorWeight, type Library } from './floor.ts';
import type { IdleRun } from './idle.ts';
import { quantile, row, type Row } from './lib.ts';
import type { PlayRun, RecoveryRun, SoakRun } from './scenarios.ts';
import { LIBRARIES, type PageShares } from './shares.ts';

const KB = 1000;
const kb = (n: number) => (n / KB).toFixed(1);
const median = (v: number[]) => quantile(v, 0.5);
const p95 = (v: number[]) => quantile(v, 0.95);

/** The libraries a page loads besides Svelte: which floor page it is measured against. */
export const libsOf = (w: PageShares) =>
	LIBRARIES.filter((lib) => lib !== 'svelte' && w.shares[lib] > 0) as Library[];

/**
 * Each page's weight, split between the stack's libraries and our code, and our code measured the
 * way the budget states it: the page minus the floor page of the same libraries (`floors`, by
 * floorName), so a page is not credited with a library it does not load.
 */
export function weightRows(weights: PageShares[], floors: Map<string, FloorWeight>): Row[] {
	const rows: Row[] = [];
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
	return rows;
}

/** The floor pages' weights (but the empty page's) and their resident heaps. */
export function floorRows(pages: FloorPage[]): Row[] {
	const rows: Row[] = [];
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
	return rows;
}

/** Reaction, gap and API economy, over the runs. */
export function playRows(runs: PlayRun[]): Row[] {
	return [
		row(
			'reaction p95 (tts_ready sent → start call in)',
			'ms',
			runs.map((r) => p95(r.reactionMs)),
			{ max: BUDGETS.reactionP95Ms }
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
			{ max: BUDGETS.gapP95Ms }
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
			{ exactly: BUDGETS.callsPerTip }
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
	];
}

/** The idle windows (each window is one figure, "runs" in the table) and the resident heaps. */
export function idleRows(run: IdleRun): Row[] {
	const rows: Row[] = [];
	const w = run.windows;
	for (const page of ['tts', 'overlay'] as const) {
		const label = page === 'tts' ? 'TTS page' : 'full overlay';
		rows.push(
			row(
				`idle animation frames, ${label}`,
				'/s',
				w.map((r) => r[page].framesPerS),
				{ max: BUDGETS.idleFramesPerS }
			),
			row(
				`idle main-thread task time, ${label}`,
				'ms/s',
				w.map((r) => r[page].taskMsPerS),
				{ max: BUDGETS.idleTaskMsPerS }
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
	return rows;
}

/** Recovery after dropped connections, over the runs. */
export function recoveryRows(runs: RecoveryRun[]): Row[] {
	return [
		row(
			'recovery p95 (accepting again → missed tip started)',
			'ms',
			runs.map((r) => p95(r.recoveryMs)),
			{ max: BUDGETS.recoveryP95Ms }
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
	];
}

/** The memory soak: growth between tip `checkAt` and the last of `tips`. */
export function soakRows(
	runs: SoakRun[],
	{ checkAt: at, tips: n }: { checkAt: number; tips: number }
): Row[] {
	return [
		row(
			`soak JS heap growth, tip ${at} → ${n}`,
			'MB',
			runs.map((r) => r.heapMbEnd - r.heapMbAt),
			{ max: BUDGETS.soakHeapGrowthMb }
		),
		row(
			`soak DOM nodes growth, tip ${at} → ${n}`,
			'nodes',
			runs.map((r) => r.domEnd - r.domAt),
			{ max: BUDGETS.soakDomGrowth }
		),
		row(
			'soak tips not played exactly once',
			'tips',
			runs.map((r) => r.lostOrDoubled),
			{ exactly: 0 }
		),
		row(
			'soak tips per second',
			'tips/s',
			runs.map((r) => r.tips / r.seconds)
		)
	];
}

/** The token endpoint's added latency and throughput, over the runs. */
export function endpointRows(runs: EndpointRun[]): Row[] {
	return [
		row(
			'token endpoint added latency p99',
			'ms',
			runs.map((r) => r.addedP99Ms),
			{ max: BUDGETS.endpointAddedP99Ms }
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
	];
}
