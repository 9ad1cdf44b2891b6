// The top-supporters board's still sample (`sample=1`): a few supporters, highest total first.
import { sampleList } from '../shared/sample.ts';
import type { SupporterRow } from './view.ts';

const NAMES = ['PixelPirate', 'Sample viewer', 'NightOwl', 'Marta'];
const TOTALS = [250, 120, 75.5, 40];

/** The board as the URL's `limit` shows it. */
export function sampleSupporters(limit: number) {
	const rows: SupporterRow[] = NAMES.map((name, i) => ({
		key: `${i + 1}:${name}`,
		rank: i + 1,
		name,
		total: TOTALS[i],
		tips: 8 - 2 * i
	}));
	return sampleList(rows, limit);
}
