// The simulator's custom commands (src/sim/commands.ts) over its HTTP API and /_sim: created and
// deleted through the API with the documented refusals, run from a chat line with the permission,
// cooldown, aliases, platforms and enabled rules, the bot's rendered response and `chat.command`.
import { describe, expect, it } from 'vitest';
import { ChatCommandData } from '../../src/contract/index.ts';
import { api, RealtimeClient, simsPerTest, type Sim } from '../fixtures/sim.ts';

const newSim = simsPerTest();
const create = (sim: Sim, body: Record<string, unknown>, key?: string) =>
	api(sim, 'POST', '/commands', { body, key });
const line = async (
	sim: Sim,
	text: string,
	role = 'viewer',
	login = 'ana',
	platform = 'twitch'
) => {
	const res = await fetch(`${sim.origin}/_sim/chat/line`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ line: text, role, login, platform })
	});
	return (await res.json()) as { ran: boolean; why?: string; event_id?: string };
};

describe('custom commands on the simulator', () => {
	it('creates a command with the documented defaults and lists it, enabled or not', async () => {
		const sim = await newSim();
		const res = await create(sim, { name: 'hello', response: 'Hi {user}!' });
		expect(res.status).toBe(201);
		expect(res.body.command).toMatchObject({
			name: 'hello',
			permission: 'everyone',
			platforms: ['twitch', 'kick'],
			cooldown_seconds: 0,
			cooldown_type: 'global',
			aliases: [],
			enabled: true,
			listed: true
		});
		await create(sim, { name: 'off', response: 'benched', enabled: false });
		const list = await api(sim, 'GET', '/commands');
		expect(list.body.commands.map((c: { name: string }) => c.name)).toEqual(['hello', 'off']);
	});

	it('refuses a taken name, a taken alias and invalid fields with their codes', async () => {
		const sim = await newSim();
		await create(sim, { name: 'skip', response: 'Skipping', aliases: ['s'] });
		const codes = [];
		for (const body of [
			{ name: 'skip', response: 'again' },
			{ name: 's', response: 'alias as a name' },
			{ name: 'other', response: 'x', aliases: ['skip'] },
			{ name: 'Skip!', response: 'x' },
			{ name: 'bang', response: '!so' },
			{ name: 'long', response: 'x'.repeat(2501) }
		])
			codes.push((await create(sim, body)).body.code);
		expect(codes).toEqual([
			'command_exists',
			'command_exists',
			'alias_in_use',
			'bad_request',
			'invalid_command',
			'bad_request'
		]);
	});

	it('needs commands:manage, and deletes only a command that exists', async () => {
		const sim = await newSim();
		const key = sim.control.addKey({ scopes: ['tts:read'] });
		expect((await create(sim, { name: 'x', response: 'y' }, key.value)).body).toMatchObject({
			code: 'missing_scope',
			required_scope: 'commands:manage'
		});
		await create(sim, { name: 'x', response: 'y' });
		expect((await api(sim, 'DELETE', '/commands/x')).body).toEqual({ success: true });
		expect((await api(sim, 'DELETE', '/commands/x')).status).toBe(404);
		expect((await line(sim, '!x')).why).toBe('unknown');
	});

	it('runs a command from its name or an alias, posts the response and fires chat.command', async () => {
		const sim = await newSim();
		const rt = await RealtimeClient.connect(sim);
		await create(sim, { name: 'approve', response: '{user} approves {arg:1}', aliases: ['ok'] });
		const ran = await line(sim, '!ok   Ana  Maria ', 'moderator', 'modbob');
		expect(ran.ran).toBe(true);
		const event = await rt.next((m) => m.type === 'chat.command');
		expect(event.id).toBe(ran.event_id);
		expect(ChatCommandData.parse(event.data)).toMatchObject({
			command: 'approve',
			trigger: 'ok',
			args: 'Ana  Maria',
			platform: 'twitch',
			user: { login: 'modbob', role: 'moderator' }
		});
		expect(sim.control.chat().log()[0]).toMatchObject({ text: 'modbob approves Ana' });
		rt.close();
	});

	it('lets in the permission with its inclusions, and nobody below it', async () => {
		const sim = await newSim();
		await create(sim, { name: 'subs', response: 'ok', permission: 'subscriber' });
		await create(sim, { name: 'mods', response: 'ok', permission: 'moderator' });
		const ran = async (cmd: string) => {
			const out = [];
			for (const role of ['viewer', 'subscriber', 'moderator', 'broadcaster'])
				out.push((await line(sim, cmd, role, role)).ran);
			return out;
		};
		expect(await ran('!subs')).toEqual([false, true, true, true]);
		expect(await ran('!mods')).toEqual([false, false, true, true]);
		expect((await line(sim, '!mods', 'viewer')).why).toBe('permission');
	});

	it('holds a global cooldown for everyone and a per-user one for each user', async () => {
		const sim = await newSim();
		await create(sim, { name: 'g', response: 'ok', cooldown_seconds: 60 });
		await create(sim, {
			name: 'u',
			response: 'ok',
			cooldown_seconds: 60,
			cooldown_type: 'per_user'
		});
		expect((await line(sim, '!g', 'viewer', 'ana')).ran).toBe(true);
		expect((await line(sim, '!g', 'viewer', 'bob')).why).toBe('cooldown');
		expect((await line(sim, '!u', 'viewer', 'ana')).ran).toBe(true);
		expect((await line(sim, '!u', 'viewer', 'ana')).why).toBe('cooldown');
		expect((await line(sim, '!u', 'viewer', 'bob')).ran).toBe(true);
	});

	it('runs nothing for a disabled command, another platform, or a plain line', async () => {
		const sim = await newSim();
		const rt = await RealtimeClient.connect(sim);
		await create(sim, { name: 'off', response: 'x', enabled: false });
		await create(sim, { name: 'kickonly', response: 'x', platforms: ['kick'] });
		expect((await line(sim, '!off')).why).toBe('disabled');
		expect((await line(sim, '!kickonly', 'viewer', 'ana', 'twitch')).why).toBe('platform');
		expect((await line(sim, 'hello !kickonly')).why).toBe('not_a_command');
		expect((await line(sim, '!kickonly', 'viewer', 'ana', 'kick')).ran).toBe(true);
		await rt.next((m) => m.type === 'chat.command');
		expect(rt.events('chat.command')).toHaveLength(1);
		rt.close();
	});

	it('sends chat.command only to a credential with commands:manage', async () => {
		const sim = await newSim();
		const key = sim.control.addKey({ scopes: ['tts:read'] });
		const narrow = await RealtimeClient.connect(sim, key.value);
		const wide = await RealtimeClient.connect(sim);
		await create(sim, { name: 'hi', response: 'hi' });
		await line(sim, '!hi');
		await wide.next((m) => m.type === 'chat.command');
		await sim.control.createTip({ name: 'After', amount: 1, message: 'x', paid: true });
		await narrow.next((m) => m.type === 'tip.created');
		expect(narrow.events('chat.command')).toEqual([]);
		narrow.close();
		wide.close();
	});
});
