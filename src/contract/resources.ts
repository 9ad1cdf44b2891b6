// Resources of service-api.md (Resources and their fields) and the records CONTRACT.md fixes.
import { z } from 'zod';
import { CounterName, DateTime, OrderId, OverlayId, Platform, Url } from './common.ts';

// --- Identity (GET /me) ---

export const Tenant = z.looseObject({
	id: z.string(),
	name: z.string(),
	/** ISO 4217 code of the tip currency. */
	currency: z.string(),
	/** Display symbol; use it when rendering `amount` fields. */
	currency_symbol: z.string()
});
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
	credential: z.literal('oauth').optional(),
	oauth: z
		.looseObject({
			client_id: z.string(),
			authorization_id: z.string().startsWith('oa_')
		})
		.optional()
});
export type Me = z.infer<typeof Me>;

// --- Tips ---

/** Item of the pending TTS queue; also the tip returned by start. */
export const QueueTip = z.looseObject({
	order_id: OrderId,
	name: z.string(),
	amount: z.number().nullable(),
	message: z.string().nullable(),
	/** Pre-rendered audio; null until rendering completes (then `tip.tts_ready`). */
	tts_url: Url.nullable(),
	is_replay: z.boolean(),
	is_sub_reward: z.boolean(),
	/** stripe, paypal, manual, api, sub_reward, replay, test, one integration value, or unknown. */
	source: z.string(),
	external_source: z.string().nullable(),
	external_ref: z.string().nullable(),
	/** Real money changed hands; only paid tips count toward totals and goals. */
	is_paid: z.boolean(),
	platform: Platform.nullable(),
	platform_user_id: z.string().nullable(),
	name_was_filtered: z.boolean(),
	message_was_filtered: z.boolean(),
	queued_at: DateTime
});
export type QueueTip = z.infer<typeof QueueTip>;

export const HistoryTip = QueueTip.extend({ played_at: DateTime });
export type HistoryTip = z.infer<typeof HistoryTip>;

// --- Media ---

export const QueueMediaItem = z.looseObject({
	order_id: OrderId,
	donor_name: z.string(),
	media_url: Url,
	/** Start offset in seconds. */
	media_start_time: z.number().int(),
	video_title: z.string().nullable(),
	video_thumbnail: Url.nullable(),
	/** Seconds; 0 means unknown. */
	video_duration: z.number().int(),
	/** Video platform label. */
	platform: z.string(),
	/** tip, chat, admin, channel_point, and possibly others. */
	requested_via: z.string(),
	is_replay: z.boolean(),
	queued_at: DateTime
});
export type QueueMediaItem = z.infer<typeof QueueMediaItem>;

export const HistoryMediaItem = QueueMediaItem.extend({ played_at: DateTime });
export type HistoryMediaItem = z.infer<typeof HistoryMediaItem>;

// --- Viewers ---

export const LinkedAccount = z.looseObject({
	platform: Platform,
	platform_user_id: z.string(),
	login: z.string().nullable(),
	display_name: z.string().nullable()
});

export const Viewer = z.looseObject({
	platform: Platform,
	platform_user_id: z.string(),
	login: z.string().nullable(),
	display_name: z.string().nullable(),
	profile_image_url: Url.nullable(),
	/** 0, 1, 2 or 3 as last seen; 0 = not subscribed. */
	subscriber_tier: z.number().int().min(0).max(3),
	first_signed_in_at: DateTime,
	last_active_at: DateTime,
	/** The person's OTHER platform accounts, never the one above. */
	linked_accounts: z.array(LinkedAccount)
});
export type Viewer = z.infer<typeof Viewer>;

export const CreditBalance = z.looseObject({
	available: z.number().int(),
	total: z.number().int(),
	used: z.number().int()
});

/** Inside GET /viewers/{user}: `pending` gift-sub credits are in neither total nor available. */
export const CreditDetail = CreditBalance.extend({ pending: z.number().int() });

export const Grant = z.looseObject({
	platform: Platform,
	platform_user_id: z.string(),
	/** sub_tier1, sub_tier2, sub_tier3, gift_sub, manual. */
	source: z.string(),
	credits: z.number().int(),
	credits_used: z.number().int(),
	awarded_at: DateTime
});

export const Usage = z.looseObject({
	total_used: z.number().int(),
	queued: z.number().int(),
	played: z.number().int(),
	last_used_at: DateTime.nullable()
});

// --- Chat automation ---

export const ChatTimer = z.looseObject({
	id: z.string().startsWith('tmr_'),
	name: z.string().max(64),
	message: z.string().max(2500),
	interval_minutes: z.number().int().min(1).max(1440),
	interval_max_minutes: z.number().int().min(1).max(1440).nullable(),
	min_chat_lines: z.number().int().min(0).max(1000),
	live_only: z.boolean(),
	platforms: z.array(z.string()),
	enabled: z.boolean(),
	created_at: DateTime,
	updated_at: DateTime
});

export const CustomCommand = z.looseObject({
	name: z
		.string()
		.max(50)
		.regex(/^[a-z0-9_-]+$/),
	response: z.string().max(2500),
	description: z.string().max(200).nullable(),
	listed: z.boolean(),
	ai_memory: z.boolean(),
	ai_memory_shared: z.boolean(),
	platforms: z.array(z.string()),
	permission: z.string(),
	cooldown_seconds: z.number().int().min(0).max(3600),
	cooldown_type: z.string(),
	aliases: z.array(z.string()).max(10),
	enabled: z.boolean(),
	created_at: DateTime,
	updated_at: DateTime
});

export const WebhookEndpoint = z.looseObject({
	id: z.string().startsWith('we_'),
	url: Url,
	description: z.string().nullable(),
	events: z.array(z.string()),
	is_active: z.boolean(),
	disabled_reason: z.string().nullable(),
	consecutive_failures: z.number().int(),
	last_success_at: DateTime.nullable(),
	last_failure_at: DateTime.nullable(),
	created_at: DateTime
});

// --- Actor (who made an API-driven change) ---

export const OAuthActor = z.looseObject({
	type: z.literal('oauth_app'),
	id: z.string(),
	name: z.string(),
	authorization_id: z.string()
});

/** CONTRACT.md: the actor of an API-key call. */
export const ApiKeyActor = z.looseObject({
	type: z.literal('api_key'),
	id: z.string(),
	name: z.string()
});

/** Lenient: an actor of another type still parses. */
export const Actor = z.union([OAuthActor, ApiKeyActor, z.looseObject({ type: z.string() })]);
export type Actor = z.infer<typeof Actor>;

// --- Counters, overlays, tip goals (CONTRACT.md, Records) ---

export const Counter = z.looseObject({
	name: CounterName,
	value: z.number().int(),
	created_at: DateTime,
	updated_at: DateTime
});
export type Counter = z.infer<typeof Counter>;

export const WIDGET_TYPES = ['tts', 'media', 'tip_goal', 'counter', 'celebration'] as const;

export const OverlayWidget = z.looseObject({
	id: z.string(),
	/** tts, media, tip_goal, counter, celebration; an unknown type parses and is left out. */
	type: z.string(),
	/** Free-form per type; `counter` widgets may name `{ name }`. */
	settings: z.record(z.string(), z.unknown())
});
export type OverlayWidget = z.infer<typeof OverlayWidget>;

export const Overlay = z.looseObject({
	id: OverlayId,
	name: z.string(),
	width: z.number().int().positive(),
	height: z.number().int().positive(),
	widgets: z.array(OverlayWidget)
});
export type Overlay = z.infer<typeof Overlay>;

/** The settable fields of a tip goal (service-api.md, Tip goal). */
export const TipGoalFields = z.looseObject({
	enabled: z.boolean(),
	title: z.string().max(80),
	amount: z.number().min(0).max(1_000_000),
	starts_at: DateTime.nullable(),
	ends_at: DateTime.nullable()
});

/** CONTRACT.md: plus `current`, paid tips inside [starts_at, ends_at] plus added amounts. */
export const TipGoal = TipGoalFields.extend({ current: z.number() });
export type TipGoal = z.infer<typeof TipGoal>;

// --- Tipping ---

export const LeaderboardEntry = z.looseObject({
	name: z.string(),
	platform: Platform.nullable(),
	platform_user_id: z.string().nullable(),
	total: z.number(),
	tips: z.number().int()
});

export const AiVoice = z.looseObject({ id: z.string(), enabled: z.boolean() });
