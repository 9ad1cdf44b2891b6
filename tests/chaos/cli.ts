// `npm run chaos -- [--duration 180] [--seed N] [--runs 3] [--consumers 3] [--out DIR]`: chaos runs
// one after another (seeds N, N+1, ...); each prints its faults, the streamer's actions and the
// ledger, and the command fails on the first run whose ledger check fails. With --out, each run's
// report (ledger, consumer logs) is written there as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CHAOS, runChaos } from './run.ts';

const { values } = parseArgs({
	options: {
		duration: { type: 'string', default: '180' },
		seed: { type: 'string' },
		runs: { type: 'string', default: '1' },
		consumers: { type: 'string', default: '3' },
		out: { type: 'string' }
	}
});

function int(name: string, raw: string, min: number, max: number): number {
	const n = Number(raw);
	if (!Number.isInteger(n) || n < min || n > max) {
		console.error(`--${name} must be a whole number from ${min} to ${max} (got ${raw})`);
		process.exit(2);
	}
	return n;
}

const duration = int('duration', values.duration, 5, 3600);
const runs = int('runs', values.runs, 1, 100);
const consumers = int('consumers', values.consumers, 1, 3);
const firstSeed =
	values.seed === undefined
		? Math.floor(Math.random() * 1_000_000)
		: int('seed', values.seed, 0, 2 ** 31);

let failed = 0;
for (let i = 0; i < runs; i++) {
	const seed = firstSeed + i;
	console.log(
		`chaos run ${i + 1}/${runs}: seed ${seed}, ${duration} s, up to ${consumers} consumers`
	);
	const report = await runChaos({
		...DEFAULT_CHAOS,
		seed,
		durationMs: duration * 1000,
		consumers,
		progress: (line) => console.log(line)
	});
	const { ledger } = report;
	console.log(`  items: ${report.items.tips} tips, ${report.items.media} with a video`);
	console.log(`  faults: ${fmt(report.faults)}`);
	console.log(`  streamer: ${fmt(report.streamer)}`);
	for (const q of ['tts', 'media'] as const) console.log(`  ${q}: ${fmt(ledger.summary[q])}`);
	console.log(`  drained in ${(report.drainMs / 1000).toFixed(1)} s`);
	if (values.out) {
		mkdirSync(values.out, { recursive: true });
		writeFileSync(join(values.out, `chaos-${seed}.json`), JSON.stringify(report, null, 1));
	}
	if (ledger.ok) console.log(`  ledger: PASS (seed ${seed})`);
	else {
		failed += 1;
		console.log(`  ledger: FAIL (seed ${seed}), ${ledger.violations.length} violations:`);
		for (const v of ledger.violations.slice(0, 30)) console.log(`   - ${v}`);
		break;
	}
}
process.exit(failed ? 1 : 0);

function fmt(m: Record<string, number>): string {
	return Object.entries(m)
		.map(([k, v]) => `${k} ${v}`)
		.join(', ');
}
