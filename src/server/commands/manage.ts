// The dock's Commands section (docs/dock.md, Commands): each kit command turned on (created upstream
// with POST /commands), off (DELETE /commands/{name}, only a name the kit created), renamed or given
// another permission; a trigger taken upstream (409 `command_exists`, `alias_in_use`) is kept as the
// command's problem with a free name read from GET /commands. The streamer's own commands are never
// changed or deleted. One change of a streamer's commands at a time (the control lock).
import type { CommandChangeBody, CommandsAnswer } from '../../contract/control-commands.ts';
import { ROUTES } from '../../contract/index.ts';
import { COMMAND_KEYS, freeTrigger, KIT_COMMANDS, type CommandKey } from '../../core/commands.ts';
import { ask } from '../control-actions.ts';
import type { ControlLock } from '../control-lock.ts';
import { HttpError } from '../http-error.ts';
import type { UpstreamClient } from '../upstream.ts';
import { runsOf, settingOf, type CommandsKept, type CommandsStore } from './store.ts';

type Setting = ReturnType<typeof settingOf>;

/** What GET /control/commands answers. */
export async function commandsAnswer(
	store: CommandsStore,
	streamer: string,
	now = Date.now()
): Promise<CommandsAnswer> {
	const meta = await store.read(streamer);
	const state: CommandsKept = await store.read(streamer, meta.recent);
	return answerOf(state, now);
}

function answerOf(state: CommandsKept, now: number): CommandsAnswer {
	return {
		commands: COMMAND_KEYS.map((key) => {
			const s = settingOf(state, key);
			return {
				key,
				label: KIT_COMMANDS[key].label,
				trigger: s.created ?? s.trigger,
				permission: s.permission,
				on: s.created !== null,
				problem: s.problem
			};
		}),
		runs: runsOf(state, now)
	};
}

/** POST /control/commands/:command, in the streamer's control lock. */
export async function changeCommand(
	parts: { store: CommandsStore; lock: ControlLock },
	streamer: string,
	upstream: UpstreamClient,
	key: CommandKey,
	body: CommandChangeBody
): Promise<CommandsAnswer> {
	const { store, lock } = parts;
	await lock(streamer, async () => {
		const was = settingOf(await store.read(streamer), key);
		const want: Setting = {
			...was,
			trigger: body.trigger ?? was.created ?? was.trigger,
			permission: body.permission ?? was.permission,
			problem: null
		};
		const same = was.created === want.trigger && was.permission === want.permission;
		if (was.created !== null && !(body.on && same)) await deleteOwn(upstream, was.created);
		want.created = body.on && same ? was.created : null;
		if (body.on && !same) Object.assign(want, await create(upstream, key, want));
		await store.update(streamer, (state, tell) => {
			state.settings[key] = want;
			tell({ type: 'commands' });
		});
	});
	return commandsAnswer(store, streamer);
}

/** Deletes a command the kit created; one already gone is fine. */
async function deleteOwn(upstream: UpstreamClient, name: string): Promise<void> {
	try {
		await ask(upstream, ROUTES.commandDelete, { params: { commandName: name } });
	} catch (err) {
		if (!(err instanceof HttpError && err.status === 404)) throw err;
	}
}

/** Creates the command; a taken trigger is the setting's problem, with a free name offered. */
async function create(
	upstream: UpstreamClient,
	key: CommandKey,
	want: Setting
): Promise<Pick<Setting, 'created' | 'problem'>> {
	try {
		await ask(upstream, ROUTES.commandCreate, {
			body: {
				name: want.trigger,
				response: KIT_COMMANDS[key].response,
				description: KIT_COMMANDS[key].label,
				permission: want.permission,
				platforms: ['twitch', 'kick']
			}
		});
		return { created: want.trigger, problem: null };
	} catch (err) {
		if (!(err instanceof HttpError) || !['command_exists', 'alias_in_use'].includes(err.code))
			throw err;
		const { commands } = await ask(upstream, ROUTES.commandsList);
		const taken = new Set(commands.flatMap((c) => [c.name, ...c.aliases]));
		const free = freeTrigger(taken, want.trigger);
		return { created: null, problem: { code: err.code, message: err.message, free } };
	}
}
