// The simulator's chat bot (src/sim/chat.ts) over its HTTP API and /_sim, and the token
// endpoint's side: the page proxy refuses POST /chat/messages, GET /demo/chat exists in demo mode
// only and carries the text, time and platform only.
import { describe, expect, it } from 'vitest';
import { api, simsPerTest } from '../fixtures/sim.ts';
import { send, simUpstream, tokenEndpoint } from '../fixtures/token-endpoint.ts';

const newSim = simsPerTest();
const post = (message: unknown, platform?: string) => ({
	body: { message, ...(platform ? { platform } : {}) }
});

describe('POST /chat/messages on the simulator', () => {
	it('logs what the bot said, newest first, with the credential', async () => {
		const sim = await newSim();
		expect((await api(sim, 'POST', '/chat/messages', post('Hello chat'))).body).toEqual({
			success: true
		});
		await api(sim, 'POST', '/chat/messages', post('On kick', 'kick'));
		const log = sim.control.chat().log();
		expect(log.map((m) => [m.text, m.platform])).toEqual([
			['On kick', 'kick'],
			['Hello chat', 'all']
		]);
		expect(log[0].actor.id).toBe(sim.control.core.demoKey.id);
	});

	it('refuses a missing, too long or command-like message with its code', async () => {
		const sim = await newSim();
		const codes = [];
		for (const m of [undefined, 'x'.repeat(501), '/ban someone', '!so someone'])
			codes.push((await api(sim, 'POST', '/chat/messages', post(m))).body.code);
		expect(codes).toEqual([
			'bad_request',
			'message_too_long',
			'message_disallowed',
			'message_disallowed'
		]);
		expect((await api(sim, 'POST', '/chat/messages', post('x'.repeat(500)))).status).toBe(200);
		expect(sim.control.chat().log()).toHaveLength(1);
	});

	it('needs chat:write', async () => {
		const sim = await newSim();
		const key = sim.control.addKey({ scopes: ['tts:read'] });
		const res = await api(sim, 'POST', '/chat/messages', { ...post('hi'), key: key.value });
		expect(res.status).toBe(403);
		expect(res.body).toMatchObject({ code: 'missing_scope', required_scope: 'chat:write' });
	});

	it('allows 20 messages per 30 s per streamer across keys, then a 429 with Retry-After', async () => {
		const sim = await newSim();
		const other = sim.control.addKey();
		for (let i = 0; i < 20; i++) {
			const key = i % 2 ? other.value : undefined;
			expect((await api(sim, 'POST', '/chat/messages', { ...post(`m${i}`), key })).status).toBe(
				200
			);
		}
		const res = await api(sim, 'POST', '/chat/messages', { ...post('one more'), key: other.value });
		expect(res.status).toBe(429);
		expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(30);
		expect(res.body.error).toEqual(expect.any(String));
		expect(sim.control.chat().log()).toHaveLength(20);
	});

	it('answers the bot switched off, a channel gone, not yet connected and the gateway down', async () => {
		const sim = await newSim();
		const s = sim.control.chat().switches;
		const say = async (platform?: string) => {
			const r = await api(sim, 'POST', '/chat/messages', post('hi', platform));
			return [r.status, r.body.code, r.body.error];
		};
		s.disabled = true;
		expect(await say()).toEqual([409, 'bot_disabled', expect.any(String)]);
		s.disabled = false;
		s.channels = ['twitch'];
		expect(await say('kick')).toEqual([409, 'bot_unavailable', 'no connected kick channel']);
		expect((await say('twitch'))[0]).toBe(200);
		s.unavailable = true;
		expect((await say())[1]).toBe('bot_unavailable');
		s.unavailable = false;
		const r = await fetch(`${sim.origin}/_sim/chat/switches`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ gateway_down: true })
		});
		expect(r.status).toBe(200);
		expect(await say()).toEqual([502, 'gateway_unavailable', expect.any(String)]);
		sim.control.clearFaults();
		expect((await say('kick'))[0]).toBe(200);
	});

	it('is readable and sayable over /_sim', async () => {
		const sim = await newSim();
		const said = await fetch(`${sim.origin}/_sim/chat/messages`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ message: 'From the control API' })
		});
		expect(said.status).toBe(200);
		const read = await (await fetch(`${sim.origin}/_sim/chat`)).json();
		expect(read.messages[0]).toMatchObject({ text: 'From the control API', platform: 'all' });
	});
});

describe('the token endpoint and the chat', () => {
	it('does not forward POST /chat/messages for pages', async () => {
		const sim = await newSim();
		const { app, calls } = tokenEndpoint(simUpstream(sim));
		const res = await send(app, 'POST', '/api/chat/messages', {
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ message: 'hi' })
		});
		expect(res.status).toBeGreaterThanOrEqual(400);
		expect(calls).toEqual([]);
		expect(sim.control.chat().log()).toEqual([]);
	});

	it('serves GET /demo/chat in demo mode only, without who sent it', async () => {
		const sim = await newSim();
		sim.control.chat().send('Thanks Ada!', 'all', { id: 'k', name: 'Secret key name' });
		const demo = tokenEndpoint(simUpstream(sim), { mode: 'demo', simulatorOrigin: sim.origin });
		const res = await send(demo.app, 'GET', '/demo/chat');
		expect(res.status).toBe(200);
		const body = await res.json();
		expect(body).toEqual({
			messages: [{ at: expect.any(String), text: 'Thanks Ada!', platform: 'all' }]
		});
		expect((await send(demo.app, 'GET', '/demo/chat', { key: 'wrong' })).status).toBe(401);
		const single = tokenEndpoint(simUpstream(sim), { simulatorOrigin: sim.origin });
		expect((await send(single.app, 'GET', '/demo/chat')).status).toBe(404);
	});
});
