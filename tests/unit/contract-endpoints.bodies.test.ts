// Request, response and error bodies of both documents: wrong types are refused with the field
// named, also deep inside lists (the endpoints are in contract-endpoints.endpoints.ts).
import { describe, expect, it } from 'vitest';
import {
	AlreadyPlayingBody,
	ApiErrorBody,
	ERROR_CODES,
	InsufficientCreditsBody,
	MissingScopeBody,
	OAuthErrorBody,
	parseWith,
	RateLimitedBody,
	ROUTES,
	TtsQueueBody,
	UnauthorizedBody
} from '../../src/contract/index.ts';
import * as ex from './contract-examples.ts';
import { TIP } from './contract-endpoints.endpoints.ts';

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
			// docs/upstream.md, errors
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
			// The upstream's API names not_in_queue as an example code; docs/upstream.md adds the rest.
			'not_in_queue',
			'not_found',
			'not_playing',
			'counter_exists'
		];
		expect([...ERROR_CODES].sort()).toEqual([...named].sort());
	});
});
