// Request and response bodies of every endpoint the two documents give a shape for, reached through
// the route table (so each endpoint is matched, scoped and parsed the way the simulator and the token
// endpoint do it), and the error bodies of both documents.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod/mini';
import {
	AlreadyPlayingBody,
	ApiErrorBody,
	ERROR_CODES,
	InsufficientCreditsBody,
	matchRoute,
	MissingScopeBody,
	OAuthErrorBody,
	parseWith,
	RateLimitedBody,
	ROUTES,
	TtsQueueBody,
	UnauthorizedBody,
	type Route
} from '../../src/contract/index.ts';
import * as ex from './contract-examples.ts';

const TIP = ex.queueTip().order_id;
const MEDIA = 'med_1042_9f8e7d';
const OVERLAY = 'o_1a2b3c4d';

interface Endpoint {
	method: string;
	path: string;
	scope: string | null;
	status?: 201;
	request?: unknown[];
	query?: Record<string, string>[];
	responses: unknown[];
}

// service-api.md, Endpoints (the groups the overlay kit uses).
const SERVICE_API: Endpoint[] = [
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
	}
];

// CONTRACT.md, Endpoints that service-api.md does not show.
const CONTRACT: Endpoint[] = [
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

const ALL = [...SERVICE_API, ...CONTRACT];

function mustMatch(method: string, path: string): { route: Route; params: Record<string, string> } {
	const match = matchRoute(method, path);
	if (!match) throw new Error(`${method} ${path} is not in the route table`);
	return match;
}

function expectParses(schema: z.ZodMiniType | undefined, value: unknown, what: string): unknown {
	expect(schema, `${what}: no schema`).toBeDefined();
	const result = parseWith(schema!, value);
	if (!result.ok) throw new Error(`${what} does not parse: ${result.error}`);
	return result.value;
}

describe.each([
	['service-api.md', SERVICE_API],
	['CONTRACT.md', CONTRACT]
])('every endpoint of %s', (_doc, endpoints) => {
	it.each(endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))(
		'%s is in the route table with its scope, status and body shapes',
		(_name, endpoint) => {
			const { route } = mustMatch(endpoint.method, endpoint.path);
			expect(route.scope).toBe(endpoint.scope);
			expect(route.status).toBe(endpoint.status ?? 200);
			for (const [i, body] of endpoint.responses.entries()) {
				const parsed = expectParses(route.response, body, `response ${i}`);
				expect(parsed).toEqual(body);
			}
			for (const [i, body] of (endpoint.request ?? []).entries())
				expectParses(route.request, body, `request ${i}`);
			for (const [i, query] of (endpoint.query ?? []).entries())
				expectParses(route.query, query, `query ${i}`);
			// An endpoint the documents give no body takes none.
			if (!endpoint.request) expect(route.request).toBeUndefined();
		}
	);
});

describe('the route table', () => {
	it('holds nothing beyond the documented endpoints, except media remove', () => {
		const documented = new Set(ALL.map((e) => mustMatch(e.method, e.path).route));
		const extra = Object.entries(ROUTES)
			.filter(([, r]) => !documented.has(r))
			.map(([name]) => name);
		// Remove is named among the media transitions and by queue.media.removed (shape not shown).
		expect(extra).toEqual(['mediaRemove']);
		expect(mustMatch('DELETE', `/media/${MEDIA}`).route).toBe(ROUTES.mediaRemove);
	});

	it('parses query strings as strings, the way they arrive', () => {
		const q = parseWith(ROUTES.ttsHistory.query!, { limit: '7', before: TIP });
		expect(q).toEqual({ ok: true, value: { limit: 7, before: TIP } });
		for (const limit of ['0', '101', '2.5', 'ten'])
			expect(parseWith(ROUTES.ttsHistory.query!, { limit })).toMatchObject({
				ok: false,
				error: expect.stringMatching(/^limit: /)
			});
		expect(parseWith(ROUTES.leaderboard.query!, { limit: '0' })).toMatchObject({ ok: false });
	});
});

describe('request bodies reject wrong types with the field named', () => {
	it.each<[string, keyof typeof ROUTES, unknown, string]>([
		['POST /tips without a name', 'createTip', { amount: 5 }, 'name'],
		['POST /tips with a string amount', 'createTip', { name: 'Ada', amount: '5' }, 'amount'],
		['POST /tips with a negative amount', 'createTip', { name: 'Ada', amount: -1 }, 'amount'],
		[
			'POST /tips with paid as a string',
			'createTip',
			{ name: 'A', amount: 1, paid: 'yes' },
			'paid'
		],
		['POST /counters with an uppercase slug', 'counterCreate', { name: 'Deaths' }, 'name'],
		['POST /counters with a fractional value', 'counterCreate', { name: 'd', value: 1.5 }, 'value'],
		['PUT /counters/{name} without a value', 'counterSet', {}, 'value'],
		['increment by a string', 'counterIncrement', { by: '1' }, 'by'],
		['POST /media/queue with a relative url', 'mediaEnqueue', { url: '/watch?v=x' }, 'url'],
		[
			'POST /media/queue with a negative start',
			'mediaEnqueue',
			{ url: 'https://x.io/v', start_time: -1 },
			'start_time'
		],
		['POST /media/visibility with a string', 'mediaVisibility', { visible: 'no' }, 'visible'],
		['celebration with a bad overlay id', 'celebration', { overlay_id: 'main' }, 'overlay_id'],
		['tip goal add with a string', 'tipGoalAdd', { amount: '5' }, 'amount'],
		['tip goal PATCH with a bad date', 'tipGoalUpdate', { starts_at: 'tomorrow' }, 'starts_at'],
		['tip goal PATCH with a long title', 'tipGoalUpdate', { title: 'x'.repeat(81) }, 'title'],
		['tip goal PATCH over the maximum', 'tipGoalUpdate', { amount: 1_000_001 }, 'amount']
	])('%s', (_name, route, body, path) => {
		const result = parseWith(ROUTES[route].request!, body);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error).toMatch(new RegExp(`(^|; )${path}: `));
	});
});

describe('response bodies name the failing field path, also deep inside lists', () => {
	it.each<[keyof typeof ROUTES, unknown, string]>([
		[
			'ttsQueue',
			{
				is_paused: false,
				currently_playing: false,
				current_order_id: null,
				items: [ex.queueTip(), { ...ex.apiTip(), amount: '5' }]
			},
			'items.1.amount'
		],
		[
			'ttsQueue',
			{ is_paused: 'no', currently_playing: false, current_order_id: null, items: [] },
			'is_paused'
		],
		[
			'mediaHistory',
			{ media: [ex.queueMedia()], has_more: false, next_cursor: null },
			'media.0.played_at'
		],
		['leaderboard', { supporters: [{ ...ex.supporter(), total: '42' }] }, 'supporters.0.total'],
		[
			'overlaysList',
			{ overlays: [{ ...ex.overlay(), widgets: [{ id: 'w', type: 3, settings: {} }] }] },
			'overlays.0.widgets.0.type'
		],
		[
			'tipGoalAdd',
			{ success: true, tip_goal: { ...ex.tipGoal(), current: null } },
			'tip_goal.current'
		],
		['ttsStart', { success: true, tip: { ...ex.queueTip(), tts_url: 5 } }, 'tip.tts_url'],
		['ttsRelease', { success: true, released: 'yes', tip: null }, 'released'],
		['realtimeToken', { ...ex.handoffToken(), token: 'abc' }, 'token'],
		['me', { ...ex.me(), tenant: { ...ex.me().tenant, name: null } }, 'tenant.name']
	])('%s: %s', (route, body, path) => {
		const result = parseWith(ROUTES[route].response, body);
		expect(result.ok).toBe(false);
		if (!result.ok)
			expect(result.error).toMatch(new RegExp(`(^|; )${path.replace(/\./g, '\\.')}: `));
	});

	it('unknown fields pass through at every level of a body', () => {
		const body = {
			is_paused: false,
			currently_playing: false,
			current_order_id: null,
			items: [{ ...ex.queueTip(), voice: 'nova' }],
			queue_length_seconds: 42
		};
		const result = parseWith(TtsQueueBody, body);
		expect(result).toEqual({ ok: true, value: body });
	});
});

describe('error bodies of both documents', () => {
	it.each(['missing_api_key', 'invalid_api_key', 'invalid_token'])('401 %s', (code) => {
		const body = { error: 'Unauthorized', code };
		expect(parseWith(UnauthorizedBody, body)).toEqual({ ok: true, value: body });
	});

	it('401 with a code the document does not name fails at code', () => {
		expect(parseWith(UnauthorizedBody, { error: 'x', code: 'expired' })).toMatchObject({
			ok: false,
			error: expect.stringMatching(/^code: /)
		});
	});

	it('403 missing_scope names the required scope', () => {
		const body = { error: 'Forbidden', code: 'missing_scope', required_scope: 'tts:control' };
		expect(parseWith(MissingScopeBody, body)).toEqual({ ok: true, value: body });
		const { required_scope: _gone, ...without } = body;
		expect(parseWith(MissingScopeBody, without)).toMatchObject({
			ok: false,
			error: expect.stringMatching(/^required_scope: /)
		});
	});

	it('429 carries only error', () => {
		expect(parseWith(RateLimitedBody, { error: 'Too many requests' }).ok).toBe(true);
		expect(parseWith(RateLimitedBody, {}).ok).toBe(false);
	});

	it('409 already_playing adds current_order_id', () => {
		const body = { error: 'busy', code: 'already_playing', current_order_id: TIP };
		expect(parseWith(AlreadyPlayingBody, body)).toEqual({ ok: true, value: body });
		expect(parseWith(AlreadyPlayingBody, { error: 'busy', code: 'already_playing' })).toMatchObject(
			{ ok: false, error: expect.stringMatching(/^current_order_id: /) }
		);
	});

	it('400 insufficient_credits adds available', () => {
		const body = { error: 'not enough', code: 'insufficient_credits', available: 2 };
		expect(parseWith(InsufficientCreditsBody, body)).toEqual({ ok: true, value: body });
	});

	it.each([
		['404 not_found', { error: 'TTS item not found', code: 'not_found' }],
		['404 without a code', { error: 'no such resource' }],
		['404 viewer_not_signed_in', { error: 'never signed in', code: 'viewer_not_signed_in' }],
		['409 queue_paused', { error: 'paused', code: 'queue_paused' }],
		['409 not_in_queue', { error: 'gone', code: 'not_in_queue' }],
		['409 not_playing', { error: 'not claimed', code: 'not_playing' }],
		['409 counter_exists', { error: 'taken', code: 'counter_exists' }],
		['409 ambiguous_viewer', { error: 'two people', code: 'ambiguous_viewer' }],
		['400 bad_cursor', { error: 'unknown cursor', code: 'bad_cursor' }],
		['502 gateway_unavailable', { error: 'retry', code: 'gateway_unavailable' }],
		['an unknown code', { error: 'new', code: 'brand_new_code', hint: 'x' }]
	])('%s parses as an API error body', (_name, body) => {
		expect(parseWith(ApiErrorBody, body)).toEqual({ ok: true, value: body });
	});

	it('an error body without error fails', () => {
		expect(parseWith(ApiErrorBody, { code: 'not_found' })).toMatchObject({
			ok: false,
			error: expect.stringMatching(/^error: /)
		});
	});

	it('OAuth token endpoint errors use error and error_description', () => {
		for (const error of [
			'invalid_client',
			'invalid_grant',
			'unsupported_grant_type',
			'invalid_scope'
		])
			expect(
				parseWith(OAuthErrorBody, { error, error_description: 'PKCE verification failed' }).ok
			).toBe(true);
	});

	it('the list of error codes holds every code the documents name', () => {
		const named = [
			// service-api.md, Errors
			'bad_request',
			'message_too_long',
			'message_disallowed',
			'bad_cursor',
			'insufficient_credits',
			'invalid_command',
			'last_voice',
			'missing_api_key',
			'invalid_api_key',
			'invalid_token',
			'missing_scope',
			'viewer_not_signed_in',
			'queue_paused',
			'already_playing',
			'ambiguous_viewer',
			'command_exists',
			'alias_in_use',
			'bot_disabled',
			'bot_unavailable',
			'gateway_unavailable',
			// service-api.md names not_in_queue as an example code; CONTRACT.md adds the rest.
			'not_in_queue',
			'not_found',
			'not_playing',
			'counter_exists'
		];
		expect([...ERROR_CODES].sort()).toEqual([...named].sort());
	});
});
