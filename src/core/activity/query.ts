// The Activity's list as both stores give it (docs/activity.md), pure: newest first by `at`, then
// by id; a page's cursor is where the next page starts; a kind filter and a name matched from its
// start, case-insensitively. And the summary of a stream from its entries.
import {
	STREAM_GAP_HOURS,
	type ActivityEntry,
	type ActivityKind,
	type ActivitySummary
} from '../../contract/activity.ts';
import { nameOf } from './entries.ts';

export interface ListFilter {
	kinds?: readonly ActivityKind[];
	/** A name's start, any case. */
	name?: string;
	/** Entries strictly older than this position (a cursor's). */
	before?: Position;
	/** Entries at or after (ms), and before (ms). */
	from?: number;
	to?: number;
	limit: number;
}

/** An entry's place in the list: its time (ms) and id. */
export interface Position {
	at: number;
	id: string;
}

export const positionOf = (e: Pick<ActivityEntry, 'at' | 'id'>): Position => ({
	at: Date.parse(e.at),
	id: e.id
});

/** Newest first: a later time, then a larger id, comes first. */
export function newestFirst(a: Position, b: Position): number {
	return b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** The name as the search compares it: lower case, accents kept. */
export const nameKey = (name: string) => name.toLocaleLowerCase('en-US');

export function matches(e: ActivityEntry, f: Omit<ListFilter, 'limit'>, pos = positionOf(e)) {
	if (f.kinds?.length && !f.kinds.includes(e.kind)) return false;
	if (f.before && newestFirst(f.before, pos) >= 0) return false;
	if (f.from !== undefined && pos.at < f.from) return false;
	if (f.to !== undefined && pos.at >= f.to) return false;
	if (f.name) {
		const name = nameOf(e);
		if (name === null || !nameKey(name).startsWith(nameKey(f.name))) return false;
	}
	return true;
}

/** A page's cursor: the last entry's position, as text the dock hands back. */
export function cursorOf(p: Position): string {
	// Ids are ASCII (event ids, order ids): btoa takes them as they are.
	return btoa(JSON.stringify([p.at, p.id]))
		.replaceAll('+', '-')
		.replaceAll('/', '_')
		.replaceAll('=', '');
}

/** The position a cursor names; null: not a cursor this server gave. */
export function readCursor(cursor: string): Position | null {
	try {
		const v: unknown = JSON.parse(atob(cursor.replaceAll('-', '+').replaceAll('_', '/')));
		if (
			Array.isArray(v) &&
			v.length === 2 &&
			Number.isSafeInteger(v[0]) &&
			typeof v[1] === 'string'
		)
			return { at: v[0] as number, id: v[1] };
	} catch {
		// not JSON: not ours
	}
	return null;
}

const GAP_MS = STREAM_GAP_HOURS * 3600_000;

/**
 * Where this stream started as the kit sees it, from the latest entries (newest first): the latest
 * `tipping` opened, unless a quiet of STREAM_GAP_HOURS came after it; else the first entry after
 * the latest such quiet. Null: no entry.
 */
export function streamStart(
	newest: readonly ActivityEntry[]
): { at: string; from: 'tipping' | 'gap' } | null {
	for (let i = 0; i < newest.length; i++) {
		const e = newest[i];
		if (e.kind === 'tipping' && e.accepting) return { at: e.at, from: 'tipping' };
		const older = newest[i + 1];
		if (!older || Date.parse(e.at) - Date.parse(older.at) >= GAP_MS)
			return { at: e.at, from: 'gap' };
	}
	return null;
}

type Totals = Pick<ActivitySummary, 'tips' | 'total' | 'paid_total' | 'top' | 'videos'>;

/** The tips, their totals, the top five tippers and the videos of `entries`. */
export function summarize(entries: Iterable<ActivityEntry>): Totals {
	const out: Totals = { tips: 0, total: 0, paid_total: 0, top: [], videos: 0 };
	const by = new Map<string, { name: string; total: number; tips: number }>();
	for (const e of entries) {
		if (e.kind === 'video') out.videos += 1;
		if (e.kind !== 'tip' || e.is_replay) continue;
		const amount = e.amount ?? 0;
		out.tips += 1;
		out.total += amount;
		if (e.is_paid) out.paid_total += amount;
		const key = nameKey(e.name);
		const t = by.get(key) ?? { name: e.name, total: 0, tips: 0 };
		t.total += amount;
		t.tips += 1;
		by.set(key, t);
	}
	out.top = [...by.values()].sort((a, b) => b.total - a.total || b.tips - a.tips).slice(0, 5);
	out.total = round(out.total);
	out.paid_total = round(out.paid_total);
	for (const t of out.top) t.total = round(t.total);
	return out;
}

const round = (n: number) => Math.round(n * 100) / 100;
