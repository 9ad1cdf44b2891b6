// A row of the top-supporters board, as its markup shows it (the list's view model and reader are
// shared with the recent-events list: shared/list-reads.svelte.ts).
export interface SupporterRow {
	/** Rank and name: two supporters may share a display name. */
	key: string;
	rank: number;
	name: string;
	total: number;
	tips: number;
}
