// The recent-events list's still sample (`sample=1`): a few tips and a video request, newest first.
import { sampleList } from '../shared/sample.ts';
import type { RecentRow } from './recent-list.ts';

const row = (n: number, name: string, amount: number | null, text: string | null): RecentRow => ({
	key: `${amount === null ? 'video' : 'tip'}:sample-${n}`,
	kind: amount === null ? 'video' : 'tip',
	name,
	amount,
	text,
	at: n
});

const ROWS = [
	row(1, 'Sample viewer', 5, 'This is how a tip looks with these settings. Thanks!'),
	row(2, 'NightOwl', null, 'Lofi beats to stream to'),
	row(3, 'PixelPirate', 20, 'Hype for the next boss!'),
	row(4, 'Marta', 2.5, null)
];

/** The list as the URL's `limit` shows it. */
export const sampleRecent = (limit: number) => sampleList(ROWS, limit);
