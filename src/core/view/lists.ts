// The live view's lists (docs/upstream.md, which event keeps which part of the view): a played
// history's first page (the recent lists) and the supporters' leaderboard.
import type { QueueTip } from '../../contract/index.ts';
import { roundCents } from '../goal.ts';
import type { Certainty } from './queue.ts';

/** A history page as GET /tts/history and GET /media/history answer it (rows most recent first). */
export interface HistoryPage<Row> {
	rows: Row[];
	has_more: boolean;
	next_cursor: string | null;
}

/** The most recent `depth` rows of a played history, newest first. */
export class HistoryView<Row extends { order_id: string }> {
	rows: Row[] = [];
	/** Rows older than the kept ones exist. */
	more = false;

	constructor(readonly depth: number) {}

	snapshot(rows: readonly Row[], hasMore: boolean): void {
		this.rows = rows.slice(0, this.depth);
		this.more = hasMore || rows.length > this.depth;
	}

	/** A row that finished playing (queue.{tts,media}.finished) goes first; a repeat is a no-op. */
	add(row: Row): Certainty {
		if (this.rows.some((r) => r.order_id === row.order_id)) return 'ok';
		this.rows.unshift(row);
		if (this.rows.length > this.depth) {
			this.rows.length = this.depth;
			this.more = true;
		}
		return 'ok';
	}

	/** The first page of `limit` rows (at most `depth`), as the upstream answers it. */
	page(limit = this.depth): HistoryPage<Row> {
		const rows = this.rows.slice(0, limit);
		const has_more = this.rows.length > rows.length || this.more;
		return { rows, has_more, next_cursor: has_more && rows.length ? rows.at(-1)!.order_id : null };
	}
}

/** A row of GET /leaderboard (docs/upstream.md, tipping). */
export interface Supporter {
	name: string;
	platform: QueueTip['platform'];
	platform_user_id: string | null;
	total: number;
	tips: number;
}

/** Only paid tips with an amount count toward a supporter's total (docs/upstream.md, QueueTip). */
export function countsForSupporters(tip: QueueTip): boolean {
	return tip.is_paid && tip.amount !== null && Number.isFinite(tip.amount);
}

/** A tip's donor and a row are one supporter: the same platform account, or one unsigned name. */
function sameSupporter(row: Supporter, tip: QueueTip): boolean {
	return tip.platform === null
		? row.platform === null && row.name === tip.name
		: row.platform === tip.platform && row.platform_user_id === tip.platform_user_id;
}

/**
 * The leaderboard as read with `limit`, kept from paid tips. A board shorter than its limit holds
 * every supporter, so a new one is added; on a full board a supporter outside it may climb in
 * from an unknown total, which only a read can tell.
 */
export class LeaderboardView {
	rows: Supporter[] = [];

	constructor(readonly limit: number) {}

	snapshot(rows: readonly Supporter[]): void {
		this.rows = rows.slice(0, this.limit);
	}

	/** tip.created: a paid tip with an amount adds to its supporter's total (rows by total, stable). */
	tip(tip: QueueTip): Certainty {
		if (!countsForSupporters(tip) || tip.amount === null) return 'ok';
		const at = this.rows.findIndex((r) => sameSupporter(r, tip));
		if (at < 0 && this.rows.length >= this.limit) return 'reread';
		const row: Supporter =
			at < 0
				? {
						name: tip.name,
						platform: tip.platform,
						platform_user_id: tip.platform_user_id,
						total: 0,
						tips: 0
					}
				: this.rows[at];
		const updated = {
			...row,
			name: tip.name,
			total: roundCents(row.total + tip.amount),
			tips: row.tips + 1
		};
		if (at < 0) this.rows.push(updated);
		else this.rows[at] = updated;
		// Array.prototype.sort is stable: supporters of equal totals keep their order.
		this.rows.sort((a, b) => b.total - a.total);
		return 'ok';
	}

	/** The first `limit` rows (at most the kept limit). */
	page(limit = this.limit): Supporter[] {
		return this.rows.slice(0, limit);
	}
}
