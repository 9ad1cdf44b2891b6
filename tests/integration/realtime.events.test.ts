// The realtime WebSocket of the simulator against docs/upstream.md (the event catalog and
// the other events): events and their scopes, and a tip from POST /v1/tips end to end. Real
// loopback.
import { describe, expect, it } from 'vitest';
import {
	CLOSE_UNAUTHORIZED,
	EventEnvelope,
	parseEvent,
	type Scope
} from '../../src/contract/index.ts';
import { api, RealtimeClient, until, type Sim } from '../fixtures/sim.ts';
import {
	TTS_EVENTS,
	MEDIA_EVENTS,
	COUNTER_EVENTS,
	OVERLAY_EVENTS,
	ANY_CREDENTIAL_EVENTS,
	sorted,
	start,
	authWith,
	handoff,
	counterValue
} from './realtime.setup.ts';

describe('realtime events and scopes', () => {
	async function clientWithScopes(sim: Sim, scopes: Scope[]): Promise<RealtimeClient> {
		const key = sim.control.addKey({ scopes });
		const client = await RealtimeClient.connect(sim, key.value);
		expect(client.messages[0].type).toBe('ready');
		return client;
	}

	it.each<[string, Scope[], string[]]>([
		['no scope', [], ANY_CREDENTIAL_EVENTS],
		['counters:manage', ['counters:manage'], [...COUNTER_EVENTS, ...ANY_CREDENTIAL_EVENTS]],
		['tts:read', ['tts:read'], [...TTS_EVENTS, ...ANY_CREDENTIAL_EVENTS]],
		['tts:control only', ['tts:control'], ANY_CREDENTIAL_EVENTS],
		['media:read', ['media:read'], [...MEDIA_EVENTS, ...ANY_CREDENTIAL_EVENTS]],
		['overlays:manage', ['overlays:manage'], [...OVERLAY_EVENTS, ...ANY_CREDENTIAL_EVENTS]],
		[
			'tts:read and overlays:manage',
			['tts:read', 'overlays:manage'],
			[...TTS_EVENTS, ...OVERLAY_EVENTS, ...ANY_CREDENTIAL_EVENTS]
		]
	])('ready.events lists exactly what %s allows', async (_label, scopes, expected) => {
		const sim = await start();
		const client = await clientWithScopes(sim, scopes);
		expect(sorted(client.messages[0].data.events)).toEqual(sorted(expected));
	});

	it('ready.events for a key with every scope covers the whole event catalog (docs/upstream.md)', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		const events: string[] = client.messages[0].data.events;
		const all = [
			...TTS_EVENTS,
			...MEDIA_EVENTS,
			...COUNTER_EVENTS,
			...OVERLAY_EVENTS,
			...ANY_CREDENTIAL_EVENTS
		];
		expect(events).toEqual(expect.arrayContaining(all));
		// Besides the table, only the event types docs/upstream.md names may appear.
		const extra = events.filter((e) => !all.includes(e));
		for (const e of extra) expect(['chat.command', 'twitch.channel_point_redemption']).toContain(e);
		expect(new Set(events).size).toBe(events.length);
	});

	it('a key with only counters:manage gets counter.updated but not tip.created', async () => {
		const sim = await start();
		const counters = await clientWithScopes(sim, ['counters:manage']);
		const tts = await clientWithScopes(sim, ['tts:read']);

		const tip = await api(sim, 'POST', '/tips', { body: { name: 'Ada', amount: 5 } });
		expect(tip.status).toBe(201);
		const bump = await api(sim, 'POST', '/counters/deaths/increment', { body: { by: 2 } });
		expect(bump.status).toBe(200);

		// Events go out in order, so once counter.updated is in, an earlier tip.created would be too.
		await counters.next((m) => m.type === 'counter.updated');
		expect(counters.events('tip.created')).toEqual([]);
		expect(counters.events('counter.updated')[0].data.counter).toMatchObject({
			name: 'deaths',
			value: bump.body.counter.value
		});

		const created = await tts.next((m) => m.type === 'tip.created');
		expect(created.data.tip.order_id).toBe(tip.body.tip.order_id);
		// The tts:read client never sees counter events; a tipping event is the sentinel.
		await api(sim, 'POST', '/tipping/close');
		await tts.next((m) => m.type === 'tipping.closed');
		expect(tts.events('counter.updated')).toEqual([]);
	});

	it('tipping events reach any credential, even one without scopes', async () => {
		const sim = await start();
		const bare = await clientWithScopes(sim, []);
		const counters = await clientWithScopes(sim, ['counters:manage']);
		expect((await api(sim, 'POST', '/tipping/close')).status).toBe(200);
		expect((await api(sim, 'POST', '/tipping/open')).status).toBe(200);
		for (const client of [bare, counters]) {
			await client.next((m) => m.type === 'tipping.opened');
			expect(client.events().map((e) => e.type)).toEqual(['tipping.closed', 'tipping.opened']);
			expect(client.events('tipping.closed')[0].data).toEqual({});
		}
	});

	it('every envelope is valid, has an evt_ id and no id repeats across many events', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		const count = 300;
		// A mix of API-driven events (with an actor) and model events (without one).
		await api(sim, 'POST', '/tips', { body: { name: 'Ada', amount: 3, message: 'hi' } });
		await api(sim, 'POST', '/counters', { body: { name: 'laps', value: 1 } });
		await api(sim, 'PATCH', '/overlays/o_1a2b3c4d/tip-goal', { body: { title: 'Desk' } });
		await api(sim, 'POST', '/overlays/celebration', { body: {} });
		await api(sim, 'POST', '/media/queue', { body: { url: 'https://youtu.be/abc' } });
		for (let i = 0; i < count; i++) sim.control.model.incrementCounter('deaths', 1);

		await until(() => client.events('counter.updated').length >= count + 1, 15_000);
		const events = client.events();
		const ids = new Set<string>();
		for (const event of events) {
			expect(EventEnvelope.safeParse(event).success).toBe(true);
			const parsed = parseEvent(event);
			expect(parsed, JSON.stringify(event)).toMatchObject({ ok: true, known: true });
			expect(event.id).toMatch(/^evt_/);
			ids.add(event.id);
		}
		expect(ids.size).toBe(events.length);

		// API-driven actions carry the API key actor of docs/upstream.md; model-driven ones carry none.
		const tip = client.events('tip.created')[0];
		expect(tip.actor).toEqual({
			type: 'api_key',
			id: expect.any(String),
			name: expect.any(String)
		});
		const fromChat = client.events('counter.updated').at(-1);
		expect(fromChat.actor).toBeUndefined();
	});

	it('a revoked key closes its live sockets with 4401 and leaves other keys connected', async () => {
		const sim = await start();
		const key = sim.control.addKey({ scopes: ['tts:read'] });
		const viaToken = await RealtimeClient.connect(sim, key.value);
		const viaKey = await authWith(sim, { type: 'auth', data: { apiKey: key.value } });
		const other = await RealtimeClient.connect(sim);
		expect(viaToken.messages[0].type).toBe('ready');
		expect(viaKey.messages[0].type).toBe('ready');

		sim.control.revokeKey(key.value);
		expect(await viaToken.closed()).toBe(CLOSE_UNAUTHORIZED);
		expect(await viaKey.closed()).toBe(CLOSE_UNAUTHORIZED);

		await api(sim, 'POST', '/tipping/close');
		await other.next((m) => m.type === 'tipping.closed');
		expect(other.closeCode).toBeNull();
		// The revoked key no longer works anywhere.
		expect((await api(sim, 'POST', '/realtime/token', { key: key.value })).status).toBe(401);
	});

	it('a handoff token minted before its key was revoked no longer authenticates', async () => {
		const sim = await start();
		const key = sim.control.addKey({ scopes: ['tts:read'] });
		const token = await handoff(sim, key.value);
		sim.control.revokeKey(key.value);
		const client = await authWith(sim, { type: 'auth', data: { token } });
		expect(client.messages[0]).toMatchObject({ type: 'error', data: { code: 'invalid_token' } });
		expect(await client.closed()).toBe(CLOSE_UNAUTHORIZED);
	});

	it('the connection outlives the handoff token it was opened with', async () => {
		const sim = await start({ handoffTtlS: 0.2 });
		const res = await api(sim, 'POST', '/realtime/token');
		const client = await authWith(sim, { type: 'auth', data: { token: res.body.token } });
		expect(client.messages[0].type).toBe('ready');
		const expiresAt = Date.parse(res.body.expires_at);
		await until(() => Date.now() > expiresAt + 100);

		const before = counterValue(sim);
		await api(sim, 'POST', '/counters/deaths/increment');
		const event = await client.next((m) => m.type === 'counter.updated');
		expect(event.data).toMatchObject({ counter: { value: before + 1 }, previous: before });
		expect(client.closeCode).toBeNull();
	});
});

describe('a tip from POST /v1/tips end to end', () => {
	it('a handoff-token client receives tip.created, then tip.tts_ready, and the tts_url serves WAV audio', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		expect(client.messages[0].type).toBe('ready');

		const res = await api(sim, 'POST', '/tips', {
			body: { name: 'Ada', amount: 7.5, message: 'Hello from the integration test!', paid: true }
		});
		expect(res.status).toBe(201);
		const orderId: string = res.body.tip.order_id;
		expect(res.body.tip.tts_url).toBeNull();

		const created = await client.next((m) => m.type === 'tip.created');
		expect(created.data.tip).toMatchObject({
			order_id: orderId,
			name: 'Ada',
			amount: 7.5,
			message: 'Hello from the integration test!',
			tts_url: null,
			is_paid: true,
			source: 'api'
		});
		const ready = await client.next(
			(m) => m.type === 'tip.tts_ready' && m.data.order_id === orderId,
			20_000
		);
		const types = client.events().map((e) => e.type);
		expect(types.indexOf('tip.created')).toBeLessThan(types.indexOf('tip.tts_ready'));
		for (const event of [created, ready]) expect(parseEvent(event)).toMatchObject({ ok: true });

		const ttsUrl: string = ready.data.tts_url;
		expect(ttsUrl).toMatch(/^https?:\/\//);
		// The snapshot agrees with the event.
		const queue = await api(sim, 'GET', '/tts/queue');
		expect(queue.body.items.find((t: any) => t.order_id === orderId).tts_url).toBe(ttsUrl);

		const audio = await fetch(ttsUrl);
		expect(audio.status).toBe(200);
		expect(audio.headers.get('content-type')).toMatch(/^audio\/wav/);
		const bytes = Buffer.from(await audio.arrayBuffer());
		expect(bytes.length).toBeGreaterThan(4000);
		expect(bytes.toString('latin1', 0, 4)).toBe('RIFF');
		expect(bytes.toString('latin1', 8, 12)).toBe('WAVE');
		expect(bytes.toString('latin1', 12, 16)).toBe('fmt ');
		expect(bytes.readUInt16LE(20)).toBe(1); // PCM
		expect(bytes.readUInt32LE(24)).toBeGreaterThan(0); // sample rate
	}, 30_000);
});
