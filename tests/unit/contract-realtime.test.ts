// Realtime messages against docs/upstream.md (the realtime socket: handoff
// token, socket, authentication): what the client sends, what the server sends, and how
// one text frame is classified.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	AuthMessage,
	CLOSE_AUTH_TIMEOUT,
	CLOSE_UNAUTHORIZED,
	HandoffToken,
	parseServerFrame,
	parseWith,
	PingMessage,
	PongMessage,
	ReadyMessage,
	REALTIME_ERROR_CODES,
	RealtimeErrorMessage
} from '../../src/contract/index.ts';
import * as ex from './contract-examples.ts';

const frame = (value: unknown) => JSON.stringify(value);

/** docs/upstream.md, realtime WebSocket item 2: `"events": ["tip.created", ...]`. */
const READY_EXAMPLE_EVENTS = ['tip.created', 'tip.tts_ready', 'tipping.opened', 'tipping.closed'];

describe('the handoff token of POST /realtime/token', () => {
	it('parses the body the upstream answers', () => {
		const body = ex.handoffToken();
		expect(parseWith(HandoffToken, body)).toEqual({ ok: true, value: body });
	});

	it.each([
		['token', 'abc_123'],
		['token', 5],
		['expires_at', 'in a minute'],
		['expires_in', 0],
		['expires_in', 1.5],
		['expires_in', '60']
	])('rejects a wrong %s and names it', (field, value) => {
		const result = parseWith(HandoffToken, { ...ex.handoffToken(), [field]: value });
		expect(result).toMatchObject({
			ok: false,
			error: expect.stringMatching(new RegExp(`^${field}: `))
		});
	});
});

describe('client messages', () => {
	it('an auth message carries a handoff token or an API key', () => {
		for (const data of [
			{ token: 'rth_abc' },
			{ apiKey: 'tpk_live_123' },
			{ apiKey: 'tpat_oauth' }
		]) {
			const message = { type: 'auth', data };
			expect(parseWith(AuthMessage, message)).toEqual({ ok: true, value: message });
		}
	});

	it('an auth message without a credential, or with an empty one, is not valid', () => {
		for (const data of [{}, { token: '' }, { apiKey: '' }, { token: 5 }, null])
			expect(parseWith(AuthMessage, { type: 'auth', data }).ok).toBe(false);
		expect(parseWith(AuthMessage, { type: 'hello', data: { token: 'rth_abc' } })).toMatchObject({
			ok: false,
			error: expect.stringMatching(/^type: /)
		});
	});

	it('a pong is just its type', () => {
		expect(parseWith(PongMessage, { type: 'pong' }).ok).toBe(true);
	});
});

describe('server messages', () => {
	const ready = { type: 'ready', data: { events: READY_EXAMPLE_EVENTS, heartbeat_s: 30 } };

	it('ready lists the allowed event types and the heartbeat', () => {
		expect(parseWith(ReadyMessage, ready)).toEqual({ ok: true, value: ready });
		expect(parseServerFrame(frame(ready))).toEqual({
			ok: true,
			value: { kind: 'ready', message: ready }
		});
	});

	it.each(REALTIME_ERROR_CODES)('error %s parses', (code) => {
		const message = { type: 'error', data: { code, error: 'human text' } };
		expect(parseWith(RealtimeErrorMessage, message).ok).toBe(true);
		expect(parseServerFrame(frame(message))).toEqual({
			ok: true,
			value: { kind: 'error', message }
		});
	});

	it('the error codes are the upstream’s four', () => {
		expect([...REALTIME_ERROR_CODES].sort()).toEqual(
			['auth_timeout', 'invalid_api_key', 'invalid_token', 'missing_api_key'].sort()
		);
	});

	it('the close codes are 4401 for a credential problem and 4408 for no auth in time', () => {
		expect(CLOSE_UNAUTHORIZED).toBe(4401);
		expect(CLOSE_AUTH_TIMEOUT).toBe(4408);
	});

	it('a ping carries the server time in unix ms', () => {
		const ping = { type: 'ping', data: { t: 1_725_624_000_000 } };
		expect(parseWith(PingMessage, ping).ok).toBe(true);
		expect(parseServerFrame(frame(ping))).toEqual({
			ok: true,
			value: { kind: 'ping', message: ping }
		});
	});

	it('an object whose id starts with evt_ is an event', () => {
		const event = ex.envelope('tip.created', ex.EVENT_PAYLOADS['tip.created'](), ex.apiKeyActor());
		expect(parseServerFrame(frame(event))).toEqual({
			ok: true,
			value: { kind: 'event', message: event }
		});
	});

	it('an event of a type the project does not know is still an event', () => {
		const event = ex.envelope('raid.incoming', { viewers: 12 });
		expect(parseServerFrame(frame(event))).toMatchObject({ ok: true, value: { kind: 'event' } });
	});

	it('anything else with a string type is a control message; unknown ones are "other"', () => {
		expect(parseServerFrame(frame({ type: 'maintenance', data: { in_s: 60 } }))).toEqual({
			ok: true,
			value: { kind: 'other', type: 'maintenance' }
		});
		// An id that does not start with evt_ makes it a control message, not an event.
		expect(parseServerFrame(frame({ id: 'msg_1', type: 'tip.created', data: {} }))).toEqual({
			ok: true,
			value: { kind: 'other', type: 'tip.created' }
		});
	});

	it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'])(
		'a control message of type %s (an Object.prototype name) is "other", not a crash',
		(type) => {
			expect(parseServerFrame(`{"type":${JSON.stringify(type)},"data":{}}`)).toEqual({
				ok: true,
				value: { kind: 'other', type }
			});
		}
	);

	it('unknown fields pass through in control messages and events', () => {
		const message = { ...ready, data: { ...ready.data, region: 'eu' }, server: 'rt-3' };
		expect(parseServerFrame(frame(message))).toEqual({
			ok: true,
			value: { kind: 'ready', message }
		});
	});
});

describe('malformed realtime frames give ok: false with a reason and never throw', () => {
	it.each([
		['an empty frame', ''],
		['text that is not JSON', 'hello'],
		['truncated JSON', '{"type":"ready","data":{'],
		['a JSON array', '[]'],
		['an array of messages', frame([{ type: 'ping', data: { t: 1 } }])],
		['JSON null', 'null'],
		['a number', '42'],
		['a string', '"ready"'],
		['a boolean', 'true'],
		['an object without a type', '{}'],
		['a numeric type', frame({ type: 5 })],
		['a null type', frame({ type: null, data: {} })],
		['ready without data', frame({ type: 'ready' })],
		[
			'ready with events as text',
			frame({ type: 'ready', data: { events: 'all', heartbeat_s: 30 } })
		],
		['ready with a zero heartbeat', frame({ type: 'ready', data: { events: [], heartbeat_s: 0 } })],
		[
			'ready with a text heartbeat',
			frame({ type: 'ready', data: { events: [], heartbeat_s: '30' } })
		],
		['an error without a code', frame({ type: 'error', data: { error: 'x' } })],
		['a ping with a text time', frame({ type: 'ping', data: { t: 'now' } })],
		['an event without a type', frame({ id: 'evt_1', created_at: ex.T0, data: {} })],
		['an event with a bad date', frame({ id: 'evt_1', type: 'x', created_at: 'now', data: {} })],
		['an event with data as a list', frame({ id: 'evt_1', type: 'x', created_at: ex.T0, data: [] })]
	])('%s', (_name, text) => {
		const result = parseServerFrame(text);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
	});

	it('the reason names the failing field', () => {
		expect(
			parseServerFrame(frame({ type: 'ready', data: { events: [], heartbeat_s: '30' } }))
		).toMatchObject({ ok: false, error: expect.stringMatching(/^data\.heartbeat_s: /) });
		expect(parseServerFrame(frame({ type: 'ping', data: { t: 'now' } }))).toMatchObject({
			ok: false,
			error: expect.stringMatching(/^data\.t: /)
		});
		expect(
			parseServerFrame(frame({ id: 'evt_1', type: 'x', created_at: 'now', data: {} }))
		).toMatchObject({ ok: false, error: expect.stringMatching(/^created_at: /) });
		expect(parseServerFrame(frame({ type: 5 }))).toMatchObject({
			ok: false,
			error: expect.stringMatching(/^type: /)
		});
	});

	it('never throws on arbitrary text or arbitrary JSON', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (text) => {
				expect(typeof parseServerFrame(text).ok).toBe('boolean');
			}),
			{ numRuns: 1000 }
		);
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				expect(typeof parseServerFrame(JSON.stringify(value)).ok).toBe('boolean');
			}),
			{ numRuns: 1000 }
		);
		fc.assert(
			fc.property(
				fc.record({
					id: fc.oneof(fc.constant('evt_x1'), fc.string()),
					type: fc.oneof(fc.constantFrom('ready', 'error', 'ping', 'tip.created'), fc.jsonValue()),
					data: fc.jsonValue()
				}),
				(value) => {
					expect(typeof parseServerFrame(JSON.stringify(value)).ok).toBe('boolean');
				}
			),
			{ numRuns: 1000 }
		);
	});
});
