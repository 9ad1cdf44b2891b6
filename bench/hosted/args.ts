// The hosted bench's command line (bench/hosted/run.ts says what each flag is for) and the settings
// it gives: how many streamers, runs and minutes, which parts run, the capacity ramp's steps, and
// the upstream's documented limits. A value out of its choices ends the run at once (exit 2).
import { parseArgs } from 'node:util';

export const PARTS = ['connect', 'intake', 'refresh', 'chaos', 'capacity', 'flood'] as const;
export const { values: args } = parseArgs({
	options: {
		streamers: { type: 'string', default: '50' },
		minutes: { type: 'string' },
		runs: { type: 'string' },
		window: { type: 'string' },
		quick: { type: 'boolean', default: false },
		only: { type: 'string' },
		sources: { type: 'string', default: '5' },
		// How the refresh storm cuts the access tokens the instances hold (an hour long): each at a
		// random moment of the first 5 s (`spread`: as if they had always been 5-second tokens), or
		// all at 5 s (`at-once`: a mass revocation, 1,000 streamers refreshing in the same second).
		cut: { type: 'string', default: 'spread' },
		// The capacity ramp: streamers from `from` up to --streamers by `step`, each step `periods`
		// tip periods long, on a clock `scale` times faster than the documented one.
		from: { type: 'string' },
		step: { type: 'string' },
		periods: { type: 'string' },
		scale: { type: 'string' },
		// How the instances reach PostgreSQL: its Unix socket (`socket`), as a deployment with the
		// database on the same machine would, or TCP on loopback (`tcp`), whose every send also runs
		// the receiving side of the kernel's TCP stack in the sender's turn (docs/performance.md).
		db: { type: 'string', default: 'socket' },
		// The read flood behind a balancer that adds X-Forwarded-For (each streamer's sources from one
		// address, their flood from another); without it, every request reaches the instances from
		// 127.0.0.1 with no such header.
		xff: { type: 'boolean', default: false },
		// The per-IP limit the instances' own upstream budgets keep (instance-limits.ts): `raised`, the
		// simulator's for the storms (deployment.ts), or `documented`, the 240 calls a minute per
		// address the product keeps, under which an address's reads share 96 a minute (docs/hosted.md).
		'address-budget': { type: 'string', default: 'raised' },
		publish: { type: 'boolean', default: false }
	}
});
const quick = args.quick;
export const N = Number(args.streamers);
export const minutes = Number(args.minutes ?? (quick ? 1 : 5));
/** The intake's window at rest (intake.ts): --minutes when given, else one minute. */
export const restMinutes = Number(args.minutes ?? 1);
export const runs = Number(args.runs ?? (quick ? 1 : 3));
export const windowS = Number(args.window ?? (quick ? 15 : 60));
export const only = new Set(args.only ? args.only.split(',') : PARTS);
/** Browser sources per streamer (the connect storm's, and the TTS sources of chaos and capacity). */
export const SOURCES = Number(args.sources);
if (args.cut !== 'spread' && args.cut !== 'at-once') {
	console.error(`bench:hosted: --cut is spread or at-once, not ${args.cut}`);
	process.exit(2);
}
if (args.db !== 'socket' && args.db !== 'tcp') {
	console.error(`bench:hosted: --db is socket or tcp, not ${args.db}`);
	process.exit(2);
}
if (args['address-budget'] !== 'raised' && args['address-budget'] !== 'documented') {
	console.error(
		`bench:hosted: --address-budget is raised or documented, not ${args['address-budget']}`
	);
	process.exit(2);
}
export const INSTANCES = 3;
/** The upstream's documented limits (docs/upstream.md). */
export const PER_IP = 240;
export const PER_KEY = 120;
export const TIP_EVERY_MIN = 5;
// The ramp's clock: a 15 s window and a tip every 75 s (4x), 6 s and 30 s with --quick (10x).
export const scale = Number(args.scale ?? (quick ? 10 : 4));
export const rampStep = Number(args.step ?? (quick ? 100 : 50));
export const rampFrom = Number(args.from ?? rampStep);
export const rampPeriods = Number(args.periods ?? (quick ? 1 : 2));
/**
 * The read flood (flood.ts): three streamers flooded at once, a tip each every 3 s, each source's
 * own last GET replayed three times at once every 1.5 s, an instance restarted every 20 s, every
 * instance calling the upstream from this one address under the per-IP limit.
 */
export const FLOOD = {
	streamers: 3,
	address: '127.0.0.2',
	tipEveryMs: 3000,
	readsEveryMs: 1500,
	readsAtOnce: 3,
	restartEveryMs: 20_000
};
