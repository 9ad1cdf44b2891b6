// Which part of the live view each upstream event keeps (docs/upstream.md, which event keeps which
// part of the view). A part is what one upstream read answers: when an event of it cannot be
// applied with certainty, that read is made again, and only that one.
import type {
	Counter,
	HistoryMediaItem,
	HistoryTip,
	KnownEvent,
	QueueMediaItem,
	QueueTip,
	TipGoal
} from '../../contract/index.ts';
import type { Supporter } from './lists.ts';
import type { QueueBody } from './queue.ts';

/**
 * `tts` GET /tts/queue; `media` GET /media/queue; `ttsHistory` and `mediaHistory` the first page of
 * GET /tts/history and GET /media/history (the recent lists); `counters` GET /counters; `goals`
 * every overlay's GET /overlays/{id}/tip-goal (the overlays from GET /overlays); `tipping`
 * GET /tipping; `leaderboard` GET /leaderboard.
 */
export const VIEW_PARTS = [
	'tts',
	'media',
	'ttsHistory',
	'mediaHistory',
	'counters',
	'goals',
	'tipping',
	'leaderboard'
] as const;
export type ViewPart = (typeof VIEW_PARTS)[number];

/** The parts each known event type keeps; a type missing here keeps none. */
const KEEPS: Partial<Record<KnownEvent['type'], readonly ViewPart[]>> = {
	'tip.created': ['tts', 'goals', 'leaderboard'],
	'tip.tts_ready': ['tts'],
	'queue.tts.started': ['tts'],
	'queue.tts.finished': ['tts', 'ttsHistory'],
	'queue.tts.released': ['tts'],
	'queue.tts.skipped': ['tts'],
	'queue.tts.removed': ['tts'],
	'queue.tts.replayed': ['tts'],
	'queue.tts.paused': ['tts'],
	'queue.tts.resumed': ['tts'],
	// docs/upstream.md: a TTS clear resets the media's playback state too.
	'queue.tts.cleared': ['tts', 'media'],
	'queue.media.added': ['media'],
	'queue.media.started': ['media'],
	'queue.media.finished': ['media', 'mediaHistory'],
	'queue.media.released': ['media'],
	'queue.media.skipped': ['media'],
	'queue.media.removed': ['media'],
	'queue.media.paused': ['media'],
	'queue.media.resumed': ['media'],
	'queue.media.visibility': ['media'],
	'counter.updated': ['counters'],
	'counter.deleted': ['counters'],
	'overlay.tip_goal.updated': ['goals'],
	'tipping.opened': ['tipping'],
	'tipping.closed': ['tipping']
};

/**
 * Families of event types, by prefix: an event of a family that the view cannot read (a type it
 * does not know, a payload that fails its schema) has the family's parts read again.
 */
const FAMILIES: ReadonlyArray<readonly [string, readonly ViewPart[]]> = [
	['tip.', ['tts', 'goals', 'leaderboard']],
	['queue.tts.', ['tts', 'ttsHistory']],
	['queue.media.', ['media', 'mediaHistory']],
	['counter.', ['counters']],
	['overlay.tip_goal.', ['goals']],
	['tipping.', ['tipping']]
];

/** The parts a known event keeps. */
export function partsKept(type: string): readonly ViewPart[] {
	return Object.hasOwn(KEEPS, type) ? (KEEPS[type as KnownEvent['type']] ?? []) : [];
}

/** The parts an event the view could not read may have changed (none: not the view's concern). */
export function partsInDoubt(type: string): readonly ViewPart[] {
	const kept = partsKept(type);
	if (kept.length) return kept;
	return FAMILIES.find(([prefix]) => type.startsWith(prefix))?.[1] ?? [];
}

/** What each part's read answers, as the caller hands it in (the upstream's bodies). */
export interface Snapshots {
	tts: QueueBody<QueueTip>;
	media: QueueBody<QueueMediaItem> & { visible: boolean };
	ttsHistory: { tips: HistoryTip[]; has_more: boolean };
	mediaHistory: { media: HistoryMediaItem[]; has_more: boolean };
	counters: { counters: Counter[] };
	/** Every overlay's tip goal by overlay id (GET /overlays, then each one's tip goal). */
	goals: Record<string, TipGoal>;
	tipping: { accepting: boolean };
	leaderboard: { supporters: Supporter[] };
}
