// The streamer's custom chat commands (docs/upstream.md, custom commands; docs/simulator.md): kept
// per account, created and deleted through the API, and run from a chat line as the bot does:
// the trigger (the name or an alias) of an enabled command on the line's platform, the
// permission with its inclusions, the cooldown (global or per user), then the bot posts the
// rendered response and `chat.command` fires.
import { allowed } from '../core/commands.ts';
import {
	COMMAND_LINE_MAX,
	type ChatRole,
	type CommandCreateRequest,
	type CommandPermission,
	type CustomCommand,
	type Platform
} from '../contract/index.ts';
import type { SimChat } from './chat.ts';
import { notFound, SimError } from './errors.ts';
import { randomToken } from './model/ids.ts';
import type { SimModel } from './model/model.ts';

/** The bot's own triggers: no custom command may take them (docs/simulator.md). */
export const BUILT_IN_TRIGGERS = ['commands'];

/** Who typed a chat line (the simulator's chat box, tests). */
export interface ChatUser {
	platform_user_id: string;
	login: string;
	display_name: string;
	role: ChatRole;
}

/** What became of a chat line: `ran` with the event fired, or why nothing ran. */
export type LineOutcome =
	| { ran: true; event_id: string; response: string }
	| {
			ran: false;
			why: 'not_a_command' | 'unknown' | 'disabled' | 'platform' | 'permission' | 'cooldown';
	  };

/**
 * The response with the simulator's variables filled: {user} (who typed it), {touser} (the first
 * argument without `@`, else who typed it), {args} and {arg:N} (1-based); any other variable is
 * left as written. Cut to the chat line's limit.
 */
export function render(response: string, user: ChatUser, args: string): string {
	const words = args.split(/\s+/).filter(Boolean);
	const text = response
		.replaceAll('{user}', user.display_name)
		.replaceAll('{touser}', words[0]?.replace(/^@/, '') ?? user.display_name)
		.replaceAll('{args}', args)
		.replace(/\{arg:(\d{1,2})\}/g, (_, n: string) => words[Number(n) - 1] ?? '');
	return text.slice(0, COMMAND_LINE_MAX);
}

export class SimCommands {
	private readonly commands = new Map<string, CustomCommand>();
	/** Last run per command (`name`) and per command and user (`name user`), ms. */
	private readonly lastRun = new Map<string, number>();

	constructor(
		private readonly model: SimModel,
		private readonly chat: SimChat,
		private readonly now: () => number = Date.now
	) {}

	list(): CustomCommand[] {
		return [...this.commands.values()];
	}

	create(body: CommandCreateRequest): CustomCommand {
		const { name } = body;
		if (/^[/!]/.test(body.response))
			throw new SimError(400, 'invalid_command', 'response: cannot start with / or !');
		if (BUILT_IN_TRIGGERS.includes(name))
			throw new SimError(400, 'invalid_command', `name: !${name} is one of the bot's own`);
		if (this.find(name)) throw new SimError(409, 'command_exists', `!${name} already exists`);
		const aliases = [...new Set(body.aliases ?? [])];
		for (const alias of aliases)
			if (alias === name || this.find(alias) || BUILT_IN_TRIGGERS.includes(alias))
				throw new SimError(409, 'alias_in_use', `the alias !${alias} is another trigger`);
		const at = this.model.iso();
		const command: CustomCommand = {
			name,
			response: body.response,
			description: body.description ?? null,
			listed: body.listed ?? true,
			ai_memory: body.ai_memory ?? false,
			ai_memory_shared: body.ai_memory_shared ?? false,
			platforms: [...new Set(body.platforms ?? ['twitch', 'kick'])],
			permission: body.permission ?? 'everyone',
			cooldown_seconds: body.cooldown_seconds ?? 0,
			cooldown_type: body.cooldown_type ?? 'global',
			aliases,
			enabled: body.enabled ?? true,
			created_at: at,
			updated_at: at
		};
		this.commands.set(name, command);
		return command;
	}

	delete(name: string): void {
		if (!this.commands.delete(name)) throw notFound(`command !${name}`);
		for (const key of [...this.lastRun.keys()])
			if (key === name || key.startsWith(`${name} `)) this.lastRun.delete(key);
	}

	/** The command a trigger names: its name or one of its aliases. */
	private find(trigger: string): CustomCommand | undefined {
		return this.commands.get(trigger) ?? this.list().find((c) => c.aliases.includes(trigger));
	}

	/** A chat line as the bot hears it: runs the command it triggers, or says why not. */
	hear(line: string, user: ChatUser, platform: Platform): LineOutcome {
		const m = /^!(\S+)\s*([\s\S]*)$/.exec(line.trim());
		if (!m) return { ran: false, why: 'not_a_command' };
		const trigger = m[1].toLowerCase();
		const command = this.find(trigger);
		if (!command) return { ran: false, why: 'unknown' };
		if (!command.enabled) return { ran: false, why: 'disabled' };
		if (!command.platforms.includes(platform) || !this.chat.switches.channels.includes(platform))
			return { ran: false, why: 'platform' };
		if (!allowed(command.permission as CommandPermission, user.role))
			return { ran: false, why: 'permission' };
		const cooldownKey =
			command.cooldown_type === 'per_user'
				? `${command.name} ${platform}:${user.platform_user_id}`
				: command.name;
		const now = this.now();
		const last = this.lastRun.get(cooldownKey);
		if (last !== undefined && now - last < command.cooldown_seconds * 1000)
			return { ran: false, why: 'cooldown' };
		this.lastRun.set(cooldownKey, now);
		const args = m[2].trim();
		const response = render(command.response, user, args);
		this.say(response, platform);
		const event = this.model.emit('chat.command', {
			command: command.name,
			trigger,
			args,
			platform,
			user,
			message_id: `msg_${randomToken(9)}`
		});
		return { ran: true, event_id: event.id, response };
	}

	/** The bot posts the response as usual; a bot that cannot speak now changes nothing else. */
	private say(response: string, platform: Platform): void {
		try {
			this.chat.send(response, platform, { id: 'sim_bot', name: 'Chat bot' });
		} catch {
			// Logged nowhere: the command ran; the chat's switches say why the bot was silent.
		}
	}
}
