// Event envelopes and the event catalog against docs/upstream.md (the realtime
// socket: envelopes, the event catalog, the other events).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	EVENT_CATALOG,
	EVENT_DESCRIPTIONS,
	EVENT_TYPES,
	EventEnvelope,
	eventTypesForScopes,
	isKnownEventType,
	parseEvent,
	parseEventWith,
	parsePageFrame,
	parseServerFrame,
	parseWith,
	SCOPES,
	TTS_EVENTS
} from '../../src/contract/index.ts';
import * as ex from './contract-examples.ts';

const CONTRACT_TYPES = Object.keys(ex.EVENT_SCOPES);

describe('the event catalog', () => {
	it('covers every event type of the catalog with the scope it names', () => {
		for (const type of CONTRACT_TYPES) {
			expect(isKnownEventType(type), type).toBe(true);
			expect(EVENT_CATALOG[type as keyof typeof EVENT_CATALOG].scope, type).toBe(
				ex.EVENT_SCOPES[type]
			);
		}
	});

	it('also knows the upstream’s event types outside the catalog', () => {
		for (const type of ex.OTHER_NAMED_EVENTS) expect(isKnownEventType(type), type).toBe(true);
	});

	it('holds nothing that neither document names', () => {
		expect([...EVENT_TYPES].sort()).toEqual([...CONTRACT_TYPES, ...ex.OTHER_NAMED_EVENTS].sort());
	});

	it('gives every type a description for GET /events', () => {
		for (const type of EVENT_TYPES)
			expect(EVENT_DESCRIPTIONS[type].length, type).toBeGreaterThan(0);
	});
});

describe('eventTypesForScopes', () => {
	const byScope = (scope: string | null) =>
		CONTRACT_TYPES.filter((t) => ex.EVENT_SCOPES[t] === scope).sort();

	it('gives a credential without scopes only the events any credential receives', () => {
		expect(eventTypesForScopes([]).sort()).toEqual(['tipping.closed', 'tipping.opened']);
	});

	it.each(['tts:read', 'media:read', 'counters:manage', 'overlays:manage'])(
		'gives %s its own events plus the tipping events',
		(scope) => {
			expect(eventTypesForScopes([scope]).sort()).toEqual(
				[...byScope(scope), ...byScope(null)].sort()
			);
		}
	);

	it('adds up the events of several scopes', () => {
		expect(eventTypesForScopes(['tts:read', 'counters:manage']).sort()).toEqual(
			[...byScope('tts:read'), ...byScope('counters:manage'), ...byScope(null)].sort()
		);
	});

	it('gives control scopes no events of their own: reading needs the read scope', () => {
		expect(eventTypesForScopes(['tts:control', 'media:control', 'tips:create']).sort()).toEqual(
			byScope(null)
		);
	});

	it('ignores unknown scopes and repeated ones', () => {
		expect(eventTypesForScopes(['nope:nothing', 'tts:read', 'tts:read']).sort()).toEqual(
			[...byScope('tts:read'), ...byScope(null)].sort()
		);
	});

	it('gives a credential with every scope the whole catalog, each type once', () => {
		const all = eventTypesForScopes(SCOPES);
		expect([...all].sort()).toEqual([...EVENT_TYPES].sort());
		expect(new Set(all).size).toBe(all.length);
	});
});

describe('event envelopes', () => {
	it.each(CONTRACT_TYPES)(
		'a %s envelope built from the catalog parses as a known event',
		(type) => {
			const event = ex.envelope(type, ex.EVENT_PAYLOADS[type]());
			const parsed = parseEvent(event);
			expect(parsed).toEqual({ ok: true, known: true, event });
		}
	);

	it('an envelope carries an API key actor or an OAuth actor', () => {
		for (const actor of [ex.apiKeyActor(), ex.oauthActor()]) {
			const event = ex.envelope('counter.deleted', { name: 'deaths' }, actor);
			expect(parseEvent(event)).toEqual({ ok: true, known: true, event });
		}
	});

	it('an envelope without an actor parses (only API-driven actions carry one)', () => {
		const event = ex.envelope('tipping.opened', {});
		expect('actor' in event).toBe(false);
		expect(parseEvent(event).ok).toBe(true);
	});

	it.each([
		[
			'chat.command',
			{
				command: 'tts-skip',
				trigger: 'ts',
				args: '',
				platform: 'kick',
				user: { platform_user_id: 'k_1', login: 'ada', display_name: 'Ada', role: 'moderator' },
				message_id: 'm_1',
				extra: 'kept'
			}
		],
		['twitch.channel_point_redemption', { is_managed: true, reward: 'Hydrate' }]
	])('a %s envelope (named by the upstream) parses with its payload kept', (type, data) => {
		const event = ex.envelope(type, data);
		expect(parseEvent(event)).toEqual({ ok: true, known: true, event });
	});

	it('an event of an unknown type keeps its envelope and is marked unknown', () => {
		const event = ex.envelope('queue.tts.reordered', { order_ids: ['a', 'b'] });
		expect(parseEvent(event)).toEqual({ ok: true, known: false, event });
	});

	it('an event id must start with evt_', () => {
		for (const id of ['ev_1', 'EVT_1', 'evt_', 'evt_a b', 'wd_123', 42]) {
			const result = parseEvent({ ...ex.envelope('tipping.opened', {}), id });
			expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^id: /) });
		}
	});

	it.each([
		['type', 7],
		['created_at', 'just now'],
		['created_at', null],
		['data', 'nothing'],
		['data', null],
		['data', ['tip']]
	])('an envelope with a wrong %s fails naming it', (field, value) => {
		const result = parseEvent({ ...ex.envelope('tipping.opened', {}), [field]: value });
		expect(result).toMatchObject({
			ok: false,
			error: expect.stringMatching(new RegExp(`^${field}: `))
		});
	});

	it('an envelope with an actor that has no type fails naming actor', () => {
		const result = parseEvent(ex.envelope('tipping.opened', {}, { id: 'key_1' }));
		expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^actor: /) });
	});

	it('a widget page, which shows no actor, does not check it; the rest of the envelope it does', () => {
		const data = ex.EVENT_PAYLOADS['queue.tts.skipped']();
		const badActor = ex.envelope('queue.tts.skipped', data, { id: 'key_1' });
		expect(parseEventWith(TTS_EVENTS, badActor)).toMatchObject({ ok: true, known: true });
		expect(parsePageFrame(JSON.stringify(badActor))).toMatchObject({ ok: true });
		expect(parseServerFrame(JSON.stringify(badActor))).toMatchObject({ ok: false });
		const badDate = { ...ex.envelope('queue.tts.skipped', data), created_at: 'yesterday' };
		expect(parseEventWith(TTS_EVENTS, badDate)).toMatchObject({
			ok: false,
			error: expect.stringMatching(/^created_at: /)
		});
		expect(parsePageFrame(JSON.stringify(badDate))).toMatchObject({ ok: false });
	});

	it.each<[string, string, (data: any) => void, string]>([
		['tip.created', 'a tip amount as text', (d) => (d.tip.amount = '5'), 'data.tip.amount'],
		['tip.created', 'no tip', (d) => delete d.tip, 'data.tip'],
		['tip.tts_ready', 'a null tts_url', (d) => (d.tts_url = null), 'data.tts_url'],
		['queue.tts.started', 'a numeric order id', (d) => (d.order_id = 1), 'data.order_id'],
		[
			'queue.tts.finished',
			'a tip without played_at',
			(d) => delete d.tip.played_at,
			'data.tip.played_at'
		],
		['queue.tts.paused', 'is_paused as text', (d) => (d.is_paused = 'true'), 'data.is_paused'],
		[
			'queue.media.added',
			'a media item with a bad url',
			(d) => (d.media.media_url = 'nope'),
			'data.media.media_url'
		],
		['queue.media.visibility', 'visible as a number', (d) => (d.visible = 1), 'data.visible'],
		['counter.updated', 'a fractional previous value', (d) => (d.previous = 1.5), 'data.previous'],
		[
			'counter.updated',
			'an uppercase counter name',
			(d) => (d.counter.name = 'Deaths'),
			'data.counter.name'
		],
		['counter.deleted', 'no name', (d) => delete d.name, 'data.name'],
		[
			'overlay.celebration',
			'a malformed overlay id',
			(d) => (d.overlay_id = 'main'),
			'data.overlay_id'
		],
		[
			'overlay.tip_goal.updated',
			'a goal without current',
			(d) => delete d.tip_goal.current,
			'data.tip_goal.current'
		]
	])('a %s event with %s fails naming %s', (type, _what, mutate, path) => {
		const data = ex.EVENT_PAYLOADS[type]();
		mutate(data);
		const result = parseEvent(ex.envelope(type, data));
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.error.startsWith(`${type}: `)).toBe(true);
			expect(result.error).toContain(`${path}: `);
		}
	});

	it.each<[string, Record<string, unknown>]>([
		['counter.updated', { counter: ex.counter(), previous: null }],
		['overlay.celebration', { overlay_id: null, widget_id: null }],
		['overlay.celebration', { overlay_id: 'o_1a2b3c4d', widget_id: null }],
		['overlay.reload', { overlay_id: null }],
		['tip.created', { tip: ex.bareTip() }]
	])('nullable payload fields of %s accept null', (type, data) => {
		expect(parseEvent(ex.envelope(type, data))).toMatchObject({ ok: true, known: true });
	});

	it('unknown fields pass through in the envelope, its data and nested records', () => {
		const data: any = ex.EVENT_PAYLOADS['queue.tts.started']();
		data.tip.voice = 'nova';
		data.position = 0;
		const event = { ...ex.envelope('queue.tts.started', data, ex.apiKeyActor()), version: 2 };
		(event.actor as any).ip = '203.0.113.7';
		const parsed = parseEvent(event);
		expect(parsed).toEqual({ ok: true, known: true, event });
		expect(parseWith(EventEnvelope, event)).toEqual({ ok: true, value: event });
	});

	it('never throws, whatever it is given', () => {
		fc.assert(
			fc.property(fc.anything(), (value) => {
				const result = parseEvent(value);
				expect(typeof result.ok).toBe('boolean');
			}),
			{ numRuns: 500 }
		);
		fc.assert(
			fc.property(
				fc.constantFrom(...CONTRACT_TYPES),
				fc.dictionary(fc.string(), fc.anything()),
				(type, data) => {
					const result = parseEvent(ex.envelope(type, data));
					expect(typeof result.ok).toBe('boolean');
				}
			),
			{ numRuns: 500 }
		);
	});
});
