// A part of the live view as the upstream's read of it would answer (docs/hosted.md, the intake's
// lease): what the instance holding a streamer's intake hands the other instances, which set their
// own copy of the view to it (LiveView.applySnapshot) and answer their pages' reads from that. Null
// when the view is not sure of the part: the others do not answer from it either.
import type { LiveView } from './live-view.ts';
import type { Snapshots, ViewPart } from './parts.ts';

export function partSnapshot<P extends ViewPart>(view: LiveView, part: P): Snapshots[P] | null {
	if (!view.sure(part)) return null;
	return snapshotOf(view, part) as Snapshots[P] | null;
}

function snapshotOf(view: LiveView, part: ViewPart): Snapshots[ViewPart] | null {
	switch (part) {
		case 'tts':
			return view.ttsQueue();
		case 'media':
			return view.mediaQueue();
		case 'ttsHistory':
			return { tips: view.ttsHistory.rows, has_more: view.ttsHistory.more };
		case 'mediaHistory':
			return { media: view.mediaHistory.rows, has_more: view.mediaHistory.more };
		case 'counters':
			return { counters: view.counterList() };
		case 'goals':
			return Object.fromEntries(view.goals);
		case 'tipping':
			return view.accepting === null ? null : { accepting: view.accepting };
		case 'leaderboard': {
			// Only the rows it answers for sure: the margin below them is the holder's own business.
			const supporters = view.supporters(view.leaderboard.served);
			return supporters && { supporters };
		}
	}
}
