// Example objects written by reading docs/upstream.md and the upstream's API (field tables,
// endpoint descriptions, the event catalog), not by reading the schemas. Each builder returns a
// fresh copy so that a test may change it.

export const T0 = '2026-09-06T12:00:00Z';
export const T1 = '2026-09-06T12:05:30.250+02:00';

const clone = <T>(value: T): T => structuredClone(value);

// --- docs/upstream.md, resources and their fields ---

/** GET /me for an API key: tenant and key. */
export const me = () =>
	clone({
		tenant: { id: 'acct_42', name: 'Ada Streams', currency: 'EUR', currency_symbol: '€' },
		key: { id: 'key_7', name: 'Overlay kit', scopes: ['tts:read', 'tts:control', 'media:read'] }
	});

/** GET /me for an OAuth access token: additionally `credential` and `oauth`. */
export const meOAuth = () =>
	clone({
		...me(),
		credential: 'oauth',
		oauth: { client_id: 'oc_3f9a1b', authorization_id: 'oa_77d0c2' }
	});

/** QueueTip: a card payment from a signed-in Twitch viewer, audio rendered. */
export const queueTip = () =>
	clone({
		order_id: 'tip_1725624000_a1b2c3',
		name: 'Ada',
		amount: 5,
		message: 'Hello stream!',
		tts_url: 'https://cdn.example.com/tts/tip_1725624000_a1b2c3.mp3',
		is_replay: false,
		is_sub_reward: false,
		source: 'stripe',
		external_source: null,
		external_ref: null,
		is_paid: true,
		platform: 'twitch',
		platform_user_id: '123456',
		name_was_filtered: false,
		message_was_filtered: false,
		queued_at: T0
	});

/** QueueTip: a developer-API tip that moved money elsewhere, audio not yet rendered. */
export const apiTip = () =>
	clone({
		...queueTip(),
		order_id: 'tip_1725624001_ffee01',
		tts_url: null,
		source: 'api',
		external_source: 'kofi',
		external_ref: 'kofi_txn_9001',
		platform: null,
		platform_user_id: null
	});

/** QueueTip: every nullable field null (an anonymous manual tip without a message). */
export const bareTip = () =>
	clone({
		...queueTip(),
		order_id: 'tip_1725624002_000001',
		amount: null,
		message: null,
		tts_url: null,
		source: 'manual',
		is_paid: false,
		platform: null,
		platform_user_id: null
	});

/** HistoryTip: all QueueTip fields plus `played_at`. */
export const historyTip = () => clone({ ...queueTip(), played_at: T1 });

/** The source values docs/upstream.md lists for QueueTip.source. */
export const TIP_SOURCES = [
	'stripe',
	'paypal',
	'manual',
	'api',
	'sub_reward',
	'replay',
	'test',
	'streamelements',
	'unknown'
];

/** QueueMediaItem: a YouTube video requested with a tip. */
export const queueMedia = () =>
	clone({
		order_id: 'tip_1725624000_a1b2c3',
		donor_name: 'Ada',
		media_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
		media_start_time: 30,
		video_title: 'A song',
		video_thumbnail: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
		video_duration: 212,
		platform: 'youtube',
		requested_via: 'tip',
		is_replay: false,
		queued_at: T0
	});

/** HistoryMediaItem: all QueueMediaItem fields plus `played_at`. */
export const historyMedia = () => clone({ ...queueMedia(), played_at: T1 });

/** Viewer: signed in with Twitch, with a linked Kick account. */
export const viewer = () =>
	clone({
		platform: 'twitch',
		platform_user_id: '123456',
		login: 'ada',
		display_name: 'Ada',
		profile_image_url: 'https://static-cdn.example.com/ada.png',
		subscriber_tier: 1,
		first_signed_in_at: T0,
		last_active_at: T1,
		linked_accounts: [
			{ platform: 'kick', platform_user_id: '987', login: 'ada_k', display_name: null }
		]
	});

export const creditBalance = () => clone({ available: 3, total: 5, used: 2 });
export const creditDetail = () => clone({ ...creditBalance(), pending: 1 });

export const grant = () =>
	clone({
		platform: 'kick',
		platform_user_id: '987',
		source: 'gift_sub',
		credits: 2,
		credits_used: 1,
		awarded_at: T0
	});

export const usage = () => clone({ total_used: 2, queued: 1, played: 1, last_used_at: T1 });

export const chatTimer = () =>
	clone({
		id: 'tmr_5c1d',
		name: 'Socials',
		message: 'Follow along on {uptime}!',
		interval_minutes: 15,
		interval_max_minutes: 30,
		min_chat_lines: 5,
		live_only: true,
		platforms: ['twitch', 'kick'],
		enabled: true,
		created_at: T0,
		updated_at: T1
	});

export const customCommand = () =>
	clone({
		name: 'discord',
		response: 'Join us, {user}: {pick:a|b|c}',
		description: null,
		listed: true,
		ai_memory: false,
		ai_memory_shared: false,
		platforms: ['twitch', 'kick'],
		permission: 'everyone',
		cooldown_seconds: 0,
		cooldown_type: 'global',
		aliases: ['dc', 'server'],
		enabled: true,
		created_at: T0,
		updated_at: T1
	});

export const webhookEndpoint = () =>
	clone({
		id: 'we_81f0',
		url: 'https://hooks.example.com/tips',
		description: 'Bot relay',
		events: ['*'],
		is_active: true,
		disabled_reason: null,
		consecutive_failures: 0,
		last_success_at: T1,
		last_failure_at: null,
		created_at: T0
	});

/** An endpoint the service disabled after repeated failures. */
export const disabledWebhookEndpoint = () =>
	clone({
		...webhookEndpoint(),
		description: null,
		events: ['tip.created', 'counter.updated'],
		is_active: false,
		disabled_reason: 'too many failed deliveries',
		consecutive_failures: 12,
		last_success_at: null,
		last_failure_at: T1
	});

/** Tip goal: the fields settable on an overlay. */
export const tipGoalFields = () =>
	clone({ enabled: true, title: 'New microphone', amount: 250, starts_at: T0, ends_at: null });

export const oauthActor = () =>
	clone({
		type: 'oauth_app',
		id: 'oc_3f9a1b',
		name: 'Stream Helper',
		authorization_id: 'oa_77d0c2'
	});

// --- docs/upstream.md, records the API document does not detail ---

/** docs/upstream.md: the actor of an API-key call. */
export const apiKeyActor = () => clone({ type: 'api_key', id: 'key_7', name: 'Overlay kit' });

export const counter = () => clone({ name: 'deaths', value: 3, created_at: T0, updated_at: T1 });

export const overlay = () =>
	clone({
		id: 'o_1a2b3c4d',
		name: 'Main scene',
		width: 1920,
		height: 1080,
		widgets: [
			{ id: 'w_tts1', type: 'tts', settings: {} },
			{ id: 'w_media1', type: 'media', settings: {} },
			{ id: 'w_goal1', type: 'tip_goal', settings: {} },
			{ id: 'w_count1', type: 'counter', settings: { name: 'deaths' } },
			{ id: 'w_party1', type: 'celebration', settings: {} }
		]
	});

export const tipGoal = () => clone({ ...tipGoalFields(), current: 120.5 });

/** docs/upstream.md shows only `id` and `enabled` of an AI voice catalog entry. */
export const aiVoice = () => clone({ id: 'voice_nova', enabled: true });

/** docs/upstream.md, GET /leaderboard: one supporter. */
export const supporter = () =>
	clone({ name: 'Ada', platform: 'twitch', platform_user_id: '123456', total: 42.5, tips: 3 });

// --- docs/upstream.md, realtime ---

export const handoffToken = () =>
	clone({ token: 'rth_Zm9vYmFyYmF6', expires_at: T1, expires_in: 60 });

/** An event envelope of docs/upstream.md, realtime WebSocket item 5. */
export const envelope = (type: string, data: Record<string, unknown>, actor?: unknown) =>
	clone({
		id: 'evt_01HZX3Y4',
		type,
		created_at: T0,
		data,
		...(actor === undefined ? {} : { actor })
	});

/** One payload per event type of the docs/upstream.md catalog. */
export const EVENT_PAYLOADS: Record<string, () => Record<string, unknown>> = {
	'tip.created': () => ({ tip: apiTip() }),
	'tip.tts_ready': () => ({
		order_id: 'tip_1725624001_ffee01',
		tts_url: 'https://cdn.example.com/tts/tip_1725624001_ffee01.mp3'
	}),
	'queue.tts.started': () => ({ order_id: queueTip().order_id, tip: queueTip() }),
	'queue.tts.finished': () => ({ order_id: queueTip().order_id, tip: historyTip() }),
	'queue.tts.released': () => ({ order_id: queueTip().order_id }),
	'queue.tts.skipped': () => ({ order_id: queueTip().order_id }),
	'queue.tts.removed': () => ({ order_id: queueTip().order_id }),
	'queue.tts.replayed': () => ({
		tip: { ...queueTip(), order_id: 'tip_1725624999_beef00', is_replay: true, source: 'replay' }
	}),
	'queue.tts.paused': () => ({ is_paused: true }),
	'queue.tts.resumed': () => ({ is_paused: false }),
	'queue.tts.cleared': () => ({}),
	'queue.media.added': () => ({ media: queueMedia() }),
	'queue.media.started': () => ({ order_id: queueMedia().order_id, media: queueMedia() }),
	'queue.media.finished': () => ({ order_id: queueMedia().order_id, media: historyMedia() }),
	'queue.media.released': () => ({ order_id: queueMedia().order_id }),
	'queue.media.skipped': () => ({ order_id: queueMedia().order_id }),
	'queue.media.removed': () => ({ order_id: queueMedia().order_id }),
	'queue.media.paused': () => ({ is_paused: true }),
	'queue.media.resumed': () => ({ is_paused: false }),
	'queue.media.visibility': () => ({ visible: false }),
	'counter.updated': () => ({ counter: counter(), previous: 2 }),
	'counter.deleted': () => ({ name: 'deaths' }),
	'overlay.celebration': () => ({ overlay_id: 'o_1a2b3c4d', widget_id: 'w_party1' }),
	'overlay.reload': () => ({ overlay_id: 'o_1a2b3c4d' }),
	'overlay.tip_goal.updated': () => ({ overlay_id: 'o_1a2b3c4d', tip_goal: tipGoal() }),
	'tipping.opened': () => ({}),
	'tipping.closed': () => ({})
};

/** The scope docs/upstream.md names for each event type (null: any credential). */
export const EVENT_SCOPES: Record<string, string | null> = {
	'tip.created': 'tts:read',
	'tip.tts_ready': 'tts:read',
	'queue.tts.started': 'tts:read',
	'queue.tts.finished': 'tts:read',
	'queue.tts.released': 'tts:read',
	'queue.tts.skipped': 'tts:read',
	'queue.tts.removed': 'tts:read',
	'queue.tts.replayed': 'tts:read',
	'queue.tts.paused': 'tts:read',
	'queue.tts.resumed': 'tts:read',
	'queue.tts.cleared': 'tts:read',
	'queue.media.added': 'media:read',
	'queue.media.started': 'media:read',
	'queue.media.finished': 'media:read',
	'queue.media.released': 'media:read',
	'queue.media.skipped': 'media:read',
	'queue.media.removed': 'media:read',
	'queue.media.paused': 'media:read',
	'queue.media.resumed': 'media:read',
	'queue.media.visibility': 'media:read',
	'counter.updated': 'counters:manage',
	'counter.deleted': 'counters:manage',
	'overlay.celebration': 'overlays:manage',
	'overlay.reload': 'overlays:manage',
	'overlay.tip_goal.updated': 'overlays:manage',
	'tipping.opened': null,
	'tipping.closed': null
};

/** Event types docs/upstream.md names that the event catalog leaves out. */
export const OTHER_NAMED_EVENTS = ['chat.command', 'twitch.channel_point_redemption'];
