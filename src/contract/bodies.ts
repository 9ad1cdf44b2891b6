// Request and response bodies of the endpoints this project uses (service-api.md, Endpoints;
// CONTRACT.md, Endpoints that service-api.md does not show).
import { z } from 'zod/mini';
// `/*@__PURE__*/` before `z.x().check(...)`: zod's functions are marked pure but `.check` is a
// method call the bundler must keep, with the schema and the checks it builds; marked, a page drops
// the schemas it does not use.
import { CounterName, DateTime, OrderId, OverlayId } from './common.ts';
import {
	Counter,
	HistoryMediaItem,
	HistoryTip,
	LeaderboardEntry,
	Overlay,
	QueueMediaItem,
	QueueTip,
	TipGoal,
	TipGoalFields
} from './resources.ts';

const Success = z.looseObject({ success: z.boolean() });

// --- Identity ---

export const EventsCatalogBody = z.looseObject({
	events: z.record(z.string(), z.string()),
	scopes: z.record(z.string(), z.string())
});

// --- TTS ---

/** Where a queue stands: paused or not, and which order holds its one claim. */
const QueueState = z.looseObject({
	is_paused: z.boolean(),
	currently_playing: z.boolean(),
	current_order_id: z.nullable(OrderId)
});
/** A page of history (see HistoryQuery); the rows are the route's own. */
const HistoryPage = z.looseObject({ has_more: z.boolean(), next_cursor: z.nullable(z.string()) });

export const TtsQueueBody = z.extend(QueueState, {
	/** Oldest first. */
	items: z.array(QueueTip)
});
export type TtsQueueBody = z.infer<typeof TtsQueueBody>;

export const TtsStartBody = z.extend(Success, { tip: QueueTip });
export const TtsFinishBody = z.extend(Success, { tip: HistoryTip });
export const TtsReleaseBody = z.extend(Success, {
	released: z.boolean(),
	tip: z.nullable(QueueTip)
});
export const PausedBody = z.extend(Success, { is_paused: z.boolean() });
export const SkipBody = z.extend(Success, { order_id: z.nullable(OrderId) });
export const TtsReplayBody = z.extend(Success, { tip: QueueTip });

/**
 * A cursor page, most recent first; `before` takes an order id from `next_cursor`. Any string is
 * accepted here: an empty, malformed or unknown cursor is the server's 400 `bad_cursor`
 * (service-api.md, Errors), not a generic `bad_request`.
 */
export const HistoryQuery = z.looseObject({
	limit: z.optional(/*@__PURE__*/ z.coerce.number().check(z.int(), z.gte(1), z.lte(100))),
	before: z.optional(z.string())
});
export const TtsHistoryBody = z.extend(HistoryPage, { tips: z.array(HistoryTip) });

// --- Media ---

export const MediaStatusBody = z.extend(QueueState, {
	/** Whether the player shows on the overlay. */
	visible: z.boolean()
});
export const MediaQueueBody = z.extend(MediaStatusBody, { items: z.array(QueueMediaItem) });
export type MediaQueueBody = z.infer<typeof MediaQueueBody>;

export const MediaStartBody = z.extend(Success, { media: QueueMediaItem });
export const MediaFinishBody = z.extend(Success, { media: HistoryMediaItem });
/** `media` content when `released` is false is left open by service-api.md: lenient. */
export const MediaReleaseBody = z.extend(Success, {
	released: z.boolean(),
	media: z.optional(z.nullable(QueueMediaItem))
});
/**
 * service-api.md gives POST /media/resume a 200 of `success` only (unlike the TTS resume of
 * CONTRACT.md), so `is_paused` is optional here; the simulator sends it anyway.
 */
export const MediaResumeBody = z.extend(Success, { is_paused: z.optional(z.boolean()) });
export const MediaVisibilityRequest = z.looseObject({ visible: z.boolean() });
export const MediaVisibilityBody = z.extend(Success, { visible: z.boolean() });
export const MediaQueueRequest = z.looseObject({
	url: z.url(),
	start_time: z.optional(/*@__PURE__*/ z.int().check(z.gte(0)))
});
export const MediaQueuedBody = z.looseObject({ media: QueueMediaItem });
export const MediaHistoryBody = z.extend(HistoryPage, { media: z.array(HistoryMediaItem) });

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
	z.extend(TipGoalFields, {
		starts_at: z.nullable(z.union([DateTime, z.literal('')])),
		ends_at: z.nullable(z.union([DateTime, z.literal('')]))
	})
);
export const TipGoalAddRequest = z.looseObject({ amount: z.number() });
export const TipGoalAddBody = z.extend(Success, { tip_goal: TipGoal });

// --- Tipping ---

export const TippingBody = z.looseObject({ accepting: z.boolean() });
export const TippingChangeBody = z.extend(Success, { accepting: z.boolean() });
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
