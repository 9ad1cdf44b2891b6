// What the Activity's recorder asks of moderation (recorder.ts, RecorderModeration): a tip's
// decision, made by the rules as a page's read would make it and stored once, as the dock is given
// it; and the decisions that change later (a held tip approved or rejected).
import { dockModeration } from '../../core/moderation/decision.ts';
import type { Moderator } from '../moderation/moderator.ts';
import type { RecorderModeration } from './recorder.ts';

export function activityModeration(moderator: Moderator): RecorderModeration {
	return {
		decide: async (streamer, tip) => {
			const decided = (await moderator.decisions(streamer, [tip]))?.get(tip.order_id);
			return decided ? dockModeration(decided) : null;
		},
		watch: (streamer, changed) =>
			moderator.store.push.subscribe(streamer, (m) => {
				if (m.type === 'decision' && m.order_id && m.queue !== 'media') changed(m.order_id);
			})
	};
}
