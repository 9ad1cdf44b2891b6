// The kit's chat commands (docs/dock.md, Commands): which dock button each one presses, its
// default trigger, and the checks a run passes before it acts: the role again against the
// permission the streamer chose, and the arguments (a name for Approve and Reject). Pure.
import { CHAT_ROLES, type ChatRole, type CommandPermission } from '../contract/commands.ts';
import type { ActionName } from '../contract/control.ts';

/** What a command does: a dock action (src/contract/control.ts) or Approve/Reject of a held tip. */
export type CommandDoes = { action: ActionName } | { verdict: 'approve' | 'reject' };

export interface KitCommand {
	does: CommandDoes;
	/** The trigger it is created with upstream, without `!`. */
	trigger: string;
	/** What the bot answers in chat when it runs. */
	response: string;
	/** What the dock calls it. */
	label: string;
}

/**
 * Short distinct names a moderator types fast, each one word (docs/dock.md says why): never the
 * bot's own, and unlike the common `!so`, `!lurk` or `!discord` of other bots.
 */
export const KIT_COMMANDS = {
	skip: {
		does: { action: 'tts-skip' },
		trigger: 'skip',
		response: 'Skipping the tip being read.',
		label: 'Skip the tip being read'
	},
	skipvideo: {
		does: { action: 'media-skip' },
		trigger: 'skipvideo',
		response: 'Skipping the video.',
		label: 'Skip the video'
	},
	pausetts: {
		does: { action: 'tts-pause' },
		trigger: 'pausetts',
		response: 'Tips paused.',
		label: 'Pause the tips'
	},
	resumetts: {
		does: { action: 'tts-resume' },
		trigger: 'resumetts',
		response: 'Tips resumed.',
		label: 'Resume the tips'
	},
	pausevideo: {
		does: { action: 'media-pause' },
		trigger: 'pausevideo',
		response: 'Videos paused.',
		label: 'Pause the videos'
	},
	resumevideo: {
		does: { action: 'media-resume' },
		trigger: 'resumevideo',
		response: 'Videos resumed.',
		label: 'Resume the videos'
	},
	hidevideo: {
		does: { action: 'media-hide' },
		trigger: 'hidevideo',
		response: 'Video player hidden.',
		label: 'Hide the video player'
	},
	showvideo: {
		does: { action: 'media-show' },
		trigger: 'showvideo',
		response: 'Video player shown.',
		label: 'Show the video player'
	},
	approve: {
		does: { verdict: 'approve' },
		trigger: 'approve',
		response: 'Approving the held tip of {args}.',
		label: 'Approve the oldest held tip of a name'
	},
	reject: {
		does: { verdict: 'reject' },
		trigger: 'reject',
		response: 'Rejecting the held tip of {args}.',
		label: 'Reject the oldest held tip of a name'
	}
} as const satisfies Record<string, KitCommand>;

export type CommandKey = keyof typeof KIT_COMMANDS;
export const COMMAND_KEYS = Object.keys(KIT_COMMANDS) as CommandKey[];

export function isCommandKey(key: string): key is CommandKey {
	return Object.hasOwn(KIT_COMMANDS, key);
}

/** The longest arguments a run takes (a tipper's name is at most 100 on a tip page). */
export const ARGS_MAX = 100;

/** The lowest role each permission lets in: `subscriber` includes moderators, and so on. */
const LOWEST: Record<CommandPermission, ChatRole> = {
	everyone: 'viewer',
	subscriber: 'subscriber',
	moderator: 'moderator'
};

/** Whether `role` may run a command of `permission` (the upstream's inclusions). */
export function allowed(permission: CommandPermission, role: ChatRole): boolean {
	return CHAT_ROLES.indexOf(role) >= CHAT_ROLES.indexOf(LOWEST[permission]);
}

/** A run's input checked: what to do, or why it does nothing. */
export type Checked =
	{ ok: true; does: CommandDoes; name: string | null } | { ok: false; why: string };

/** The role and the arguments of a run of `key`, checked before anything is done. */
export function checkRun(
	key: CommandKey,
	permission: CommandPermission,
	role: ChatRole,
	args: string
): Checked {
	if (!allowed(permission, role))
		return { ok: false, why: `a ${role} may not run it (${permission} only)` };
	if (args.length > ARGS_MAX) return { ok: false, why: `arguments over ${ARGS_MAX} characters` };
	const does: CommandDoes = KIT_COMMANDS[key].does;
	if (!('verdict' in does)) return { ok: true, does, name: null };
	const name = args.trim().replace(/^@/, '').trim();
	if (name === '') return { ok: false, why: 'no name given' };
	return { ok: true, does, name };
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The held tip a name picks, the oldest first: the tips of the tipper whose name is the one given
 * (case and spacing aside); else of the one tipper whose name starts with it. Two tippers whose
 * names start with it pick nothing: the moderator types more of the name.
 */
export function pickHeld<T extends { name: string }>(
	held: readonly T[],
	name: string
): { ok: true; tip: T } | { ok: false; why: string } {
	const wanted = fold(name);
	const exact = held.filter((t) => fold(t.name) === wanted);
	if (exact.length) return { ok: true, tip: exact[0] };
	const starts = held.filter((t) => fold(t.name).startsWith(wanted));
	const tippers = [...new Set(starts.map((t) => t.name))];
	if (tippers.length === 0) return { ok: false, why: `nothing held for ${name}` };
	if (tippers.length > 1)
		return { ok: false, why: `${tippers.length} held tippers match ${name}: type the whole name` };
	return { ok: true, tip: starts[0] };
}

/** A free trigger near a taken one: `skip` → `skip2`, `skip3`, ... (at most 50 characters). */
export function freeTrigger(taken: ReadonlySet<string>, trigger: string): string {
	for (let n = 2; ; n++) {
		const name = `${trigger.slice(0, 50 - String(n).length)}${n}`;
		if (!taken.has(name)) return name;
	}
}
