// Every endpoint the upstream's API and docs/upstream.md give a shape for, with
// example requests and responses, shared by contract-endpoints.test.ts and
// contract-endpoints.bodies.test.ts (the checks made of each: contract-endpoints.checks.ts).
import * as ex from './contract-examples.ts';

export const TIP = ex.queueTip().order_id;

export const MEDIA = 'med_1042_9f8e7d';

export const OVERLAY = 'o_1a2b3c4d';

export interface Endpoint {
	method: string;
	path: string;
	scope: string | null;
	status?: 201;
	request?: unknown[];
	query?: Record<string, string>[];
	responses: unknown[];
}

// docs/upstream.md, endpoints (the groups the overlay kit uses).
export const SERVICE_API: Endpoint[] = [
	{ method: 'GET', path: '/me', scope: null, responses: [ex.me(), ex.meOAuth()] },
	{
		method: 'GET',
		path: '/events',
		scope: null,
		responses: [
			{
				events: { 'tip.created': 'A tip was created', 'counter.updated': 'A counter changed' },
				scopes: { 'tts:read': 'TTS queue and played history' }
			}
		]
	},
	{ method: 'POST', path: '/realtime/token', scope: null, responses: [ex.handoffToken()] },
	{
		method: 'GET',
		path: '/tts/queue',
		scope: 'tts:read',
		responses: [
			{
				is_paused: false,
				currently_playing: true,
				current_order_id: TIP,
				items: [ex.queueTip(), ex.apiTip(), ex.bareTip()]
			},
			{ is_paused: true, currently_playing: false, current_order_id: null, items: [] }
		]
	},
	{
		method: 'POST',
		path: `/tts/${TIP}/start`,
		scope: 'tts:control',
		responses: [{ success: true, tip: ex.queueTip() }]
	},
	{ method: 'POST', path: '/tts/clear', scope: 'tts:control', responses: [{ success: true }] },
	{
		method: 'GET',
		path: '/media/queue',
		scope: 'media:read',
		responses: [
			{
				is_paused: false,
				visible: true,
				currently_playing: true,
				current_order_id: ex.queueMedia().order_id,
				items: [ex.queueMedia()]
			}
		]
	},
	{
		method: 'GET',
		path: '/media/history',
		scope: 'media:read',
		query: [{}, { limit: '1' }, { limit: '100', before: TIP }],
		responses: [
			{ media: [ex.historyMedia()], has_more: true, next_cursor: TIP },
			{ media: [], has_more: false, next_cursor: null }
		]
	},
	{ method: 'POST', path: '/media/resume', scope: 'media:control', responses: [{ success: true }] },
	{
		method: 'POST',
		path: `/media/${MEDIA}/release`,
		scope: 'media:control',
		responses: [
			{ success: true, released: true, media: ex.queueMedia() },
			// The media content when released is false is left open: present, null or absent.
			{ success: true, released: false, media: ex.queueMedia() },
			{ success: true, released: false, media: null },
			{ success: true, released: false }
		]
	},
	{
		method: 'PATCH',
		path: `/overlays/${OVERLAY}/tip-goal`,
		scope: 'overlays:manage',
		request: [
			{},
			{ title: 'New chair' },
			ex.tipGoalFields(),
			// null or empty clears a date.
			{ starts_at: null, ends_at: '' },
			{ starts_at: '', ends_at: ex.T1, enabled: false, amount: 1_000_000 }
		],
		responses: [{ success: true }]
	},
	{
		method: 'POST',
		path: '/chat/messages',
		scope: 'chat:write',
		request: [{ message: 'Thanks Ada!' }, { message: 'hi', platform: 'kick' }],
		responses: [{ success: true }]
	},
	{
		method: 'POST',
		path: '/webhook-endpoints',
		scope: 'webhooks:manage',
		status: 201,
		request: [
			{ url: 'https://hooks.example.com/tips', events: ['*'] },
			{ url: 'https://hooks.example.com/tips', description: 'Bot relay', events: ['tip.created'] }
		],
		responses: [{ endpoint: ex.webhookEndpoint(), secret: 'whsec_c2VjcmV0' }]
	},
	{
		method: 'GET',
		path: '/commands',
		scope: 'commands:manage',
		responses: [{ commands: [ex.customCommand()] }]
	},
	{
		method: 'POST',
		path: '/commands',
		scope: 'commands:manage',
		status: 201,
		request: [{ name: 'skip', response: 'Skipping', permission: 'moderator', aliases: ['ts'] }],
		responses: [{ command: ex.customCommand() }]
	},
	{
		method: 'DELETE',
		path: '/commands/discord',
		scope: 'commands:manage',
		responses: [{ success: true }]
	}
];

// docs/upstream.md, calls the API document does not detail.
export const CONTRACT: Endpoint[] = [
	{
		method: 'POST',
		path: `/tts/${TIP}/finish`,
		scope: 'tts:control',
		responses: [{ success: true, tip: ex.historyTip() }]
	},
	{
		method: 'POST',
		path: `/tts/${TIP}/release`,
		scope: 'tts:control',
		responses: [
			{ success: true, released: true, tip: ex.queueTip() },
			{ success: true, released: false, tip: null }
		]
	},
	{
		method: 'POST',
		path: '/tts/pause',
		scope: 'tts:control',
		responses: [{ success: true, is_paused: true }]
	},
	{
		method: 'POST',
		path: '/tts/resume',
		scope: 'tts:control',
		responses: [{ success: true, is_paused: false }]
	},
	{
		method: 'POST',
		path: '/tts/skip',
		scope: 'tts:control',
		responses: [
			{ success: true, order_id: TIP },
			{ success: true, order_id: null }
		]
	},
	{ method: 'DELETE', path: `/tts/${TIP}`, scope: 'tts:control', responses: [{ success: true }] },
	{
		method: 'POST',
		path: `/tts/${TIP}/replay`,
		scope: 'tts:control',
		responses: [
			{
				success: true,
				tip: { ...ex.queueTip(), order_id: 'tip_1725625000_0a0b0c', is_replay: true }
			}
		]
	},
	{
		method: 'GET',
		path: '/tts/history',
		scope: 'tts:read',
		query: [{}, { limit: '25' }, { limit: '5', before: TIP }],
		responses: [
			{ tips: [ex.historyTip()], has_more: true, next_cursor: TIP },
			{ tips: [], has_more: false, next_cursor: null }
		]
	},
	{
		method: 'POST',
		path: `/media/${MEDIA}/start`,
		scope: 'media:control',
		responses: [{ success: true, media: ex.queueMedia() }]
	},
	{
		method: 'POST',
		path: `/media/${MEDIA}/finish`,
		scope: 'media:control',
		responses: [{ success: true, media: ex.historyMedia() }]
	},
	{
		method: 'POST',
		path: '/media/pause',
		scope: 'media:control',
		responses: [{ success: true, is_paused: true }]
	},
	{
		method: 'POST',
		path: '/media/skip',
		scope: 'media:control',
		responses: [
			{ success: true, order_id: MEDIA },
			{ success: true, order_id: null }
		]
	},
	{
		method: 'GET',
		path: '/media/status',
		scope: 'media:read',
		responses: [
			{ is_paused: false, visible: true, currently_playing: true, current_order_id: MEDIA },
			{ is_paused: true, visible: false, currently_playing: false, current_order_id: null }
		]
	},
	{
		method: 'POST',
		path: '/media/visibility',
		scope: 'media:control',
		request: [{ visible: false }, { visible: true }],
		responses: [{ success: true, visible: false }]
	},
	{
		method: 'POST',
		path: '/media/queue',
		scope: 'media:control',
		status: 201,
		request: [
			{ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
			{ url: 'https://youtu.be/dQw4w9WgXcQ', start_time: 42 }
		],
		responses: [{ media: { ...ex.queueMedia(), requested_via: 'admin' } }]
	},
	{
		method: 'GET',
		path: '/counters',
		scope: 'counters:manage',
		responses: [{ counters: [ex.counter()] }, { counters: [] }]
	},
	{
		method: 'GET',
		path: '/counters/deaths',
		scope: 'counters:manage',
		responses: [{ counter: ex.counter() }]
	},
	{
		method: 'POST',
		path: '/counters',
		scope: 'counters:manage',
		status: 201,
		request: [{ name: 'deaths' }, { name: 'boss-kills_2', value: 10 }],
		responses: [{ counter: ex.counter() }]
	},
	{
		method: 'PUT',
		path: '/counters/deaths',
		scope: 'counters:manage',
		request: [{ value: 0 }, { value: -3 }],
		responses: [{ counter: ex.counter() }]
	},
	{
		method: 'POST',
		path: '/counters/deaths/increment',
		scope: 'counters:manage',
		request: [{}, { by: 5 }, { by: -1 }],
		responses: [{ counter: ex.counter() }]
	},
	{
		method: 'DELETE',
		path: '/counters/deaths',
		scope: 'counters:manage',
		responses: [{ success: true }]
	},
	{
		method: 'GET',
		path: '/overlays',
		scope: 'overlays:manage',
		responses: [{ overlays: [ex.overlay()] }]
	},
	{
		method: 'GET',
		path: `/overlays/${OVERLAY}`,
		scope: 'overlays:manage',
		responses: [{ overlay: ex.overlay() }]
	},
	{
		method: 'DELETE',
		path: `/overlays/${OVERLAY}`,
		scope: 'overlays:manage',
		responses: [{ success: true }]
	},
	{
		method: 'POST',
		path: `/overlays/${OVERLAY}/reload`,
		scope: 'overlays:manage',
		responses: [{ success: true }]
	},
	{
		method: 'POST',
		path: '/overlays/celebration',
		scope: 'overlays:manage',
		request: [{}, { overlay_id: OVERLAY }, { overlay_id: OVERLAY, widget_id: 'w_party1' }],
		responses: [{ success: true }]
	},
	{
		method: 'GET',
		path: `/overlays/${OVERLAY}/tip-goal`,
		scope: 'overlays:manage',
		responses: [{ tip_goal: ex.tipGoal() }]
	},
	{
		method: 'POST',
		path: `/overlays/${OVERLAY}/tip-goal/add`,
		scope: 'overlays:manage',
		request: [{ amount: 25 }, { amount: 9.99 }],
		responses: [{ success: true, tip_goal: ex.tipGoal() }]
	},
	{ method: 'GET', path: '/tipping', scope: null, responses: [{ accepting: true }] },
	{
		method: 'POST',
		path: '/tipping/open',
		scope: 'tipping:control',
		responses: [{ success: true, accepting: true }]
	},
	{
		method: 'POST',
		path: '/tipping/close',
		scope: 'tipping:control',
		responses: [{ success: true, accepting: false }]
	},
	{
		method: 'GET',
		path: '/leaderboard',
		scope: null,
		query: [{}, { limit: '10' }],
		responses: [{ supporters: [ex.supporter()] }, { supporters: [] }]
	},
	{
		method: 'POST',
		path: '/tips',
		scope: 'tips:create',
		status: 201,
		request: [
			{ name: 'Ada', amount: 5 },
			{
				name: 'Ada',
				amount: 5,
				message: 'Thanks for the stream!',
				source: 'kofi',
				paid: true,
				external_ref: 'kofi_txn_9001'
			}
		],
		responses: [{ tip: ex.apiTip() }]
	}
];

export const ALL = [...SERVICE_API, ...CONTRACT];
