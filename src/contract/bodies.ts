// Request and response bodies of the endpoints this project uses (docs/upstream.md:
// the endpoints and the calls the API document does not detail).
import { z } from 'zod/mini';
// `/*@__PURE__*/` before `z.x().check(...)`: zod's functions are marked pure but `.check` is a
// method call the bundler must keep, with the schema and the checks it builds; marked, a page drops
// the schemas it does not use.
// A record that adds fields to another is `withFields(otherShape, { ... })` (common.ts), the
// other's fields kept as a plain shape: the same schema as `z.extend`, lighter on every page.
import { CHAT_MESSAGE_MAX } from './chat.ts';
import { CounterName, DateTime, OrderId, OverlayId, withFields } from './common.ts';
import {
	Counter,
	HistoryMediaItem,
	HistoryTip,
	LeaderboardEntry,
	Overlay,
	QueueMediaItem,
	QueueTip,
	TipGoal,
	tipGoalFieldsShape
} from './resources.ts';

const successShape = { success: z.boolean() };
const Success = z.looseObject(successShape);

// --- Identity ---

export const EventsCatalogBody = z.looseObject({
	events: z.record(z.string(), z.string()),
	scopes: z.record(z.string(), z.string())
});

// --- TTS ---

/** Where a queue stands: paused or not, and which order holds its one claim. */
const queueStateShape = {
	is_paused: z.boolean(),
	currently_playing: z.boolean(),
	current_order_id: z.nullable(OrderId)
};
/** A page of history (see HistoryQuery); the rows are the route's own. */
const historyPageShape = { has_more: z.boolean(), next_cursor: z.nullable(z.string()) };

export const TtsQueueBody = withFields(queueStateShape, {
	/** Oldest first. */
	items: z.array(QueueTip)
});
export type TtsQueueBody = z.infer<typeof TtsQueueBody>;

export const TtsStartBody = withFields(successShape, { tip: QueueTip });
export const TtsFinishBody = withFields(successShape, { tip: HistoryTip });
export const TtsReleaseBody = withFields(successShape, {
	released: z.boolean(),
	tip: z.nullable(QueueTip)
});
export const PausedBody = withFields(successShape, { is_paused: z.boolean() });
export const SkipBody = withFields(successShape, { order_id: z.nullable(OrderId) });
export const TtsReplayBody = withFields(successShape, { tip: QueueTip });

/**
 * A cursor page, most recent first; `before` takes an order id from `next_cursor`. Any string is
 * accepted here: an empty, malformed or unknown cursor is the server's 400 `bad_cursor`
 * (docs/upstream.md, errors), not a generic `bad_request`.
 */
export const HistoryQuery = z.looseObject({
	limit: z.optional(/*@__PURE__*/ z.coerce.number().check(z.int(), z.gte(1), z.lte(100))),
	before: z.optional(z.string())
});
export const TtsHistoryBody = withFields(historyPageShape, { tips: z.array(HistoryTip) });

// --- Media ---

const mediaStatusBodyShape = {
	...queueStateShape,
	/** Whether the player shows on the overlay. */
	visible: z.boolean()
};
export const MediaStatusBody = z.looseObject(mediaStatusBodyShape);
export const MediaQueueBody = withFields(mediaStatusBodyShape, { items: z.array(QueueMediaItem) });
export type MediaQueueBody = z.infer<typeof MediaQueueBody>;

export const MediaStartBody = withFields(successShape, { media: QueueMediaItem });
export const MediaFinishBody = withFields(successShape, { media: HistoryMediaItem });
/** `media` content when `released` is false is left open by docs/upstream.md: lenient. */
export const MediaReleaseBody = withFields(successShape, {
	released: z.boolean(),
	media: z.optional(z.nullable(QueueMediaItem))
});
/**
 * docs/upstream.md gives POST /media/resume a 200 of `success` only (unlike the TTS resume of
 * docs/upstream.md), so `is_paused` is optional here; the simulator sends it anyway.
 */
export const MediaResumeBody = withFields(successShape, { is_paused: z.optional(z.boolean()) });
export const MediaVisibilityRequest = z.looseObject({ visible: z.boolean() });
export const MediaVisibilityBody = withFields(successShape, { visible: z.boolean() });
export const MediaQueueRequest = z.looseObject({
	url: z.url(),
	start_time: z.optional(/*@__PURE__*/ z.int().check(z.gte(0)))
});
export const MediaQueuedBody = z.looseObject({ media: QueueMediaItem });
export const MediaHistoryBody = withFields(historyPageShape, { media: z.array(HistoryMediaItem) });

// --- Counters ---

export const CountersBody = z.looseObject({ counters: z.array(Counter) });
export const CounterBody = z.looseObject({ counter: Counter });
export const CounterCreateRequest = z.looseObject({
	name: CounterName,
	value: z.optional(z.int())
});
export const CounterSetRequest = z.looseObject({ value: z.int() });
export const CounterIncrementRequest = z.looseObject({ by: z.optional(z.int()) });

// --- Overlays ---

export const OverlaysBody = z.looseObject({ overlays: z.array(Overlay) });
export const OverlayBody = z.looseObject({ overlay: Overlay });
export const CelebrationRequest = z.looseObject({
	overlay_id: z.optional(z.nullable(OverlayId)),
	widget_id: z.optional(z.nullable(z.string()))
});
export const TipGoalBody = z.looseObject({ tip_goal: TipGoal });
/** PATCH: any subset; null or empty string clears a date. */
export const TipGoalPatchRequest = z.partial(
	withFields(tipGoalFieldsShape, {
		starts_at: z.nullable(z.union([DateTime, z.literal('')])),
		ends_at: z.nullable(z.union([DateTime, z.literal('')]))
	})
);
export const TipGoalAddRequest = z.looseObject({ amount: z.number() });
export const TipGoalAddBody = withFields(successShape, { tip_goal: TipGoal });

// --- Chat ---

/** POST /chat/messages: posted verbatim by the bot (no template variables); `all` by default. */
export const ChatSendRequest = z.looseObject({
	message: /*@__PURE__*/ z.string().check(z.minLength(1), z.maxLength(CHAT_MESSAGE_MAX)),
	platform: z.optional(z.enum(['twitch', 'kick', 'all']))
});

// --- Tipping ---

export const TippingBody = z.looseObject({ accepting: z.boolean() });
export const TippingChangeBody = withFields(successShape, { accepting: z.boolean() });
export const LeaderboardBody = z.looseObject({ supporters: z.array(LeaderboardEntry) });
export const LeaderboardQuery = z.looseObject({
	limit: z.optional(/*@__PURE__*/ z.coerce.number().check(z.int(), z.gte(1), z.lte(100)))
});
export const CreateTipRequest = z.looseObject({
	name: /*@__PURE__*/ z.string().check(z.minLength(1), z.maxLength(100)),
	amount: /*@__PURE__*/ z.number().check(z.gte(0)),
	message: z.optional(z.nullable(/*@__PURE__*/ z.string().check(z.maxLength(1000)))),
	/** Labels the origin; reports group by it. */
	source: z.optional(/*@__PURE__*/ z.string().check(z.maxLength(64))),
	/** Money really moved elsewhere, so it counts as revenue. */
	paid: z.optional(z.boolean()),
	external_ref: z.optional(/*@__PURE__*/ z.string().check(z.maxLength(200)))
});
export type CreateTipRequest = z.infer<typeof CreateTipRequest>;
export const CreateTipBody = z.looseObject({ tip: QueueTip });

export const SuccessBody = Success;
