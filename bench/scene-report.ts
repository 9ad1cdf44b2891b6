// What `npm run bench:scene` (bench/scene.ts) prints: one block per variant (demo or live mode,
// with or without the read flood) against the scene's targets (tests/fixtures/scene-traffic.ts),
// and the machine it ran on, whose load the timings depend on.
import type { Machine } from './lib.ts';
import { SCENE_TARGETS } from '../tests/fixtures/scene-traffic.ts';

export interface SceneFiguresRow {
	label: string;
	chromium: string;
	tips: number;
	videos: number;
	startP50Ms: number;
	startMaxMs: number;
	/** Each tip's creation to its start (ms), in the order created. */
	startMs: number[];
	/** Tips started more than SCENE_TARGETS.startMs after their creation. */
	later: number;
	/** Each late tip and where its time went. */
	late: string[];
	notStarted: number;
	/** Tips not started exactly once (one started event, one granted claim). */
	notOnce: number;
	/** The pages' refused or failed requests (lost claim races left out), by page and route. */
	refused: Record<string, number>;
	/** The streamer's reads of the upstream once the scene was loaded. */
	reads: number;
	readsPerMinute: number;
	peakReadsPerMinute: number;
	readsByPath: Record<string, number>;
	upstream429: number;
	/** The upstream calls of the scene's loading. */
	loading: Record<string, number>;
	flood: { reads: number; refused: number; byPath: Record<string, number> } | null;
}

const sum = (r: Record<string, number>) => Object.values(r).reduce((n, k) => n + k, 0);

export function sceneReport(
	rows: SceneFiguresRow[],
	ms: number,
	m: Machine
): { text: string; missed: boolean } {
	const lines = [
		`Scene: the preview, 7 widgets, 3 overlays and the dock in one browser; a tip every 6 s and ` +
			`a video every 20 s for ${ms / 1000} s.`,
		`Machine: ${m.cpu}, ${m.cores} cores, load average ${m.loadAverage.join(' ')}; Node ` +
			`${m.node}; Chromium ${m.chromium}; ${m.date}.`
	];
	let missed = false;
	for (const r of rows) {
		const refused = sum(r.refused);
		const miss =
			r.later > 0 ||
			r.notStarted > 0 ||
			r.notOnce > 0 ||
			refused > 0 ||
			r.peakReadsPerMinute > SCENE_TARGETS.readsPerMinute;
		missed ||= miss;
		lines.push(
			'',
			`${r.label}: ${miss ? 'MISSED' : 'met'}`,
			`  tip created to started (${r.tips} tips, ${r.videos} videos): p50 ${r.startP50Ms} ms, ` +
				`max ${r.startMaxMs} ms; later than ${SCENE_TARGETS.startMs} ms: ${r.later}; not ` +
				`started: ${r.notStarted}; not started exactly once: ${r.notOnce}`,
			...r.late.map((l) => `    late ${l}`),
			`  refused to the pages: ${refused}${refused ? ` ${JSON.stringify(r.refused)}` : ''}; ` +
				`upstream 429s: ${r.upstream429}`,
			`  upstream reads once loaded: ${r.reads} (${r.readsPerMinute} a minute, fullest minute ` +
				`${r.peakReadsPerMinute}, target ${SCENE_TARGETS.readsPerMinute}) ${JSON.stringify(r.readsByPath)}`,
			`  upstream calls while loading: ${sum(r.loading)} ${JSON.stringify(r.loading)}`,
			...(r.flood
				? [
						`  flood: ${r.flood.reads} replayed reads, ${r.flood.refused} refused ` +
							JSON.stringify(r.flood.byPath)
					]
				: [])
		);
	}
	return { text: lines.join('\n'), missed };
}
