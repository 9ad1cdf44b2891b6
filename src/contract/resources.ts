// The upstream's resources and records as the kit reads them (docs/upstream.md).
import { z } from 'zod/mini';
// `/*@__PURE__*/` before `z.x().check(...)`: zod's functions are marked pure but `.check` is a
// method call the bundler must keep, with the schema and the checks it builds; marked, a page drops
// the schemas it does not use.
// A record that adds fields to another is `withFields(otherShape, { ... })` (common.ts), the
// other's fields kept as a plain shape: the same schema as `z.extend`, lighter on every page.
import { CounterName, DateTime, OrderId, OverlayId, Platform, Url, withFields } from './common.ts';
import { TipModeration } from './moderation.ts';

// --- Identity (GET /me) ---

const tenantCurrencyShape = {
	/** ISO 4217 code of the tip currency. */
	currency: z.string(),
	/** Display symbol; use it when rendering `amount` fields. */
	currency_symbol: z.string()
};

export const Tenant = z.looseObject({ id: z.string(), name: z.string(), ...tenantCurrencyShape });
export type Tenant = z.infer<typeof Tenant>;

export const KeyInfo = z.looseObject({
	id: z.string(),
	name: z.string(),
	scopes: z.array(z.string())
});

export const Me = z.looseObject({
	tenant: Tenant,
	key: KeyInfo,
	/** Present for OAuth access tokens, value `oauth`. */
	credential: z.optional(z.literal('oauth')),
	oauth: z.optional(
		z.looseObject({
			client_id: z.string(),
			authorization_id: /*@__PURE__*/ z.string().check(z.regex(/^oa_/))
		})
	)
});
export type Me = z.infer<typeof Me>;

/**
 * GET /me as the widgets read it: the tenant's currency, the only part they show. A page parses
 * only what it reads; the other fields pass through unchecked (the token endpoint and the
 * preview, which show more, parse the whole `Me`).
 */
export const MeCurrency = z.looseObject({ tenant: z.looseObject(tenantCurrencyShape) });

// --- Tips ---

/** Item of the pending TTS queue; also the tip returned by start. */
const queueTipShape = {
	order_id: OrderId,
	name: z.string(),
	amount: z.nullable(z.number()),
	message: z.nullable(z.string()),
	/** Pre-rendered audio; null until rendering completes (then `tip.tts_ready`). */
	tts_url: z.nullable(Url),
	is_replay: z.boolean(),
	is_sub_reward: z.boolean(),
	/** stripe, paypal, manual, api, sub_reward, replay, test, one integration value, or unknown. */
	source: z.string(),
	external_source: z.nullable(z.string()),
	external_ref: z.nullable(z.string()),
	/** Real money changed hands; only paid tips count toward totals and goals. */
	is_paid: z.boolean(),
	platform: z.nullable(Platform),
	platform_user_id: z.nullable(z.string()),
	name_was_filtered: z.boolean(),
	message_was_filtered: z.boolean(),
	queued_at: DateTime,
	/** Ours: the token endpoint's moderation decision (moderation.ts); never from the upstream. */
	moderation: z.optional(TipModeration)
};
export const QueueTip = z.looseObject(queueTipShape);
export type QueueTip = z.infer<typeof QueueTip>;

export const HistoryTip = withFields(queueTipShape, { played_at: DateTime });
export type HistoryTip = z.infer<typeof HistoryTip>;

// --- Media ---

const queueMediaItemShape = {
	order_id: OrderId,
	donor_name: z.string(),
	media_url: Url,
	/** Start offset in seconds. */
	media_start_time: z.int(),
	video_title: z.nullable(z.string()),
	video_thumbnail: z.nullable(Url),
	/** Seconds; 0 means unknown. */
	video_duration: z.int(),
	/** Video platform label. */
	platform: z.string(),
	/** tip, chat, admin, channel_point, and possibly others. */
	requested_via: z.string(),
	is_replay: z.boolean(),
	queued_at: DateTime,
	/** Ours: the token endpoint's moderation decision (moderation.ts); never from the upstream. */
	moderation: z.optional(TipModeration)
};
export const QueueMediaItem = z.looseObject(queueMediaItemShape);
export type QueueMediaItem = z.infer<typeof QueueMediaItem>;

export const HistoryMediaItem = withFields(queueMediaItemShape, { played_at: DateTime });
export type HistoryMediaItem = z.infer<typeof HistoryMediaItem>;

// --- Viewers ---

const linkedAccountShape = {
	platform: Platform,
	platform_user_id: z.string(),
	login: z.nullable(z.string()),
	display_name: z.nullable(z.string())
};
export const LinkedAccount = z.looseObject(linkedAccountShape);

export const Viewer = withFields(linkedAccountShape, {
	profile_image_url: z.nullable(Url),
	/** 0, 1, 2 or 3 as last seen; 0 = not subscribed. */
	subscriber_tier: /*@__PURE__*/ z.int().check(z.gte(0), z.lte(3)),
	first_signed_in_at: DateTime,
	last_active_at: DateTime,
	/** The person's OTHER platform accounts, never the one above. */
	linked_accounts: z.array(LinkedAccount)
});
export type Viewer = z.infer<typeof Viewer>;

const creditBalanceShape = {
	available: z.int(),
	total: z.int(),
	used: z.int()
};
export const CreditBalance = z.looseObject(creditBalanceShape);

/** Inside GET /viewers/{user}: `pending` gift-sub credits are in neither total nor available. */
export const CreditDetail = withFields(creditBalanceShape, { pending: z.int() });

export const Grant = z.looseObject({
	platform: Platform,
	platform_user_id: z.string(),
	/** sub_tier1, sub_tier2, sub_tier3, gift_sub, manual. */
	source: z.string(),
	credits: z.int(),
	credits_used: z.int(),
	awarded_at: DateTime
});

export const Usage = z.looseObject({
	total_used: z.int(),
	queued: z.int(),
	played: z.int(),
	last_used_at: z.nullable(DateTime)
});

// --- Chat automation ---

export const ChatTimer = z.looseObject({
	id: /*@__PURE__*/ z.string().check(z.regex(/^tmr_/)),
	name: /*@__PURE__*/ z.string().check(z.maxLength(64)),
	message: /*@__PURE__*/ z.string().check(z.maxLength(2500)),
	interval_minutes: /*@__PURE__*/ z.int().check(z.gte(1), z.lte(1440)),
	interval_max_minutes: z.nullable(/*@__PURE__*/ z.int().check(z.gte(1), z.lte(1440))),
	min_chat_lines: /*@__PURE__*/ z.int().check(z.gte(0), z.lte(1000)),
	live_only: z.boolean(),
	platforms: z.array(z.string()),
	enabled: z.boolean(),
	created_at: DateTime,
	updated_at: DateTime
});

export const CustomCommand = z.looseObject({
	name: /*@__PURE__*/ z.string().check(z.maxLength(50), z.regex(/^[a-z0-9_-]+$/)),
	response: /*@__PURE__*/ z.string().check(z.maxLength(2500)),
	description: z.nullable(/*@__PURE__*/ z.string().check(z.maxLength(200))),
	listed: z.boolean(),
	ai_memory: z.boolean(),
	ai_memory_shared: z.boolean(),
	platforms: z.array(z.string()),
	permission: z.string(),
	cooldown_seconds: /*@__PURE__*/ z.int().check(z.gte(0), z.lte(3600)),
	cooldown_type: z.string(),
	aliases: /*@__PURE__*/ z.array(z.string()).check(z.maxLength(10)),
	enabled: z.boolean(),
	created_at: DateTime,
	updated_at: DateTime
});
export type CustomCommand = z.infer<typeof CustomCommand>;

export const WebhookEndpoint = z.looseObject({
	id: /*@__PURE__*/ z.string().check(z.regex(/^we_/)),
	url: Url,
	description: z.nullable(z.string()),
	events: z.array(z.string()),
	is_active: z.boolean(),
	disabled_reason: z.nullable(z.string()),
	consecutive_failures: z.int(),
	last_success_at: z.nullable(DateTime),
	last_failure_at: z.nullable(DateTime),
	created_at: DateTime
});

// --- Actor (who made an API-driven change) ---

export const OAuthActor = z.looseObject({
	type: z.literal('oauth_app'),
	id: z.string(),
	name: z.string(),
	authorization_id: z.string()
});

/** The actor of an API-key call (docs/upstream.md). */
export const ApiKeyActor = z.looseObject({
	type: z.literal('api_key'),
	id: z.string(),
	name: z.string()
});

/** Lenient: an actor of another type still parses. */
export const Actor = z.union([OAuthActor, ApiKeyActor, z.looseObject({ type: z.string() })]);
export type Actor = z.infer<typeof Actor>;

// --- Counters, overlays, tip goals (docs/upstream.md) ---

export const Counter = z.looseObject({
	name: CounterName,
	value: z.int(),
	created_at: DateTime,
	updated_at: DateTime
});
export type Counter = z.infer<typeof Counter>;

export const WIDGET_TYPES = ['tts', 'media', 'tip_goal', 'counter', 'celebration'] as const;

export const OverlayWidget = z.looseObject({
	id: z.string(),
	/** tts, media, tip_goal, counter, celebration; an unknown type parses and is left out. */
	type: z.string(),
	/** Free-form per type; `counter` widgets may name `{ name }`. Any JSON object (see EventEnvelope's data). */
	settings: z.looseObject({})
});
export type OverlayWidget = z.infer<typeof OverlayWidget>;

export const Overlay = z.looseObject({
	id: OverlayId,
	name: z.string(),
	width: /*@__PURE__*/ z.int().check(z.positive()),
	height: /*@__PURE__*/ z.int().check(z.positive()),
	widgets: z.array(OverlayWidget)
});
export type Overlay = z.infer<typeof Overlay>;

/** The settable fields of a tip goal (docs/upstream.md, tip goal). */
export const tipGoalFieldsShape = {
	enabled: z.boolean(),
	title: /*@__PURE__*/ z.string().check(z.maxLength(80)),
	amount: /*@__PURE__*/ z.number().check(z.gte(0), z.lte(1_000_000)),
	starts_at: z.nullable(DateTime),
	ends_at: z.nullable(DateTime)
};
export const TipGoalFields = z.looseObject(tipGoalFieldsShape);

/** docs/upstream.md: plus `current`, paid tips inside [starts_at, ends_at] plus added amounts. */
export const TipGoal = withFields(tipGoalFieldsShape, { current: z.number() });
export type TipGoal = z.infer<typeof TipGoal>;

// --- Tipping ---

export const LeaderboardEntry = z.looseObject({
	name: z.string(),
	platform: z.nullable(Platform),
	platform_user_id: z.nullable(z.string()),
	total: z.number(),
	tips: z.int()
});

export const AiVoice = z.looseObject({ id: z.string(), enabled: z.boolean() });
