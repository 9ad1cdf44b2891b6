// The hosted bench's table (bench/hosted/run.ts): the figures the parts add, each against its
// budget where it has one, printed with the machine and the setup, and written to
// bench-results/hosted-latest.{json,md}, or with --publish to bench/results/ and the README.
import { mkdirSync, writeFileSync } from 'node:fs';
import { VIEW_HEAP_MARK_KB } from '../budgets.ts';
import { machine, row, table, type Row } from '../lib.ts';
import { publishReadme, RESULTS } from '../readme.ts';
import {
	args,
	FLOOD,
	INSTANCES,
	minutes,
	N,
	only,
	PER_IP,
	rampFrom,
	rampPeriods,
	rampStep,
	restMinutes,
	runs,
	scale,
	SOURCES,
	windowS
} from './args.ts';
import { toPublish } from './publish.ts';

/** What the parts measured: each figure's value per run, and notes. */
export class Figures {
	readonly values: Record<string, number[]> = {};
	/** Lines printed under the table (what a number cannot say: the first 429's call and budget). */
	readonly notes: string[] = [];
	readonly add = (name: string, v: number) => (this.values[name] ??= []).push(v);
}

const BUDGETS: Record<string, { max?: number; exactly?: number }> = {
	'connect: token mint p99': { max: 50 },
	'connect: failures': { exactly: 0 },
	[`intake: intakes held, all instances (of ${N})`]: { exactly: N },
	[`intake: intakes connected, all instances (of ${N})`]: { exactly: N },
	[`intake: upstream sockets on streamers' tokens (of ${N})`]: { exactly: N },
	'intake: upstream reads per streamer per minute at rest': { max: 10 },
	'intake: SIGKILL to every intake connected again': { max: 10_000 },
	"intake: a live view's heap, 50 tips and 20 videos queued": { max: VIEW_HEAP_MARK_KB },
	'refresh: rotated-out tokens presented': { exactly: 0 },
	'refresh: streamers revoked': { exactly: 0 },
	'refresh: calls failed': { exactly: 0 },
	'chaos: tips lost': { exactly: 0 },
	'chaos: tips doubled': { exactly: 0 },
	'chaos: streamers revoked': { exactly: 0 },
	'chaos: claim calls refused 429': { exactly: 0 },
	'flood: tip created to started p99': { max: 1000 },
	'flood: tips started more than 1 s late': { exactly: 0 },
	'flood: tips not started': { exactly: 0 },
	'flood: claim calls refused 429': { exactly: 0 },
	'flood: upstream claim calls refused 429': { exactly: 0 },
	[`flood: peak upstream calls in one window at the address (of ${PER_IP})`]: { max: PER_IP }
};
const UNITS: Record<string, string> = {
	'connect: token mint p99': 'ms',
	'connect: token mint p50': 'ms',
	'connect: mint p99 at the instances': 'ms',
	'connect: client event-loop delay p99': 'ms',
	'connect: mint mean at the instances': 'ms',
	'connect: upstream API call mean': 'ms',
	'intake: warm-up, last sign-in to every intake connected': 's',
	"intake: warm-up, last sign-in to the intakes' last read": 's',
	'intake: upstream reads per streamer per minute at rest': '/min',
	'intake: SIGKILL to every intake connected again': 'ms',
	'intake: restart to an even spread': 's',
	"intake: a live view's heap, 50 tips and 20 videos queued": 'KB',
	'capacity: claim call p99': 'ms',
	'capacity: slowest claim call': 'ms',
	'capacity: slowest read': 'ms',
	'capacity: tip queued to played p99': 'ms',
	'flood: tip created to started p99': 'ms',
	'flood: upstream queue reads per replayed read': 'ratio'
};

/** Prints and writes the table; whether every figure met its budget. */
export function report(figures: Figures): boolean {
	const rows: Row[] = Object.entries(figures.values).map(([name, values]) =>
		row(name, UNITS[name] ?? 'count', values, BUDGETS[name])
	);
	const m = machine('none (Node clients)');
	const floodOnly = only.size === 1 && only.has('flood');
	const setup = [
		floodOnly
			? `${INSTANCES} instances, ${runs} run(s)`
			: `${N} streamers x ${SOURCES} sources, ${INSTANCES} instances, ${runs} run(s)`,
		`PostgreSQL over ${args.db === 'tcp' ? 'TCP on loopback' : 'its Unix socket'}`,
		only.has('connect') && `connect window ${windowS} s`,
		only.has('intake') && `intake at rest ${restMinutes} min, one instance SIGKILLed a run`,
		(only.has('refresh') || only.has('chaos')) &&
			`refresh storm (held tokens cut ${args.cut === 'spread' ? 'over 5 s' : 'at once'}) and chaos ${minutes} min`,
		only.has('capacity') &&
			`capacity ramp from ${rampFrom} by ${rampStep}, ${rampPeriods} tip period(s) a step, clock x${scale}`,
		only.has('flood') &&
			`read flood ${minutes} min (${Math.min(N, FLOOD.streamers)} streamers at once, one on-air TTS source each, ` +
				`each source's own last GET replayed ${FLOOD.readsAtOnce} at once every ${FLOOD.readsEveryMs / 1000} s, ` +
				`an instance restarted every ${FLOOD.restartEveryMs / 1000} s, ` +
				`${args.xff ? 'X-Forwarded-For added' : 'no X-Forwarded-For'}, ` +
				`every instance calling the upstream from one address at ${PER_IP} a minute)`
	]
		.filter(Boolean)
		.join(', ');
	const mdOf = (setup: string, rows: Row[], notes: string[]) =>
		[
			`Hosted bench (${setup}) on ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}, load average ${m.loadAverage.join(' ')} at the end, ${m.date}`,
			'',
			table(rows),
			...(notes.length ? ['', ...notes.map((n) => `- ${n}`)] : [])
		].join('\n');
	const md = mdOf(setup, rows, figures.notes);
	console.log('\n' + md);
	mkdirSync('bench-results', { recursive: true });
	writeFileSync(
		'bench-results/hosted-latest.json',
		JSON.stringify({ machine: m, setup, rows }, null, 2)
	);
	writeFileSync('bench-results/hosted-latest.md', md + '\n');
	if (args.publish) {
		// The whole table beside its JSON, as `npm run bench -- --publish` keeps bench/results/latest.md;
		// docs/performance.md links it and quotes the main figures.
		const table = RESULTS.hosted.replace(/\.json$/, '.md');
		const out = toPublish({ machine: m, setup, rows }, figures.notes);
		writeFileSync(table, mdOf(out.run.setup!, out.run.rows, out.notes) + '\n');
		writeFileSync(RESULTS.hosted, JSON.stringify(out.run, null, '\t') + '\n');
		publishReadme('./');
		console.log(`published into ${table}, ${RESULTS.hosted} and README.md`);
	}
	return rows.every((r) => r.met !== false);
}
