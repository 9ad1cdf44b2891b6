// The Activity's entries in words (docs/dock.md, "Activity"): each kind's filter label, a tip's
// and a video's outcome, the line of every other kind, the summary's start, and the range of an
// export as the date-time inputs give it. Pure: Activity's components show what these say.
import {
	STREAM_GAP_HOURS,
	type ActivityEntry,
	type ActivityKind,
	type ActivitySummary
} from '../../src/contract/activity.ts';
import { formatAmount, type CurrencyInfo } from '../shared/currency.ts';

/** The kind filter's choices: everything, or one kind (the kinds a streamer looks for first). */
export const KIND_FILTERS: readonly { value: ActivityKind | ''; label: string }[] = [
	{ value: '', label: 'Everything' },
	{ value: 'tip', label: 'Tips' },
	{ value: 'video', label: 'Videos' },
	{ value: 'counter', label: 'Counters' },
	{ value: 'goal', label: 'Tip goals' },
	{ value: 'celebration', label: 'Celebrations' },
	{ value: 'tipping', label: 'Tipping opened or closed' },
	{ value: 'queue', label: 'Queues paused, resumed, cleared' },
	{ value: 'thanks', label: 'Thanks in chat' },
	{ value: 'command', label: 'Chat commands' },
	{ value: 'overlay', label: 'Overlays reloaded' },
	{ value: 'other', label: 'Other' },
	{ value: 'unknown', label: 'Unknown' }
];

/** A tip's or a video's outcome as the row's chip says it. */
const OUTCOME_WORDS: Record<string, string> = {
	queued: 'in the queue',
	playing: 'playing now',
	read: 'read',
	played: 'played',
	skipped: 'skipped',
	removed: 'removed',
	released: 'released: waits again',
	replayed: 'replayed',
	cleared: 'cleared with the queue'
};

type Played = Extract<ActivityEntry, { kind: 'tip' | 'video' }>;

/** What happened to a tip or a video: its outcome, and how the rules or a person decided it. */
export function outcomeWords(e: Played): string {
	const words = OUTCOME_WORDS[e.outcome] ?? e.outcome;
	const m = e.moderation;
	const rejected = m?.by === 'rejected' ? ' (rejected)' : '';
	switch (m?.outcome) {
		case undefined:
		case 'read':
			return m?.by === 'approved' ? `${words}, approved` : words;
		case 'no_voice':
			return `${words}, no voice${rejected}`;
		case 'pending':
			return `${words}, checking…`;
		case 'hold':
			return `${words}, held`;
		default:
			return rejected ? 'removed (rejected)' : 'removed by the rules';
	}
}

/** Whether the tip or video may be queued again (nothing else has a Replay). */
export const replayable = (e: ActivityEntry): e is Played => e.kind === 'tip' || e.kind === 'video';

const QUEUE_NAME = { tts: 'Tips', media: 'Videos' } as const;

/** The one line of an entry that is neither a tip nor a video. */
export function entryLine(e: ActivityEntry, currency: CurrencyInfo | null): string {
	switch (e.kind) {
		case 'tip':
		case 'video':
			return '';
		case 'counter':
			if (e.value === null) return `counter ${e.name} deleted`;
			return e.previous === null
				? `counter ${e.name}: ${e.value}`
				: `counter ${e.name}: ${e.previous} → ${e.value}`;
		case 'goal': {
			const of = e.amount === null ? '' : ` of ${formatAmount(e.amount, currency)}`;
			return `tip goal ${e.title ?? e.overlay_id}: ${formatAmount(e.current, currency)}${of}`;
		}
		case 'celebration':
			return e.overlay_id === null ? 'celebration on every overlay' : 'celebration on an overlay';
		case 'tipping':
			return e.accepting ? 'tipping opened' : 'tipping closed';
		case 'queue':
			return `${QUEUE_NAME[e.queue]} ${e.change}`;
		case 'overlay':
			return e.overlay_id === null ? 'every overlay reloaded' : 'an overlay reloaded';
		case 'thanks':
			return `thanked ${e.name} in chat: ${e.text}`;
		case 'command':
			return `${e.name} ran ${e.trigger}${e.args ? ` ${e.args}` : ''}`;
		default:
			return e.type;
	}
}

/** Where the summary's start comes from, in words. */
export function sinceWords(s: ActivitySummary, clock: (iso: string) => string): string {
	switch (s.since_from) {
		case 'none':
			return 'Nothing recorded yet.';
		case 'streamer':
			return `Since ${clock(s.since)} (the start you set).`;
		case 'tipping':
			return `Since ${clock(s.since)} (tipping opened).`;
		default:
			return `Since ${clock(s.since)} (the first event after ${STREAM_GAP_HOURS} quiet hours).`;
	}
}

/**
 * A date-time input's value (`2026-12-01T20:15`, the browser's local time) as an ISO date-time;
 * '' is null (no bound), and a value the browser cannot read is undefined.
 */
export function localToIso(value: string): string | null | undefined {
	if (value.trim() === '') return null;
	const t = new Date(value).getTime();
	return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}

/** An ISO date-time as a date-time input shows it (local time, to the minute). */
export function isoToLocal(iso: string): string {
	const d = new Date(iso);
	if (!Number.isFinite(d.getTime())) return '';
	const two = (n: number) => String(n).padStart(2, '0');
	return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The export's file name: what it holds, from and to (`activity-2026-12-01T2015-to-now.csv`). */
export function exportName(from: string, to: string): string {
	const part = (v: string, none: string) => (v ? v.replace(/:/g, '') : none);
	return `activity-${part(from, 'start')}-to-${part(to, 'now')}.csv`;
}
