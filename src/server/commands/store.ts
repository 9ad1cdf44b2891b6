// Where the token endpoint keeps each streamer's chat commands (docs/dock.md, Commands): a kind of
// kept state (src/server/store/kept.ts). Its meta: each command's trigger, permission and the name
// the kit created upstream (the only names it ever deletes), and the ids of the last runs. Its
// entries: each run by its `chat.command` event id, noted before anything is done (add(): the first
// writer wins, on every instance and across restarts, so an event is acted on once), its outcome
// written after. A run noted and never given an outcome stays open: the dock shows it as unknown.
// Single mode keeps it in the journal COMMANDS_FILE; hosted mode in the database.
import { z } from 'zod/mini';
import { ChatRole, CommandName, CommandPermission, Platform } from '../../contract/index.ts';
import type { CommandRun } from '../../contract/control-commands.ts';
import { COMMAND_KEYS, isCommandKey, KIT_COMMANDS, type CommandKey } from '../../core/commands.ts';
import type { MemoryPushChannel } from '../live/push-channel.ts';
import { FileKeptStore } from '../store/file-kept.ts';
import type { Kept, KeptStore, Kind } from '../store/kept.ts';

/** Runs are kept a week (a redelivered event is refused that long), the dock lists the last 20. */
const KEEP_RUN_MS = 7 * 24 * 3600_000;
export const RUNS_LISTED = 20;
/** A run noted this long ago without an outcome is shown as unknown (its instance went away). */
export const UNKNOWN_AFTER_MS = 10_000;

const Setting = z.looseObject({
	trigger: CommandName,
	permission: CommandPermission,
	/** The name created upstream by the kit; null: off. */
	created: z.nullable(CommandName),
	problem: z.nullable(
		z.looseObject({ code: z.string(), message: z.string(), free: z.nullable(CommandName) })
	)
});
type Setting = z.infer<typeof Setting>;

const Meta = z.looseObject({
	settings: z.record(z.string(), Setting),
	/** The ids of the runs given an outcome, newest first. */
	recent: z.array(z.string())
});
type Meta = z.infer<typeof Meta>;

const Run = z.looseObject({
	at: z.number(),
	command: z.string(),
	who: z.string(),
	role: ChatRole,
	platform: Platform,
	args: z.string(),
	/** Which delivery noted it: only that one acts. */
	token: z.string(),
	outcome: z.enum(['noted', 'done', 'already', 'refused', 'failed', 'unknown']),
	message: z.string()
});
export type Run = z.infer<typeof Run>;
export type CommandsKept = Kept<Meta, Run>;

export const COMMANDS: Kind<Meta, Run> = {
	name: 'commands',
	meta: Meta,
	entry: Run,
	empty: () => ({ settings: {}, recent: [] }),
	open: (e) => e.outcome === 'noted',
	dropAt: (e) => e.at + KEEP_RUN_MS
};

export type CommandsStore = KeptStore<Meta, Run>;

/** Single mode's: the journal `where` (null: memory only, tests and the demo). */
export const commandsFile = (where: string | null, push?: MemoryPushChannel): CommandsStore =>
	new FileKeptStore(COMMANDS, { where, variable: 'COMMANDS_FILE', unreadable: 'stop', push });

/** A command's setting, the default one when none is stored. */
export function settingOf(meta: Meta, key: CommandKey): Setting {
	return (
		meta.settings[key] ?? {
			trigger: KIT_COMMANDS[key].trigger,
			permission: 'moderator',
			created: null,
			problem: null
		}
	);
}

/** The kit's command that the upstream's `name` is, if the kit created it. */
export function keyOfCreated(meta: Meta, name: string): CommandKey | null {
	return COMMAND_KEYS.find((key) => meta.settings[key]?.created === name) ?? null;
}

/** The runs the dock lists, newest first: the noted ones (running or unknown), then the recent. */
export function runsOf(state: CommandsKept, now: number): CommandRun[] {
	const ids = [
		...Object.keys(state.entries).filter((id) => state.entries[id].outcome === 'noted'),
		...state.recent
	];
	return [...new Set(ids)]
		.map((id) => [id, state.entries[id]] as const)
		.filter(([, run]) => run !== undefined && isCommandKey(run.command))
		.sort(([, a], [, b]) => b.at - a.at)
		.slice(0, RUNS_LISTED)
		.map(([id, run]) => ({
			id,
			at: new Date(run.at).toISOString(),
			command: run.command,
			who: run.who,
			role: run.role,
			platform: run.platform,
			args: run.args,
			outcome:
				run.outcome !== 'noted'
					? run.outcome
					: now - run.at > UNKNOWN_AFTER_MS
						? 'unknown'
						: 'running',
			message:
				run.outcome === 'noted' && now - run.at > UNKNOWN_AFTER_MS
					? 'noted, and no outcome followed: check the stream before running it again'
					: run.message
		}));
}
