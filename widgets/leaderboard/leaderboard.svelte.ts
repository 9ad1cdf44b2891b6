// The top-supporters board: GET /leaderboard?limit (docs/upstream.md, tipping: any credential),
// read on start, after every (re)connect, and once more when tips land: the first tip of a burst
// arms one setTimeout and the tips after it join that read, so a new tip shows within about a third
// of a second and a raid is one read every TIP_DEBOUNCE_MS. Nothing runs while nothing happens.
import type { KnownEvent } from '../../src/contract/index.ts';
import * as routes from '../../src/contract/routes.ts';
import { ListReader, type ListDeps, type ListRead } from '../shared/list-reads.svelte.ts';
import type { SupporterRow } from './view.ts';

/** Tips within this time of the first (a raid, the demo) are one read. */
export const TIP_DEBOUNCE_MS = 300;

export class LeaderboardState extends ListReader<SupporterRow> {
	constructor(deps: ListDeps) {
		super(deps, 'the leaderboard');
	}

	apply(e: KnownEvent): void {
		if (e.type === 'tip.created') this.scheduleWithin(TIP_DEBOUNCE_MS);
	}

	protected async fetch(): Promise<ListRead<SupporterRow>> {
		const { api, limit } = this.deps;
		const board = await api.request(routes.leaderboard, {}, { query: { limit } });
		if (!board.ok) return board;
		const rows = board.body.supporters.slice(0, limit).map((s, i) => ({
			key: `${i}:${s.name}`,
			rank: i + 1,
			name: s.name,
			total: s.total,
			tips: s.tips
		}));
		return { ok: true, rows };
	}
}
