// Custom chat commands (docs/upstream.md, custom commands): the writable fields of a command and
// their limits, and the payload of the `chat.command` event a run fires (its calls: routes-commands.ts).
import { z } from 'zod/mini';
import { Platform } from './common.ts';

/** A trigger without its `!`: lowercase letters, digits, hyphen, underscore, at most 50. */
export const COMMAND_NAME = /^[a-z0-9_-]{1,50}$/;
export const CommandName = /*@__PURE__*/ z
	.string()
	.check(z.regex(COMMAND_NAME, 'command names are 1 to 50 of a-z 0-9 _ -'));

export const COMMAND_PERMISSIONS = ['everyone', 'subscriber', 'moderator'] as const;
export const CommandPermission = z.enum(COMMAND_PERMISSIONS);
export type CommandPermission = z.infer<typeof CommandPermission>;

/** The response template's limit, and the rendered chat line's. */
export const COMMAND_RESPONSE_MAX = 2500;
export const COMMAND_LINE_MAX = 500;
export const COMMAND_ALIASES_MAX = 10;
export const COMMAND_COOLDOWN_MAX = 3600;

const writable = {
	name: CommandName,
	response: /*@__PURE__*/ z.string().check(z.minLength(1), z.maxLength(COMMAND_RESPONSE_MAX)),
	description: z.optional(z.nullable(/*@__PURE__*/ z.string().check(z.maxLength(200)))),
	listed: z.optional(z.boolean()),
	ai_memory: z.optional(z.boolean()),
	ai_memory_shared: z.optional(z.boolean()),
	platforms: z.optional(/*@__PURE__*/ z.array(Platform).check(z.minLength(1), z.maxLength(2))),
	permission: z.optional(CommandPermission),
	cooldown_seconds: z.optional(
		/*@__PURE__*/ z.int().check(z.minimum(0), z.maximum(COMMAND_COOLDOWN_MAX))
	),
	cooldown_type: z.optional(z.enum(['global', 'per_user'])),
	aliases: z.optional(/*@__PURE__*/ z.array(CommandName).check(z.maxLength(COMMAND_ALIASES_MAX))),
	enabled: z.optional(z.boolean())
};

/** POST /commands: the writable fields; `name` and `response` required. */
export const CommandCreateRequest = z.looseObject(writable);
export type CommandCreateRequest = z.infer<typeof CommandCreateRequest>;

/** The roles a `chat.command`'s user has, lowest first (each the highest that applies). */
export const CHAT_ROLES = ['viewer', 'subscriber', 'moderator', 'broadcaster'] as const;
export const ChatRole = z.enum(CHAT_ROLES);
export type ChatRole = z.infer<typeof ChatRole>;

/** The payload of `chat.command` (docs/upstream.md, what the event carries). */
export const ChatCommandData = z.looseObject({
	command: CommandName,
	trigger: CommandName,
	args: z.string(),
	platform: Platform,
	user: z.looseObject({
		platform_user_id: z.string(),
		login: z.string(),
		display_name: z.string(),
		role: ChatRole
	}),
	message_id: z.string()
});
export type ChatCommandData = z.infer<typeof ChatCommandData>;
