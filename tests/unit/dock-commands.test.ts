// The dock's Chat commands (widgets/dock/commands.svelte.ts) over a fake fetch: a burst of push
// messages read once, a row's edits kept while another dock's change is read, Turn on sent with the
// row's trigger as the upstream keeps it, a taken trigger said and its free name used, and a
// trigger that cannot be created refused before anything is sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandsAnswer, CommandState } from '../../src/contract/control-commands.ts';
import { DockCommands, triggerProblem, typedTrigger } from '../../widgets/dock/commands.svelte.ts';
import { ControlClient } from '../../widgets/dock/control-client.ts';
import { DockState } from '../../widgets/dock/dock.svelte.ts';
import { liveReads } from '../../widgets/dock/dock-live.ts';

const command = (key: string, extra: Partial<CommandState> = {}): CommandState => ({
	key,
	label: `Do ${key}`,
	trigger: key,
	permission: 'moderator',
	on: false,
	problem: null,
	...extra
});
const answer = (...commands: CommandState[]): CommandsAnswer => ({ commands, runs: [] });

function setup(first: CommandsAnswer) {
	let listed = first;
	const lists: URL[] = [];
	const changes: { key: string; body: unknown }[] = [];
	let reply: (key: string, body: { on: boolean; trigger: string }) => [number, unknown] = (
		key,
		body
	) => [200, answer(command(key, { on: body.on, trigger: body.trigger }))];
	const fetch = vi.fn(async (input: string, init: RequestInit = {}) => {
		const url = new URL(input, 'http://dock.test');
		if (init.method === 'GET' || !init.method) {
			lists.push(url);
			return Response.json(listed);
		}
		const key = url.pathname.split('/').pop()!;
		const body = JSON.parse(init.body as string);
		changes.push({ key, body });
		const [status, json] = reply(key, body);
		return Response.json(json, { status });
	});
	const dock = new DockState({ client: new ControlClient({ key: 'ctl_0123456789abcdef' }, fetch) });
	const commands = new DockCommands(dock);
	return {
		dock,
		commands,
		lists,
		changes,
		list: (a: CommandsAnswer) => void (listed = a),
		answer: (r: typeof reply) => void (reply = r)
	};
}

async function settle(ms = 0): Promise<void> {
	await vi.advanceTimersByTimeAsync(ms);
	for (let i = 0; i < 5; i++) await Promise.resolve();
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('the Chat commands section', () => {
	it('is read once for a burst of push messages, and the dock reads nothing else for them', async () => {
		const { commands, lists } = setup(answer(command('skip')));
		commands.start();
		await settle();
		expect(lists).toHaveLength(1);
		for (let i = 0; i < 4; i++) commands.onLive({ type: 'commands' });
		await settle(200);
		expect(lists).toHaveLength(2);
		expect(liveReads({ type: 'commands' })).toEqual({ snapshots: [], rules: false });
	});

	it('keeps a row being edited when another dock’s change is read; the others follow', async () => {
		const t = setup(answer(command('skip'), command('reject')));
		t.commands.start();
		await settle();
		t.commands.drafts.skip = { trigger: 'next', permission: 'everyone' };
		t.list(answer(command('skip', { trigger: 'other' }), command('reject', { trigger: 'no' })));
		t.commands.onLive({ type: 'commands' });
		await settle(200);
		expect(t.commands.drafts.skip).toEqual({ trigger: 'next', permission: 'everyone' });
		expect(t.commands.drafts.reject.trigger).toBe('no');
		expect(t.commands.edited('skip')).toBe(true);
	});

	it('turns a row on with its trigger as the upstream keeps it, and says so', async () => {
		const t = setup(answer(command('skip')));
		t.commands.start();
		await settle();
		t.commands.drafts.skip = { trigger: ' !Next ', permission: 'subscriber' };
		await t.commands.toggle('skip');
		expect(t.changes).toEqual([
			{ key: 'skip', body: { on: true, trigger: 'next', permission: 'subscriber' } }
		]);
		expect(t.dock.outcomes['command:skip']).toMatchObject({
			kind: 'done',
			text: 'on: !next answers in chat'
		});
		expect(t.commands.edited('skip')).toBe(false);
	});

	it('a taken trigger is said, and its free name turns the command on', async () => {
		const t = setup(answer(command('skip')));
		t.answer((key, body) => [
			200,
			answer(
				body.trigger === 'skip'
					? command(key, {
							problem: { code: 'command_exists', message: 'taken', free: 'skip2' }
						})
					: command(key, { on: true, trigger: body.trigger })
			)
		]);
		t.commands.start();
		await settle();
		await t.commands.toggle('skip');
		expect(t.dock.outcomes['command:skip']).toMatchObject({
			kind: 'refused',
			text: 'not turned on: !skip is taken'
		});
		await t.commands.useFree('skip', 'skip2');
		expect(t.changes.map((c) => c.body)).toEqual([
			{ on: true, trigger: 'skip', permission: 'moderator' },
			{ on: true, trigger: 'skip2', permission: 'moderator' }
		]);
		expect(t.commands.commands?.[0]).toMatchObject({ on: true, trigger: 'skip2' });
	});

	it('refuses a trigger that cannot be created before anything is sent', async () => {
		const t = setup(answer(command('skip')));
		t.commands.start();
		await settle();
		t.commands.drafts.skip = { trigger: 'two words', permission: 'moderator' };
		await t.commands.toggle('skip');
		expect(t.changes).toEqual([]);
		expect(t.dock.outcomes['command:skip']?.kind).toBe('refused');
		expect(typedTrigger('!!Skip')).toBe('skip');
		expect(triggerProblem('')).toBe('type a trigger');
		expect(triggerProblem('x'.repeat(51))).not.toBeNull();
		expect(triggerProblem('skip_2-b')).toBeNull();
	});
});
