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
 * The leaderboard kept from paid tips. It is read `depth` rows deep and answers up to `served` rows:
 * the rows below the served ones are a margin, so that a supporter outside the held rows, whose
 * total is unknown (at most `outsideMax`), seldom has it read again. A board shorter than `depth`
 * holds every supporter, so a new one is added. `page` answers only what it knows for sure.
 */
export class LeaderboardView {
	rows: Supporter[] = [];
	/** The rows hold every supporter. */
	complete = true;
	/** The most a supporter outside the rows may have. */
	outsideMax = 0;
	/** Outsiders with `outsideMax` rank below the rows (as read: no outsider has tipped since). */
	outsideBelow = true;
	/** A tip made two rows equal: their order is the upstream's to say (first tip first, say). */
	newTies = false;

	constructor(
		readonly served: number,
		readonly depth: number
	) {}

	snapshot(rows: readonly Supporter[]): void {
		this.rows = rows.slice(0, this.depth);
		this.complete = rows.length < this.depth;
		this.outsideMax = this.complete ? 0 : this.rows[this.rows.length - 1].total;
		this.outsideBelow = true;
		this.newTies = false;
	}

	/** tip.created: a paid tip adds to its supporter's total; 'reread' once the served rows are unsure. */
	tip(tip: QueueTip): Certainty {
		if (!countsForSupporters(tip) || tip.amount === null) return 'ok';
		const at = this.rows.findIndex((r) => sameSupporter(r, tip));
		if (at < 0 && !this.complete) {
			this.outsideMax = roundCents(this.outsideMax + tip.amount);
			this.outsideBelow = false;
		} else this.#add(at, tip, tip.amount);
		if (!this.exact(this.served)) return 'reread';
		// Two served rows made equal: a page's cut may fall between them, and their order is the
		// upstream's to say, so the board is read again once (its answer orders them) rather than
		// every such page's read going upstream.
		return this.#tiedWithin(this.served) ? 'reread' : 'ok';
	}

	/** A tip made two of the first `n` rows (or the row after them) equal since the last read. */
	#tiedWithin(n: number): boolean {
		if (!this.newTies) return false;
		const rows = this.rows.slice(0, n + 1);
		return rows.some((r, i) => i > 0 && rows[i - 1].total === r.total);
	}

	#add(at: number, tip: QueueTip, amount: number): void {
		const row = at < 0 ? newSupporter(tip) : this.rows[at];
		const updated = {
			...row,
			name: tip.name,
			total: roundCents(row.total + amount),
			tips: row.tips + 1
		};
		if (at < 0) this.rows.push(updated);
		else this.rows[at] = updated;
		if (this.rows.some((r) => r !== updated && r.total === updated.total)) this.newTies = true;
		// Array.prototype.sort is stable: supporters of equal totals keep their order.
		this.rows.sort((a, b) => b.total - a.total);
		if (this.rows.length > this.depth) {
			const out = this.rows.pop()!;
			this.complete = false;
			this.outsideMax = out.total;
			this.outsideBelow = this.rows[this.rows.length - 1].total > out.total;
		}
	}

	/** Whether the first `limit` rows are the upstream's, in its order up to equal totals. */
	exact(limit: number): boolean {
		if (limit > this.rows.length) return this.complete;
		const cutoff = this.rows[limit - 1].total;
		if (
			!this.complete &&
			(cutoff < this.outsideMax || (cutoff === this.outsideMax && !this.outsideBelow))
		)
			return false;
		return !(this.newTies && this.rows[limit]?.total === cutoff);
	}

	/** The first `limit` rows (at most `served`); null when they are not known for sure. */
	page(limit = this.served): Supporter[] | null {
		const n = Math.min(limit, this.served);
		return this.exact(n) ? this.rows.slice(0, n) : null;
	}
}

function newSupporter(tip: QueueTip): Supporter {
	return {
		name: tip.name,
		platform: tip.platform,
		platform_user_id: tip.platform_user_id,
		total: 0,
		tips: 0
	};
}
