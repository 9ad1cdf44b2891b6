// How the Activity's entries are made and changed (docs/activity.md), pure: a tip's and a video's
// entry from the upstream's records (an event's, or a recovered history or queue row), and their
// outcomes. A tip's or a video's outcome goes forward only: once read, skipped or removed, a late
// or repeated `started` or `released` changes nothing.
import type { ActivityEntry, ActivityOf, TipOutcome } from '../../contract/activity.ts';
import type {
	HistoryMediaItem,
	HistoryTip,
	QueueMediaItem,
	QueueTip,
	TipModeration
} from '../../contract/index.ts';

export type Via = ActivityEntry['via'];
type VideoOutcome = ActivityOf<'video'>['outcome'];

/** A change of one entry: `make` gets the stored entry (absent: none) and gives the new one. */
export interface EntryUpdate {
	key: string;
	/** Null: nothing to change (or to make). */
	make: (prev: ActivityEntry | undefined) => ActivityEntry | null;
}

export const tipKey = (orderId: string) => `tip_${orderId}`;
export const videoKey = (orderId: string) => `video_${orderId}`;

/** Outcomes past which no event goes back (a replay is a new entry). */
const FINAL = new Set<string>(['read', 'played', 'skipped', 'removed', 'cleared', 'replayed']);

/** Whether `next` may follow `prev`: forward only, except that a replayed tip stays replayed. */
export function moves(prev: string, next: string): boolean {
	if (prev === next) return false;
	if (!FINAL.has(prev)) return true;
	// A read tip replayed by the kit's Replay says so; nothing else moves a final outcome.
	return next === 'replayed' && prev === 'read';
}

function tipFields(tip: QueueTip | HistoryTip) {
	return {
		order_id: tip.order_id,
		name: tip.name,
		amount: tip.amount,
		message: tip.message,
		is_paid: tip.is_paid,
		is_replay: tip.is_replay,
		source: tip.source
	};
}

/** The tip's entry made or refreshed from its record, its outcome `outcome` if it may move. */
export function tipUpdate(
	tip: QueueTip | HistoryTip,
	outcome: TipOutcome,
	via: Via,
	at: string
): EntryUpdate {
	return {
		key: tipKey(tip.order_id),
		make: (prev) => {
			if (prev && prev.kind !== 'tip') return null;
			if (!prev)
				return {
					id: tipKey(tip.order_id),
					kind: 'tip',
					at: tip.queued_at,
					via,
					updated_at: at,
					...tipFields(tip),
					outcome,
					message_hidden: outcome === 'removed',
					moderation: null,
					replayed_as: null,
					replay_of: null
				};
			if (!moves(prev.outcome, outcome)) return null;
			return withTipOutcome({ ...prev, ...tipFields(tip) }, outcome, at);
		}
	};
}

/** Only the outcome of a tip already recorded (an event that names its order id alone). */
export function tipOutcome(orderId: string, outcome: TipOutcome, at: string): EntryUpdate {
	return {
		key: tipKey(orderId),
		make: (prev) =>
			prev?.kind === 'tip' && moves(prev.outcome, outcome)
				? withTipOutcome(prev, outcome, at)
				: null
	};
}

function withTipOutcome(prev: ActivityOf<'tip'>, outcome: TipOutcome, at: string) {
	const hidden = prev.message_hidden || outcome === 'removed';
	return { ...prev, outcome, message_hidden: hidden, updated_at: at };
}

/** The kit's Replay of `orderId` queued `replay`: the original says so, the replay names it. */
export function replayUpdates(orderId: string, replay: QueueTip, at: string): EntryUpdate[] {
	const made = tipUpdate(replay, 'queued', 'realtime', at);
	return [
		{
			key: tipKey(orderId),
			make: (prev) =>
				prev?.kind === 'tip'
					? {
							...prev,
							outcome: moves(prev.outcome, 'replayed') ? 'replayed' : prev.outcome,
							replayed_as: replay.order_id,
							updated_at: at
						}
					: null
		},
		{
			key: made.key,
			make: (prev) => {
				const entry = made.make(prev) ?? prev;
				return entry?.kind === 'tip' && entry.replay_of !== orderId
					? { ...entry, replay_of: orderId, updated_at: at }
					: null;
			}
		}
	];
}

/** The kit's moderation decision of a tip (or a video), as the dock is given it. */
export function moderationUpdate(key: string, moderation: TipModeration, at: string): EntryUpdate {
	return {
		key,
		make: (prev) => {
			if (prev?.kind !== 'tip' && prev?.kind !== 'video') return null;
			if (JSON.stringify(prev.moderation) === JSON.stringify(moderation)) return null;
			if (prev.kind === 'video') return { ...prev, moderation, updated_at: at };
			const held = moderation.outcome === 'hold' || moderation.outcome === 'remove';
			return { ...prev, moderation, message_hidden: prev.message_hidden || held, updated_at: at };
		}
	};
}

function videoFields(media: QueueMediaItem | HistoryMediaItem) {
	return {
		order_id: media.order_id,
		name: media.donor_name,
		title: media.video_title,
		url: media.media_url,
		duration: media.video_duration,
		requested_via: media.requested_via
	};
}

/** A video's entry made or refreshed from its record. */
export function videoUpdate(
	media: QueueMediaItem | HistoryMediaItem,
	outcome: VideoOutcome,
	via: Via,
	at: string
): EntryUpdate {
	const key = videoKey(media.order_id);
	return {
		key,
		make: (prev) => {
			if (prev && prev.kind !== 'video') return null;
			if (!prev) {
				const fields = videoFields(media);
				return {
					id: key,
					kind: 'video',
					at: media.queued_at,
					via,
					updated_at: at,
					...fields,
					outcome,
					moderation: null
				};
			}
			if (!moves(prev.outcome, outcome)) return null;
			return { ...prev, ...videoFields(media), outcome, updated_at: at };
		}
	};
}

export function videoOutcome(orderId: string, outcome: VideoOutcome, at: string): EntryUpdate {
	return {
		key: videoKey(orderId),
		make: (prev) =>
			prev?.kind === 'video' && moves(prev.outcome, outcome)
				? { ...prev, outcome, updated_at: at }
				: null
	};
}

/**
 * The thanks the kit posted for a tip (one entry per tip thanked, keyed by its order id: a tip is
 * thanked once), made once.
 */
export function thanksUpdate(orderId: string, name: string, text: string, at: string): EntryUpdate {
	const key = `thanks_${orderId}`;
	return {
		key,
		make: (prev) =>
			prev
				? null
				: { id: key, kind: 'thanks', at, via: 'kit', updated_at: at, name, text, order_id: orderId }
	};
}

/** The name the Activity's search matches: a tipper's, a requester's, a command's runner's. */
export function nameOf(entry: ActivityEntry): string | null {
	switch (entry.kind) {
		case 'tip':
		case 'video':
		case 'thanks':
		case 'command':
			return entry.name;
		default:
			return null;
	}
}
