// One handler per route of the contract's route table: turn a validated request into a model call
// and the documented response body. Credentials, rate limits and validation happen before this.
import {
	EVENT_DESCRIPTIONS,
	SCOPES,
	type Actor,
	type CommandCreateRequest,
	type RouteName,
	type WebhookEndpointRequest
} from '../contract/index.ts';
import type { ApiKey } from './auth.ts';
import type { SimCore } from './core.ts';
import { badRequest } from './errors.ts';
import type { QueueName } from './model/model.ts';

export interface HandlerInput {
	params: Record<string, string>;
	query: Record<string, unknown>;
	body: Record<string, unknown>;
	key: ApiKey;
	actor: Actor;
}

type Handler = (core: SimCore, input: HandlerInput) => unknown;

const SCOPE_TEXT: Record<string, string> = {
	'tts:read': 'TTS queue and played history, including messages and audio URLs',
	'tips:create': 'create tips the service did not take payment for',
	'tts:control': 'pause, resume, skip, clear, remove, replay, and drive playback of the TTS queue',
	'media:read': 'media queue, played-media history, live playback status',
	'media:control': 'pause, resume, skip the media queue, queue videos, show/hide the player',
	'tipping:control': 'open and close tipping',
	'viewers:read': 'signed-in viewers, sub tiers, credit balances, past sub-reward messages',
	'viewers:manage': 'grant and revoke sub-reward credits',
	'channel_points:manage': 'fulfill or cancel redemptions of managed rewards',
	'webhooks:manage': 'manage webhook endpoints',
	'timers:manage': 'create, update, enable/disable, delete chat timers',
	'counters:manage': 'create, read, set, increment, delete counters',
	'chat:write': "send messages to the streamer's chat",
	'commands:manage': 'create, update, enable/disable, delete custom commands',
	'overlays:manage': 'list and delete overlays, reload, celebrate, read/update/add to tip goals',
	'ai_voices:manage': 'read the voice catalog and usage, toggle voices'
};

const dateOrNull = (v: unknown): string | null => (v === '' || v == null ? null : String(v));

/**
 * The claim and control routes of one queue, the same for TTS and media; `key` names the item in
 * the bodies (`tip` or `media`).
 */
function queueHandlers(q: QueueName, key: 'tip' | 'media') {
	return {
		start: ({ model }, { params, actor }) => ({
			success: true,
			[key]: model.start(q, params.orderId, actor)
		}),
		finish: ({ model }, { params, actor }) => ({
			success: true,
			[key]: model.finish(q, params.orderId, actor)
		}),
		release: ({ model }, { params, actor }) => {
			const { released, item } = model.release(q, params.orderId, actor);
			return { success: true, released, [key]: item };
		},
		pause: ({ model }, { actor }) => ({
			success: true,
			is_paused: model.setPaused(q, true, actor)
		}),
		resume: ({ model }, { actor }) => ({
			success: true,
			is_paused: model.setPaused(q, false, actor)
		}),
		skip: ({ model }, { actor }) => ({ success: true, order_id: model.skip(q, actor) }),
		remove: ({ model }, { params, actor }) => {
			model.remove(q, params.orderId, actor);
			return { success: true };
		}
	} satisfies Record<string, Handler>;
}
const tts = queueHandlers('tts', 'tip');
const media = queueHandlers('media', 'media');

export const HANDLERS: Record<RouteName, Handler> = {
	me: (core, { key }) => ({
		tenant: core.model.tenant,
		key: { id: key.id, name: key.name, scopes: key.scopes },
		...(key.oauth
			? {
					credential: 'oauth',
					oauth: { client_id: key.oauth.clientId, authorization_id: key.oauth.authorizationId }
				}
			: {})
	}),
	events: () => ({
		events: EVENT_DESCRIPTIONS,
		scopes: Object.fromEntries(SCOPES.map((s) => [s, SCOPE_TEXT[s] ?? s]))
	}),
	realtimeToken: (core, { key }) => core.credentials.mintHandoff(key),

	ttsQueue: ({ model }) => ({
		is_paused: model.tts.paused,
		currently_playing: model.tts.current !== null,
		current_order_id: model.tts.current,
		items: model.tts.items
	}),
	ttsHistory: ({ model }, { query }) => {
		const page = model.tts.page((query.limit as number) ?? 25, query.before as string | undefined);
		return { tips: page.rows, has_more: page.has_more, next_cursor: page.next_cursor };
	},
	ttsStart: tts.start,
	ttsFinish: tts.finish,
	ttsRelease: tts.release,
	ttsPause: tts.pause,
	ttsResume: tts.resume,
	ttsSkip: tts.skip,
	ttsClear: ({ model }, { actor }) => {
		model.ttsClear(actor);
		return { success: true };
	},
	ttsRemove: tts.remove,
	ttsReplay: ({ model }, { params, actor }) => ({
		success: true,
		tip: model.ttsReplay(params.orderId, actor)
	}),

	mediaQueue: ({ model }) => ({
		is_paused: model.media.paused,
		visible: model.mediaVisible,
		currently_playing: model.media.current !== null,
		current_order_id: model.media.current,
		items: model.media.items
	}),
	mediaStatus: ({ model }) => ({
		is_paused: model.media.paused,
		visible: model.mediaVisible,
		currently_playing: model.media.current !== null,
		current_order_id: model.media.current
	}),
	mediaHistory: ({ model }, { query }) => {
		const page = model.media.page(
			(query.limit as number) ?? 25,
			query.before as string | undefined
		);
		return { media: page.rows, has_more: page.has_more, next_cursor: page.next_cursor };
	},
	mediaStart: media.start,
	mediaFinish: media.finish,
	mediaRelease: media.release,
	mediaPause: media.pause,
	// docs/upstream.md gives POST /media/resume a body of `success` only (unlike POST /media/pause
	// and the TTS pair of docs/upstream.md): emitted strictly, so no consumer comes to rely on more.
	mediaResume: ({ model }, { actor }) => {
		model.setPaused('media', false, actor);
		return { success: true };
	},
	mediaSkip: media.skip,
	mediaRemove: media.remove,
	mediaVisibility: ({ model }, { body, actor }) => ({
		success: true,
		visible: model.mediaSetVisible(body.visible as boolean, actor)
	}),
	mediaEnqueue: (core, { body, actor }) => ({
		media: core.model.enqueueMedia(
			{
				url: body.url as string,
				start_time: body.start_time as number | undefined,
				...core.videoInfo(body.url as string)
			},
			core.model.tenant.name,
			actor
		)
	}),

	countersList: ({ model }) => ({ counters: [...model.counters.values()] }),
	counterRead: ({ model }, { params }) => ({ counter: model.counter(params.name) }),
	counterCreate: ({ model }, { body, actor }) => ({
		counter: model.createCounter(body.name as string, (body.value as number) ?? 0, actor)
	}),
	counterSet: ({ model }, { params, body, actor }) => ({
		counter: model.setCounter(params.name, body.value as number, actor)
	}),
	counterIncrement: ({ model }, { params, body, actor }) => ({
		counter: model.incrementCounter(params.name, (body.by as number) ?? 1, actor)
	}),
	counterDelete: ({ model }, { params, actor }) => {
		model.deleteCounter(params.name, actor);
		return { success: true };
	},

	overlaysList: ({ model }) => ({ overlays: model.overlayList() }),
	overlayRead: ({ model }, { params }) => ({ overlay: model.overlay(params.overlayId).overlay }),
	overlayDelete: ({ model }, { params }) => {
		model.deleteOverlay(params.overlayId);
		return { success: true };
	},
	overlayReload: ({ model }, { params, actor }) => {
		model.reloadOverlay(params.overlayId, actor);
		return { success: true };
	},
	celebration: ({ model }, { body, actor }) => {
		model.celebrate(
			(body.overlay_id as string | null | undefined) ?? null,
			(body.widget_id as string | null | undefined) ?? null,
			actor
		);
		return { success: true };
	},
	tipGoalRead: ({ model }, { params }) => ({ tip_goal: model.tipGoal(params.overlayId) }),
	tipGoalUpdate: ({ model }, { params, body, actor }) => {
		const patch: Record<string, unknown> = {};
		for (const f of ['enabled', 'title', 'amount'] as const) if (f in body) patch[f] = body[f];
		for (const f of ['starts_at', 'ends_at'] as const)
			if (f in body) patch[f] = dateOrNull(body[f]);
		const goal = { ...model.tipGoal(params.overlayId), ...patch };
		if (goal.starts_at && goal.ends_at && Date.parse(goal.starts_at) > Date.parse(goal.ends_at))
			throw badRequest('ends_at: must not be before starts_at');
		model.updateTipGoal(params.overlayId, patch, actor);
		return { success: true };
	},
	tipGoalAdd: ({ model }, { params, body, actor }) => ({
		success: true,
		tip_goal: model.addToTipGoal(params.overlayId, body.amount as number, actor)
	}),

	chatSend: (core, { body, key }) => {
		core
			.chatOf(core.model.tenant.id)
			.send(
				body.message as string,
				(body.platform as 'twitch' | 'kick' | 'all' | undefined) ?? 'all',
				{ id: key.id, name: key.name }
			);
		return { success: true };
	},

	commandsList: (core) => ({ commands: core.commandsOf(core.model.tenant.id).list() }),
	commandCreate: (core, { body }) => ({
		command: core.commandsOf(core.model.tenant.id).create(body as CommandCreateRequest)
	}),
	commandDelete: (core, { params }) => {
		core.commandsOf(core.model.tenant.id).delete(params.commandName);
		return { success: true };
	},

	tipping: ({ model }) => ({ accepting: model.accepting }),
	tippingOpen: ({ model }, { actor }) => ({
		success: true,
		accepting: model.setAccepting(true, actor)
	}),
	tippingClose: ({ model }, { actor }) => ({
		success: true,
		accepting: model.setAccepting(false, actor)
	}),
	leaderboard: ({ model }, { query }) => ({
		supporters: model.leaderboard((query.limit as number) ?? 10)
	}),
	// Accepted while tipping is closed. docs/upstream.md: tips:create creates "tips the service did
	// not take payment for", and closing tipping "stops new checkouts": an API tip is no checkout
	// (the money, if any, moved elsewhere: `paid`, `external_ref`), as a manual tip from the
	// dashboard is none. Only viewers' tips through the tip page (model.checkout) are refused.
	createTip: ({ model }, { body, actor }) => ({
		tip: model.createTip(
			{
				name: body.name as string,
				amount: body.amount as number,
				message: (body.message as string | null | undefined) ?? null,
				source: 'api',
				external_source: (body.source as string | undefined) ?? null,
				external_ref: (body.external_ref as string | undefined) ?? null,
				paid: body.paid === true
			},
			actor
		)
	}),
	webhookCreate: (core, { body }) =>
		core.webhooks.create(core.model.tenant.id, body as WebhookEndpointRequest),
	webhookList: (core) => ({ endpoints: core.webhooks.list(core.model.tenant.id) }),
	webhookRead: (core, { params }) => ({
		endpoint: core.webhooks.get(core.model.tenant.id, params.endpointId)
	}),
	webhookDelete: (core, { params }) => {
		core.webhooks.remove(core.model.tenant.id, params.endpointId);
		return { success: true };
	}
};
