// `npm run bench:hosted -- --publish` of some parts only (--only=flood): the published run keeps
// the figures of the parts that did not run, beside this run's, and says where each comes from, so
// that publishing one part's figures does not take the others out of the published table.
import { existsSync, readFileSync } from 'node:fs';
import type { Row } from '../lib.ts';
import { machineText, published, replacing, RESULTS, type Published } from '../readme.ts';
import { only, PARTS } from './args.ts';

/** `connect: token mint p99` is the connect part's. */
const partOf = (r: Row) => r.figure.split(':')[0];
const ran = (r: Row) => only.has(partOf(r));

/**
 * What to publish: this run, as the run it replaces (its previous), with the figures and the notes
 * of the parts it did not run carried over from the published run.
 */
export function toPublish(run: Published, notes: string[]): { run: Published; notes: string[] } {
	const old = published('./', 'hosted');
	const notRun = PARTS.filter((p) => !only.has(p));
	if (!old || notRun.length === 0) return { run: replacing('./', 'hosted', run), notes };
	const carried = carriedFrom(old);
	const merged = replacing('./', 'hosted', {
		...run,
		setup: `${run.setup}; ${notRun.join(', ')} from the run of ${carried.date} (${carried.setup})`,
		rows: [...old.rows.filter((r) => !ran(r)), ...run.rows]
	});
	// The carried figures' previous run is the one they replaced, not themselves.
	if (merged.previous)
		merged.previous.rows = [
			...(old.previous?.rows ?? []).filter((r) => !ran(r)),
			...merged.previous.rows.filter(ran)
		];
	return {
		run: merged,
		notes: [...oldNotes().filter((n) => !only.has(n.split(/[:, ]/)[0])), ...notes]
	};
}

/**
 * Where the carried figures come from: the published run's own, or, when it carried them itself
 * from an earlier run (the same parts published alone again), that earlier run's.
 */
function carriedFrom(old: Published): { date: string; setup: string } {
	const setup = old.setup ?? '';
	const earlier = /; [a-z, ]+ from the run of (\d{4}-\d{2}-\d{2}) \((.*)\)$/.exec(setup);
	if (earlier?.[1] && earlier[2]) return { date: earlier[1], setup: earlier[2] };
	return { date: machineText(old.machine).slice(0, 10), setup };
}

/** The notes under the published table (its `- ` lines). */
function oldNotes(): string[] {
	const md = RESULTS.hosted.replace(/\.json$/, '.md');
	if (!existsSync(md)) return [];
	return readFileSync(md, 'utf8')
		.split('\n')
		.filter((l) => l.startsWith('- '))
		.map((l) => l.slice(2));
}
