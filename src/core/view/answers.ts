// A page's read answered from the live view (docs/upstream.md, which event keeps which part of the
// view): the body the upstream would answer to the same read, or null when the view cannot say for
// sure (a part not read yet or owed a read, a page deeper than the view keeps, a cursor, a read the
// view does not keep), and the read goes to the upstream.
import type { RouteName } from '../../contract/index.ts';
import type { LiveView } from './live-view.ts';
import type { ViewPart } from './parts.ts';

/** The upstream's default page of the history reads and of the leaderboard (src/sim/handlers.ts). */
const DEFAULT_HISTORY_LIMIT = 25;
const DEFAULT_LEADERBOARD_LIMIT = 10;

/** The part of the view a page's read is answered from; null: a read the view does not keep. */
export function viewPartOf(name: RouteName): ViewPart | null {
	switch (name) {
		case 'ttsQueue':
			return 'tts';
		case 'mediaQueue':
		case 'mediaStatus':
			return 'media';
		case 'ttsHistory':
		case 'mediaHistory':
		case 'tipping':
		case 'leaderboard':
			return name;
		case 'countersList':
		case 'counterRead':
			return 'counters';
		case 'tipGoalRead':
			return 'goals';
		default:
			return null;
	}
}

/** The query of the reads the view answers, as the route's schema parsed it. */
export interface PageQuery {
	limit?: number;
	before?: string;
}

/** `params` and `query` as the route table matched and checked them. */
export function answerFromView(
	view: LiveView,
	name: RouteName,
	params: Record<string, string>,
	query: PageQuery
): unknown {
	switch (name) {
		case 'ttsQueue':
			return view.sure('tts') ? view.ttsQueue() : null;
		case 'mediaQueue':
			return view.sure('media') ? view.mediaQueue() : null;
		case 'mediaStatus': {
			if (!view.sure('media')) return null;
			const { items: _items, ...status } = view.mediaQueue();
			return status;
		}
		case 'ttsHistory':
		case 'mediaHistory': {
			const tts = name === 'ttsHistory';
			const limit = query.limit ?? DEFAULT_HISTORY_LIMIT;
			const list = tts ? view.ttsHistory : view.mediaHistory;
			if (!view.sure(name) || query.before !== undefined || limit > list.depth) return null;
			const { rows, ...page } = list.page(limit);
			return tts ? { tips: rows, ...page } : { media: rows, ...page };
		}
		case 'countersList':
			return view.sure('counters') ? { counters: view.counterList() } : null;
		case 'counterRead': {
			const counter = view.sure('counters') ? view.counters.get(params.name) : undefined;
			return counter ? { counter } : null;
		}
		case 'tipGoalRead': {
			const goal = view.sure('goals') ? view.goals.get(params.overlayId) : undefined;
			return goal ? { tip_goal: goal } : null;
		}
		case 'tipping':
			return view.sure('tipping') && view.accepting !== null ? { accepting: view.accepting } : null;
		case 'leaderboard': {
			if (!view.sure('leaderboard')) return null;
			const limit = query.limit ?? DEFAULT_LEADERBOARD_LIMIT;
			if (limit > view.leaderboard.served) return null;
			const supporters = view.supporters(limit);
			return supporters && { supporters };
		}
		default:
			return null;
	}
}
