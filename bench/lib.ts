// Statistics, the machine note and the printed table of `npm run bench`.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

/** The value at quantile q (0..1) of `values`, nearest-rank; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
	return sorted[rank];
}

export interface Spread {
	min: number;
	median: number;
	max: number;
	/** How many runs. */
	n: number;
}

/** min, median and max over repeated runs (one figure per run). */
export function spread(values: readonly number[]): Spread {
	return {
		min: values.length ? Math.min(...values) : NaN,
		median: quantile(values, 0.5),
		max: values.length ? Math.max(...values) : NaN,
		n: values.length
	};
}

export interface Machine {
	cpu: string;
	cores: number;
	memoryGb: number;
	loadAverage: [number, number, number];
	node: string;
	chromium: string;
	platform: string;
	date: string;
}

export function machine(chromiumVersion: string): Machine {
	const [l1, l5, l15] = loadavg();
	return {
		cpu: cpus()[0]?.model.trim() ?? 'unknown',
		cores: cpus().length,
		memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
		loadAverage: [l1, l5, l15].map((l) => Math.round(l * 100) / 100) as [number, number, number],
		node: process.version,
		chromium: chromiumVersion,
		platform: `${process.platform} ${process.arch}`,
		date: new Date().toISOString()
	};
}

/** The CPUs this process may use (taskset), or null when `taskset` is missing. */
export function hasTaskset(): boolean {
	try {
		execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

export interface Row {
	/** What is measured, e.g. "reaction p95". */
	figure: string;
	unit: string;
	value: Spread;
	/** The budget as printed (e.g. "≤ 15"), or '' when there is none. */
	budget: string;
	/** true: met by every run (the max for a ceiling); false: missed; null: no budget. */
	met: boolean | null;
	note?: string;
}

export function row(
	figure: string,
	unit: string,
	values: readonly number[],
	budget?: { max?: number; min?: number; exactly?: number; text?: string },
	note?: string
): Row {
	const value = spread(values);
	let met: boolean | null = null;
	let text = budget?.text ?? '';
	if (budget?.max !== undefined) {
		met = value.max <= budget.max;
		text ||= `≤ ${budget.max}`;
	} else if (budget?.exactly !== undefined) {
		met = value.min === budget.exactly && value.max === budget.exactly;
		text ||= `= ${budget.exactly}`;
	} else if (budget?.min !== undefined) {
		met = value.min >= budget.min;
		text ||= `≥ ${budget.min}`;
	}
	if (values.length === 0 || Number.isNaN(value.median)) met = budget ? false : null;
	return { figure, unit, value, budget: text, met, ...(note ? { note } : {}) };
}

export function fmt(n: number): string {
	if (Number.isNaN(n)) return '–';
	const a = Math.abs(n);
	if (a === 0) return '0';
	if (a >= 100) return n.toFixed(0);
	if (a >= 10) return n.toFixed(1);
	if (a >= 1) return n.toFixed(2);
	return n.toFixed(3);
}

/** A Markdown table (prints well in a terminal and pastes into the README). */
export function table(rows: readonly Row[]): string {
	const head = ['figure', 'unit', 'min', 'median', 'max', 'runs', 'budget', 'met'];
	const lines = rows.map((r) => [
		r.figure,
		r.unit,
		fmt(r.value.min),
		fmt(r.value.median),
		fmt(r.value.max),
		String(r.value.n),
		r.budget,
		r.met === null ? '' : r.met ? 'yes' : 'NO'
	]);
	const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
	const line = (cells: string[]) =>
		'| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
	return [
		line(head),
		'| ' + widths.map((w) => '-'.repeat(w)).join(' | ') + ' |',
		...lines.map(line)
	].join('\n');
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
