// The bench's command line (bench/run.ts): which parts run (`--only`), `--quick`, `--no-build`,
// `--out` and `--publish`, and how much each part measures. An unknown part ends the run at once.
import { parseArgs } from 'node:util';

export const PARTS = [
	'weight',
	'floor',
	'play',
	'idle',
	'soak',
	'recovery',
	'endpoint',
	'thanks'
] as const;
export type Part = (typeof PARTS)[number];

export const { values: args } = parseArgs({
	options: {
		quick: { type: 'boolean', default: false },
		only: { type: 'string' },
		'no-build': { type: 'boolean', default: false },
		out: { type: 'string' },
		publish: { type: 'boolean', default: false }
	}
});
export const only = new Set<Part>(
	args.only ? (args.only.split(',').map((s) => s.trim()) as Part[]) : [...PARTS]
);
for (const p of only)
	if (!PARTS.includes(p)) {
		console.error(`bench: unknown part "${p}" in --only (one of ${PARTS.join(', ')})`);
		process.exit(2);
	}
export const quick = args.quick;

/** How much each part measures: a full run, or `--quick`'s fewer repeats and tips. */
export const SETTINGS = quick
	? {
			repeats: 1,
			play: { single: 10, burst: 8, clipMs: 300, reconnects: 1 },
			// One 30 s window (the ping period) after the same settling time as a full run: a shorter
			// settle would measure start-up work (see idleRun).
			idle: { seconds: 30, windows: 1, settleS: 120 },
			floorLoads: 1,
			soak: { tips: 300, checkAt: 100, clipMs: 20, queued: 5 },
			recovery: { drops: 10, clipMs: 150 },
			endpoint: { pairs: 500, rpsSeconds: 2 },
			thanks: { tips: 500, warmup: 100, thanked: 10_000 }
		}
	: {
			repeats: 3,
			play: { single: 20, burst: 15, clipMs: 300, reconnects: 2 },
			idle: { seconds: 30, windows: 3, settleS: 120 },
			floorLoads: 3,
			soak: { tips: 2000, checkAt: 100, clipMs: 20, queued: 5 },
			recovery: { drops: 34, clipMs: 150 },
			endpoint: { pairs: 1000, rpsSeconds: 3 },
			thanks: { tips: 2000, warmup: 200, thanked: 10_000 }
		};
