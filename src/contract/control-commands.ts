// The dock's Commands section (docs/dock.md, Commands): what GET /control/commands answers, and the
// body of POST /control/commands/:command that turns one on (created upstream) or off (deleted
// upstream), renamed or with another permission. Ours, not the upstream's.
import { z } from 'zod/mini';
import { ChatRole, CommandName, CommandPermission } from './commands.ts';
import { DateTime, Platform } from './common.ts';
import { route } from './control-route.ts';

/** What became of a run: `unknown` when it was noted and no outcome followed (a takeover). */
export const RUN_OUTCOMES = ['running', 'done', 'already', 'refused', 'failed', 'unknown'] as const;

export const CommandRun = z.looseObject({
	id: z.string(),
	at: DateTime,
	command: z.string(),
	/** The chat name of who ran it, shown as text. */
	who: z.string(),
	role: ChatRole,
	platform: Platform,
	args: z.string(),
	outcome: z.enum(RUN_OUTCOMES),
	message: z.string()
});
export type CommandRun = z.infer<typeof CommandRun>;

export const CommandState = z.looseObject({
	/** The kit's name of the command (src/core/commands.ts KIT_COMMANDS). */
	key: z.string(),
	label: z.string(),
	trigger: CommandName,
	permission: CommandPermission,
	/** Created upstream by the kit (and so answering in chat). */
	on: z.boolean(),
	/** Why the last turning on failed (`command_exists`, `alias_in_use`, ...), with a free name. */
	problem: z.nullable(
		z.looseObject({ code: z.string(), message: z.string(), free: z.nullable(CommandName) })
	)
});
export type CommandState = z.infer<typeof CommandState>;

export const CommandsAnswer = z.looseObject({
	commands: z.array(CommandState),
	/** The last runs, newest first. */
	runs: z.array(CommandRun)
});
export type CommandsAnswer = z.infer<typeof CommandsAnswer>;

export const CommandChangeBody = z.strictObject({
	on: z.boolean(),
	trigger: z.optional(CommandName),
	permission: z.optional(CommandPermission)
});
export type CommandChangeBody = z.infer<typeof CommandChangeBody>;

/** The Commands section: each command, on or off, and the last runs. */
export const commands = /*@__PURE__*/ route({
	name: 'commands',
	method: 'GET',
	path: '/commands',
	credential: true,
	answer: CommandsAnswer
});
/** Turn one on (created upstream), off (deleted upstream), renamed or with another permission. */
export const changeCommand = /*@__PURE__*/ route({
	name: 'changeCommand',
	method: 'POST',
	path: '/commands/:command',
	credential: true,
	upstream: true,
	answer: CommandsAnswer
});

/** A kit command's name in the path (src/core/commands.ts KIT_COMMANDS). */
export const CommandKeyParam = /*@__PURE__*/ z
	.string()
	.check(z.regex(/^[a-z]{1,20}$/, 'not a command of the kit'));
