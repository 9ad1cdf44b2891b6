// The dock's Activity (docs/activity.md): what one entry of a streamer's recorded history carries,
// and the answers of its /control routes (control-activity.ts). Ours, not the upstream's: the token
// endpoint derives each entry from the events it hears (events.ts) and keeps it 30 days by default.
// Viewer text (names, messages, titles, a command's arguments) is text: the dock shows it as text.
import { z } from 'zod/mini';
import { DateTime, OrderId } from './common.ts';
import { TipModeration } from './moderation.ts';

/** Every kind of entry; the list's `kind` filter takes any of them. */
export const ACTIVITY_KINDS = [
	'tip',
	'video',
	'counter',
	'goal',
	'celebration',
	'tipping',
	'queue',
	'overlay',
	'thanks',
	'command',
	'other',
	'unknown'
] as const;
export const ActivityKind = /*@__PURE__*/ z.enum(ACTIVITY_KINDS);
export type ActivityKind = z.infer<typeof ActivityKind>;

/**
 * How the kit heard it: its own realtime intake, a signed webhook, or recovered after a gap; `kit`:
 * the kit's own doing, which no event tells (a thanks it posted in chat).
 */
export const ActivityVia = /*@__PURE__*/ z.enum(['realtime', 'webhook', 'recovered', 'kit']);

/**
 * A tip's TTS outcome: waiting in the queue, being read, read (played through), skipped by the
 * streamer, removed from the queue, released (a claim dropped: it waits again), replayed (queued
 * again as a new item, `replayed_as`), cleared (the queue was emptied).
 */
export const TipOutcome = /*@__PURE__*/ z.enum([
	'queued',
	'playing',
	'read',
	'skipped',
	'removed',
	'released',
	'replayed',
	'cleared'
]);
export type TipOutcome = z.infer<typeof TipOutcome>;
/** A video's outcome, as a tip's with `played` for read. */
export const VideoOutcome = /*@__PURE__*/ z.enum([
	'queued',
	'playing',
	'played',
	'skipped',
	'removed',
	'released'
]);

const common = {
	/** The entry's id: opaque, unique per streamer (a tip's and a video's stay one entry). */
	id: z.string(),
	/** When it happened (a tip's and a video's: when it was queued). */
	at: DateTime,
	via: ActivityVia,
	/** When the entry last changed (an outcome after the tip, a decision). */
	updated_at: DateTime
};

const TipEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('tip'),
	order_id: OrderId,
	name: z.string(),
	amount: z.nullable(z.number()),
	/** As the viewer wrote it; with `message_hidden` the dock shows it only after "Show". */
	message: z.nullable(z.string()),
	/** Removed (from the queue, or by a rule) or held: the dock hides the message until "Show". */
	message_hidden: z.boolean(),
	is_paid: z.boolean(),
	is_replay: z.boolean(),
	source: z.string(),
	outcome: TipOutcome,
	/** The kit's moderation decision (the dock's presentation: rule and who), null for none. */
	moderation: z.nullable(TipModeration),
	/** The new order id of its replay, when the kit's Replay made one. */
	replayed_as: z.nullable(OrderId),
	/** Of a replay made by the kit's Replay: the order id it replays. */
	replay_of: z.nullable(OrderId)
});

const VideoEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('video'),
	order_id: OrderId,
	/** The requester's name. */
	name: z.string(),
	title: z.nullable(z.string()),
	url: z.string(),
	/** Seconds; 0 unknown. */
	duration: z.int(),
	requested_via: z.string(),
	outcome: VideoOutcome,
	moderation: z.nullable(TipModeration)
});

const CounterEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('counter'),
	name: z.string(),
	/** The value now; null: the counter was deleted. */
	value: z.nullable(z.int()),
	previous: z.nullable(z.int())
});

const GoalEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('goal'),
	overlay_id: z.string(),
	title: z.nullable(z.string()),
	current: z.number(),
	amount: z.nullable(z.number())
});

const CelebrationEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('celebration'),
	overlay_id: z.nullable(z.string()),
	widget_id: z.nullable(z.string())
});

const TippingEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('tipping'),
	accepting: z.boolean()
});

/** A queue paused, resumed or cleared, or the video player shown or hidden. */
const QueueEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('queue'),
	queue: z.enum(['tts', 'media']),
	change: z.enum(['paused', 'resumed', 'cleared', 'shown', 'hidden'])
});

/** An overlay reloaded (null: every overlay). */
const OverlayEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('overlay'),
	overlay_id: z.nullable(z.string())
});

/** A thanks the kit posted in chat for a tip. */
const ThanksEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('thanks'),
	/** The tipper thanked. */
	name: z.string(),
	/** The message as posted. */
	text: z.string(),
	order_id: z.nullable(OrderId)
});

/** A custom chat command that ran; `name` is who ran it (their display name). */
const CommandEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('command'),
	command: z.string(),
	trigger: z.string(),
	args: z.string(),
	platform: z.string(),
	name: z.string(),
	login: z.string(),
	role: z.string()
});

/** An event of a type the kit knows but keeps nothing particular of (channel points, ...). */
const OtherEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('other'),
	type: z.string()
});
/** An event of a type the kit does not know: kept by its type, its payload not read. */
const UnknownEntry = /*@__PURE__*/ z.looseObject({
	...common,
	kind: z.literal('unknown'),
	type: z.string()
});

/** One entry of the Activity. */
export const ActivityEntry = /*@__PURE__*/ z.discriminatedUnion('kind', [
	TipEntry,
	VideoEntry,
	CounterEntry,
	GoalEntry,
	CelebrationEntry,
	TippingEntry,
	QueueEntry,
	OverlayEntry,
	ThanksEntry,
	CommandEntry,
	OtherEntry,
	UnknownEntry
]);
export type ActivityEntry = z.infer<typeof ActivityEntry>;
export type ActivityOf<K extends ActivityKind> = Extract<ActivityEntry, { kind: K }>;

/** GET /control/activity: one page, newest first; `next_cursor` reads the next (older) one. */
export const ActivityPage = /*@__PURE__*/ z.looseObject({
	entries: z.array(ActivityEntry),
	next_cursor: z.nullable(z.string())
});
export type ActivityPage = z.infer<typeof ActivityPage>;

/** One of the stream's top tippers. */
const TopTipper = /*@__PURE__*/ z.looseObject({
	name: z.string(),
	total: z.number(),
	tips: z.int()
});

/** The summary of this stream, from `since`. */
export const ActivitySummary = /*@__PURE__*/ z.looseObject({
	since: DateTime,
	/**
	 * Where `since` comes from: the streamer set it (`streamer`), tipping opened (`tipping`), or
	 * the first entry after a quiet of STREAM_GAP_HOURS (`gap`); `none`: nothing recorded yet.
	 */
	since_from: z.enum(['streamer', 'tipping', 'gap', 'none']),
	tips: z.int(),
	/** The sum of the tips' amounts (paid or not; `paid_total` the paid ones). */
	total: z.number(),
	paid_total: z.number(),
	/** At most 5, the largest total first. */
	top: z.array(TopTipper),
	videos: z.int()
});
export type ActivitySummary = z.infer<typeof ActivitySummary>;

/** The kit's own start of a stream: the first entry after this many hours without any. */
export const STREAM_GAP_HOURS = 4;

/**
 * Replay from the Activity: `done` (queued again, `order_id` the new item), or `in_queue` (the tip,
 * or its replay, waits in the queue already: nothing was asked of the upstream).
 */
export const ReplayAnswer = /*@__PURE__*/ z.looseObject({
	outcome: z.enum(['done', 'in_queue']),
	message: z.string(),
	order_id: z.nullable(OrderId)
});
export type ReplayAnswer = z.infer<typeof ReplayAnswer>;

/** Delete history: how many entries went. */
export const DeleteAnswer = /*@__PURE__*/ z.looseObject({ deleted: z.int() });
