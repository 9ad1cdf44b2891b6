// Request and response bodies of the endpoints this project uses (service-api.md, Endpoints;
// CONTRACT.md, Endpoints that service-api.md does not show).
import { z } from 'zod';
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

export const TtsQueueBody = z.looseObject({
	is_paused: z.boolean(),
	currently_playing: z.boolean(),
	current_order_id: OrderId.nullable(),
	/** Oldest first. */
	items: z.array(QueueTip)
});
export type TtsQueueBody = z.infer<typeof TtsQueueBody>;

export const TtsStartBody = Success.extend({ tip: QueueTip });
export const TtsFinishBody = Success.extend({ tip: HistoryTip });
export const TtsReleaseBody = Success.extend({ released: z.boolean(), tip: QueueTip.nullable() });
export const PausedBody = Success.extend({ is_paused: z.boolean() });
export const SkipBody = Success.extend({ order_id: OrderId.nullable() });
export const TtsReplayBody = Success.extend({ tip: QueueTip });

/**
 * A cursor page, most recent first; `before` takes an order id from `next_cursor`. Any string is
 * accepted here: an empty, malformed or unknown cursor is the server's 400 `bad_cursor`
 * (service-api.md, Errors), not a generic `bad_request`.
 */
export const HistoryQuery = z.looseObject({
	limit: z.coerce.number().int().min(1).max(100).optional(),
	before: z.string().optional()
});
export const TtsHistoryBody = z.looseObject({
	tips: z.array(HistoryTip),
	has_more: z.boolean(),
	next_cursor: z.string().nullable()
});

// --- Media ---

export const MediaQueueBody = z.looseObject({
	is_paused: z.boolean(),
	/** Whether the player shows on the overlay. */
	visible: z.boolean(),
	currently_playing: z.boolean(),
	current_order_id: OrderId.nullable(),
	items: z.array(QueueMediaItem)
});
export type MediaQueueBody = z.infer<typeof MediaQueueBody>;

export const MediaStartBody = Success.extend({ media: QueueMediaItem });
export const MediaFinishBody = Success.extend({ media: HistoryMediaItem });
/** `media` content when `released` is false is left open by service-api.md: lenient. */
export const MediaReleaseBody = Success.extend({
	released: z.boolean(),
	media: QueueMediaItem.nullable().optional()
});
/**
 * service-api.md gives POST /media/resume a 200 of `success` only (unlike the TTS resume of
 * CONTRACT.md), so `is_paused` is optional here; the simulator sends it anyway.
 */
export const MediaResumeBody = Success.extend({ is_paused: z.boolean().optional() });
export const MediaStatusBody = z.looseObject({
	is_paused: z.boolean(),
	visible: z.boolean(),
	currently_playing: z.boolean(),
	current_order_id: OrderId.nullable()
});
export const MediaVisibilityRequest = z.looseObject({ visible: z.boolean() });
export const MediaVisibilityBody = Success.extend({ visible: z.boolean() });
export const MediaQueueRequest = z.looseObject({
	url: z.url(),
	start_time: z.number().int().min(0).optional()
});
export const MediaQueuedBody = z.looseObject({ media: QueueMediaItem });
export const MediaHistoryBody = z.looseObject({
	media: z.array(HistoryMediaItem),
	has_more: z.boolean(),
	next_cursor: z.string().nullable()
});

// --- Counters ---

export const CountersBody = z.looseObject({ counters: z.array(Counter) });
export const CounterBody = z.looseObject({ counter: Counter });
export const CounterCreateRequest = z.looseObject({
	name: CounterName,
	value: z.number().int().optional()
});
export const CounterSetRequest = z.looseObject({ value: z.number().int() });
export const CounterIncrementRequest = z.looseObject({ by: z.number().int().optional() });

// --- Overlays ---

export const OverlaysBody = z.looseObject({ overlays: z.array(Overlay) });
export const OverlayBody = z.looseObject({ overlay: Overlay });
export const CelebrationRequest = z.looseObject({
	overlay_id: OverlayId.nullable().optional(),
	widget_id: z.string().nullable().optional()
});
export const TipGoalBody = z.looseObject({ tip_goal: TipGoal });
/** PATCH: any subset; null or empty string clears a date. */
export const TipGoalPatchRequest = TipGoalFields.extend({
	starts_at: z.union([DateTime, z.literal('')]).nullable(),
	ends_at: z.union([DateTime, z.literal('')]).nullable()
}).partial();
export const TipGoalAddRequest = z.looseObject({ amount: z.number().finite() });
export const TipGoalAddBody = Success.extend({ tip_goal: TipGoal });

// --- Tipping ---

export const TippingBody = z.looseObject({ accepting: z.boolean() });
export const TippingChangeBody = Success.extend({ accepting: z.boolean() });
export const LeaderboardBody = z.looseObject({ supporters: z.array(LeaderboardEntry) });
export const LeaderboardQuery = z.looseObject({
	limit: z.coerce.number().int().min(1).max(100).optional()
});
export const CreateTipRequest = z.looseObject({
	name: z.string().min(1).max(100),
	amount: z.number().finite().min(0),
	message: z.string().max(1000).nullable().optional(),
	/** Labels the origin; reports group by it. */
	source: z.string().max(64).optional(),
	/** Money really moved elsewhere, so it counts as revenue. */
	paid: z.boolean().optional(),
	external_ref: z.string().max(200).optional()
});
export type CreateTipRequest = z.infer<typeof CreateTipRequest>;
export const CreateTipBody = z.looseObject({ tip: QueueTip });

export const SuccessBody = Success;
