// How each event keeps each part of the live view, and a part set to its read's answer
// (docs/upstream.md, which event keeps which part of the view). Pure functions over the view's
// state; live-view.ts decides when they run (an event, an answer, a replay).
import type {
	Counter,
	HistoryMediaItem,
	HistoryTip,
	KnownEvent,
	QueueMediaItem,
	QueueTip,
	TipGoal
} from '../../contract/index.ts';
import { applyTip, countsToward } from '../goal.ts';
import { countsForSupporters, type HistoryView, type LeaderboardView } from './lists.ts';
import type { Snapshots, ViewPart } from './parts.ts';
import type { Certainty, QueueView } from './queue.ts';

/** What the functions below read and change of the view. */
export interface ViewState {
	readonly tts: QueueView<QueueTip>;
	readonly media: QueueView<QueueMediaItem>;
	mediaVisible: boolean;
	readonly ttsHistory: HistoryView<HistoryTip>;
	readonly mediaHistory: HistoryView<HistoryMediaItem>;
	readonly counters: Map<string, Counter>;
	readonly goals: Map<string, TipGoal>;
	accepting: boolean | null;
	readonly leaderboard: LeaderboardView;
	readonly known: ReadonlySet<ViewPart>;
	/** Whether a tip at `now` may already be counted in `part`'s last answer (live-view.ts). */
	tipInDoubt(part: ViewPart, tip: QueueTip, now: number): boolean;
}

/** A part set to its read's answer. */
export function setPart<P extends ViewPart>(view: ViewState, part: P, body: Snapshots[P]): void {
	const b = body as Snapshots[ViewPart];
	switch (part) {
		case 'tts':
			return view.tts.snapshot(b as Snapshots['tts']);
		case 'media':
			view.media.snapshot(b as Snapshots['media']);
			view.mediaVisible = (b as Snapshots['media']).visible;
			return;
		case 'ttsHistory': {
			const h = b as Snapshots['ttsHistory'];
			return view.ttsHistory.snapshot(h.tips, h.has_more);
		}
		case 'mediaHistory': {
			const h = b as Snapshots['mediaHistory'];
			return view.mediaHistory.snapshot(h.media, h.has_more);
		}
		case 'counters':
			view.counters.clear();
			for (const c of (b as Snapshots['counters']).counters) view.counters.set(c.name, c);
			return;
		case 'goals':
			view.goals.clear();
			for (const [id, goal] of Object.entries(b as Snapshots['goals'])) view.goals.set(id, goal);
			return;
		case 'tipping':
			view.accepting = (b as Snapshots['tipping']).accepting;
			return;
		case 'leaderboard':
			return view.leaderboard.snapshot((b as Snapshots['leaderboard']).supporters);
	}
}

/** One event applied to one part it keeps (see parts.ts). */
export function keepPart(
	view: ViewState,
	part: ViewPart,
	event: KnownEvent,
	o: { replay: boolean; now: number }
): Certainty {
	switch (part) {
		// Replayed on an answer, a queue's events come in order after what it holds: a claim or an
		// item the answer lacks is one that a later event in line settles, never a gap.
		case 'tts': {
			const kept = keepTts(view.tts, event);
			return o.replay ? 'ok' : kept;
		}
		case 'media': {
			const kept = keepMedia(view, event);
			return o.replay ? 'ok' : kept;
		}
		case 'ttsHistory':
			return event.type === 'queue.tts.finished' ? view.ttsHistory.add(event.data.tip) : 'ok';
		case 'mediaHistory':
			return event.type === 'queue.media.finished' ? view.mediaHistory.add(event.data.media) : 'ok';
		case 'counters':
			return keepCounters(view.counters, event);
		case 'goals':
			return keepGoals(view, event, o);
		case 'tipping':
			if (event.type === 'tipping.opened' || event.type === 'tipping.closed')
				view.accepting = event.type === 'tipping.opened';
			return 'ok';
		case 'leaderboard':
			if (event.type !== 'tip.created' || !view.known.has('leaderboard')) return 'ok';
			// Replayed on an answer that may already count it: read again rather than count it twice.
			if (!countsForSupporters(event.data.tip)) return 'ok';
			if (o.replay || view.tipInDoubt(part, event.data.tip, o.now)) return 'reread';
			return view.leaderboard.tip(event.data.tip);
	}
}

function keepTts(q: QueueView<QueueTip>, event: KnownEvent): Certainty {
	switch (event.type) {
		case 'tip.created':
		case 'queue.tts.replayed':
			return q.add(event.data.tip);
		case 'tip.tts_ready': {
			const url = event.data.tts_url;
			return q.update(event.data.order_id, (tip) => ({ ...tip, tts_url: url }));
		}
		case 'queue.tts.started':
			return q.start(event.data.tip);
		case 'queue.tts.released':
			return q.release(event.data.order_id);
		case 'queue.tts.finished':
			return q.drop(oneCopy(event.data.order_id, event.data.tip.order_id));
		case 'queue.tts.skipped':
		case 'queue.tts.removed':
			return q.drop(event.data.order_id);
		case 'queue.tts.paused':
		case 'queue.tts.resumed':
			return q.setPaused(event.data.is_paused);
		case 'queue.tts.cleared':
			return q.clear();
		default:
			return 'ok';
	}
}

function keepMedia(view: ViewState, event: KnownEvent): Certainty {
	const q = view.media;
	switch (event.type) {
		case 'queue.media.added':
			return q.add(event.data.media);
		case 'queue.media.started':
			return q.start(event.data.media);
		case 'queue.media.released':
			return q.release(event.data.order_id);
		case 'queue.media.finished':
			return q.drop(oneCopy(event.data.order_id, event.data.media.order_id));
		case 'queue.media.skipped':
		case 'queue.media.removed':
			return q.drop(event.data.order_id);
		case 'queue.media.paused':
		case 'queue.media.resumed':
			return q.setPaused(event.data.is_paused);
		case 'queue.media.visibility':
			view.mediaVisible = event.data.visible;
			return 'ok';
		case 'queue.tts.cleared':
			return q.resetClaim();
		default:
			return 'ok';
	}
}

/**
 * `id`, as the string `row` holds when they are equal: the order id remembered as gone (queue.ts)
 * and the history row it becomes are then one string in memory, not two equal ones.
 */
function oneCopy(id: string, rowId: string): string {
	return id === rowId ? rowId : id;
}

function keepCounters(counters: Map<string, Counter>, event: KnownEvent): Certainty {
	if (event.type === 'counter.deleted') counters.delete(event.data.name);
	if (event.type === 'counter.updated') {
		const next = event.data.counter;
		const kept = counters.get(next.name);
		// Events come in any order: an older change than the one kept is not applied.
		if (!kept || Date.parse(next.updated_at) >= Date.parse(kept.updated_at))
			counters.set(next.name, next);
	}
	return 'ok';
}

function keepGoals(
	view: ViewState,
	event: KnownEvent,
	o: { replay: boolean; now: number }
): Certainty {
	if (event.type === 'overlay.tip_goal.updated') {
		view.goals.set(event.data.overlay_id, event.data.tip_goal);
		return 'ok';
	}
	if (event.type !== 'tip.created' || !view.known.has('goals')) return 'ok';
	const tip = event.data.tip;
	if (![...view.goals.values()].some((g) => countsToward(g, tip))) return 'ok';
	if (o.replay || view.tipInDoubt('goals', tip, o.now)) return 'reread';
	for (const [id, goal] of view.goals) view.goals.set(id, applyTip(goal, tip));
	return 'ok';
}
