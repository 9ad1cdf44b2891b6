// The realtime client (src/client/realtime.ts) against a real simulator and the real token
// endpoint on loopback ports, with `ws` as the WebSocket (docs/upstream.md, the realtime socket
// and its handoff token): connecting, events once, reconnecting, and the heartbeat watchdog.
import { describe, expect, it } from 'vitest';
import { until } from '../fixtures/sim.ts';
import {
	WAIT,
	FAST,
	rig,
	connect,
	recordingWebSocket,
	tokenCalls,
	postTip
} from './realtime-client.setup.ts';

describe('RealtimeConnection', () => {
	it('connects with a handoff token from POST /token, gets ready and asks for a resync', async () => {
		const r = await rig();
		const c = connect(r);
		await until(() => c.conn.state === 'open', WAIT);
		expect(c.resyncs()).toBe(1);
		expect(c.conn.connects).toBe(1);
		expect(c.conn.attempts).toBe(1);
		expect(c.conn.heartbeatS).toBe(30);
		expect(c.conn.allowedEvents).toContain('tip.created');
		expect(c.states.map((s) => s.state)).toEqual(['connecting', 'open']);
		expect(tokenCalls(r.sim)).toBe(1);
		expect(r.endpoint.calls).toEqual(['POST /realtime/token']);
		expect(r.api.stats.byRoute.token).toBe(1);
	});

	it('delivers tip.created for a POST /tips as a validated, typed event', async () => {
		const r = await rig();
		// The page's ApiClient is told of each event (its reads name the last ones: api.ts).
		const told: string[] = [];
		const c = connect(r, {
			api: { mintToken: () => r.api.mintToken(), sawEvent: (id) => told.push(id) }
		});
		await until(() => c.conn.state === 'open', WAIT);
		const orderId = await postTip(r.sim, 'Ada');
		await until(() => c.events.some((e) => e.type === 'tip.created'), WAIT);
		const event = c.events.find((e) => e.type === 'tip.created');
		if (event?.type !== 'tip.created') throw new Error('no tip.created');
		expect(event.data.tip.order_id).toBe(orderId);
		expect(event.data.tip.name).toBe('Ada');
		expect(event.id).toMatch(/^evt_/);
		expect(c.conn.lastEventId).toBe(c.events[c.events.length - 1].id);
		expect(told).toEqual(c.events.map((e) => e.id));
		expect(c.conn.lastEventAt).toBeGreaterThan(0);
	});

	it('an event sent twice is delivered once', async () => {
		const r = await rig();
		const frames: string[] = [];
		const c = connect(r, { WebSocket: recordingWebSocket(frames) });
		await until(() => c.conn.state === 'open', WAIT);
		r.sim.control.duplicateEvents(3);
		const ids = [await postTip(r.sim), await postTip(r.sim), await postTip(r.sim)];
		const sentCreated = () => frames.filter((f) => f.includes('"tip.created"')).length;
		// Wait until the server has really sent every copy before counting deliveries.
		await until(() => sentCreated() >= 6, WAIT);
		await until(() => c.events.filter((e) => e.type === 'tip.created').length >= 3, WAIT);
		const created = c.events.filter((e) => e.type === 'tip.created');
		expect(created.map((e) => e.type === 'tip.created' && e.data.tip.order_id)).toEqual(ids);
		expect(new Set(c.events.map((e) => e.id)).size).toBe(c.events.length);
	});

	it('after the sockets drop it reconnects with a new token and asks for a resync again', async () => {
		const r = await rig();
		const c = connect(r, FAST);
		await until(() => c.conn.state === 'open', WAIT);
		expect(r.sim.control.dropSockets()).toBe(1);
		await until(() => c.conn.connects === 2 && c.conn.state === 'open', WAIT);
		expect(c.resyncs()).toBe(2);
		// Single-use tokens: one POST /realtime/token per connection.
		expect(tokenCalls(r.sim)).toBe(2);
		expect(c.states.map((s) => s.state)).toEqual(['connecting', 'open', 'retrying', 'open']);
		expect(c.states[2].detail).toMatch(/connection lost/);
		// Events flow on the new connection.
		await postTip(r.sim);
		await until(() => c.events.some((e) => e.type === 'tip.created'), WAIT);
	});

	it('a server that goes silent is detected by the heartbeat watchdog and replaced', async () => {
		const r = await rig({ heartbeatS: 0.3 });
		const c = connect(r, FAST);
		await until(() => c.conn.state === 'open', WAIT);
		expect(c.conn.heartbeatS).toBe(0.3);
		const before = c.conn.connects;
		// Half-open: no pings, no events, no close; only the watchdog can notice.
		expect(r.sim.control.silenceSockets(60_000)).toBe(1);
		await until(() => c.conn.connects > before && c.conn.state === 'open', WAIT);
		expect(c.resyncs()).toBe(c.conn.connects);
		expect(tokenCalls(r.sim)).toBe(c.conn.connects);
		expect(r.warnings.some((w) => /no message for 0\.6 s/.test(w))).toBe(true);
		expect(c.states.some((s) => s.state === 'retrying' && /no message/.test(s.detail))).toBe(true);
		// The new socket is not silenced.
		await postTip(r.sim);
		await until(() => c.events.some((e) => e.type === 'tip.created'), WAIT);
	});

	it('a live connection with regular pings is never replaced by the watchdog', async () => {
		// 1 s (watchdog 2 s): only an event-loop stall of seconds could fake a silence here.
		const r = await rig({ heartbeatS: 1 });
		const frames: string[] = [];
		const c = connect(r, { WebSocket: recordingWebSocket(frames) });
		await until(() => c.conn.state === 'open', WAIT);
		await until(() => frames.filter((f) => f.includes('"ping"')).length >= 3, WAIT);
		expect(c.conn.connects).toBe(1);
		expect(c.conn.state).toBe('open');
	});
});
