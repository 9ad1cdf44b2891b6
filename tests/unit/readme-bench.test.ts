// The performance table (docs/performance.md, which the README's Performance section links): the
// published bench runs' figures (bench/results/), each beside the run it replaced, so a reader sees
// where the kit stands and which way it moved.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUDGETS } from '../../bench/budgets.ts';
import { row } from '../../bench/lib.ts';
import {
	published,
	readmeBlock,
	replacing,
	summary,
	SUMMARY_PAGE,
	type Published
} from '../../bench/readme.ts';

const root = new URL('../../', import.meta.url).pathname;
const machine = { date: '2026-11-25T10:00:00Z', cpu: 'CPU', cores: 2, loadAverage: [1, 1, 1] };
const run = (ours: number, heap: number): Published => ({
	machine: machine as Published['machine'],
	command: 'npm run bench',
	rows: [
		row('our code on widget-tts: page − floor svelte+howler (55.0)', 'kB gz', [ours], { max: 28 }),
		row('resident JS heap after GC, TTS page', 'MB', [heap, heap + 0.05, heap + 0.2], { max: 1.3 }),
		row('reaction median', 'ms', [3])
	]
});

describe('the published performance table', () => {
	it('is the published runs of bench/results, as `--publish` rendered them', () => {
		const readme = readFileSync(`${root}${SUMMARY_PAGE}`, 'utf8');
		const runs = { widgets: published(root, 'widgets'), hosted: published(root, 'hosted') };
		expect(runs.widgets, 'a published npm run bench').not.toBeNull();
		expect(readmeBlock(readme)).toBe(summary(runs));
	});

	it('shows each summary figure of this run beside the previous run, with its budget', () => {
		const dir = mkdtempSync(join(tmpdir(), 'readme-bench-'));
		mkdirSync(join(dir, 'bench/results'), { recursive: true });
		writeFileSync(join(dir, 'bench/results/latest.json'), JSON.stringify(run(31.4, 1.59)));
		const text = summary({ widgets: replacing(`${dir}/`, 'widgets', run(27.9, 1.2)) });
		const lines = text.split('\n').map((l) => l.replace(/ +/g, ' '));
		expect(lines[0]).toBe(
			'Widgets (npm run bench): 2026-11-25 on CPU, 2 cores, load average 1 1 1; previous run 2026-11-25.'
		);
		expect(lines).toContain('| our code on widget-tts | kB gz | 27.9 | 31.4 | ≤ 28 | yes |');
		expect(lines).toContain(
			'| resident JS heap after GC, TTS page | MB | 1.25 (1.20–1.40) | 1.64 (1.59–1.79) | ≤ 1.3 | NO |'
		);
		// Only the summary's figures: the full table stays in bench/results.
		expect(text).not.toContain('reaction median');
	});
});

describe('docs/performance.md', () => {
	const page = readFileSync(`${root}${SUMMARY_PAGE}`, 'utf8');

	it('states the budgets of bench/budgets.ts, every one of them', () => {
		const stated = new Map<string, number[]>();
		for (const [, cell, key] of page.matchAll(/^\|[^|]+\|([^|]+)\| `(\w+)` +\|$/gm)) {
			stated.set(
				key,
				[...cell.matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]))
			);
		}
		expect([...stated.keys()].sort()).toEqual(Object.keys(BUDGETS).sort());
		for (const [key, budget] of Object.entries(BUDGETS)) {
			const values = typeof budget === 'number' ? [budget] : Object.values(budget);
			// Bytes are stated in kB.
			const shown = key === 'ownWeightBytes' ? values.map((v) => v / 1000) : values;
			expect(stated.get(key), key).toEqual(shown);
		}
	});

	it('is a reference: no issue numbers, no commit hashes, no path outside the repository', () => {
		expect(page).not.toMatch(/\bissues? #?\d/i);
		expect(page).not.toMatch(/\(([0-9a-f]{7,40})[,)]/);
		expect(page).not.toMatch(/\/work\/|CONTRACT\.md|service-api\.md|\]\(\.\.\/\.\./);
		expect(page.split('\n').length).toBeLessThanOrEqual(301);
	});
});
