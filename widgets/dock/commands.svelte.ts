// The dock's Commands section (docs/dock.md, "Chat commands"): the kit's chat commands as GET
// /control/commands lists them, each turned on (created upstream) or off (deleted upstream) with
// the trigger and permission its row shows, and the last runs. Read when the section opens and
// whenever the push channel says the commands changed (`commands`, and `hello`/`resync` after a
// reconnect): never polled. A row's edits are its own until saved: a read that comes meanwhile
// changes only the rows nobody is editing.
import type { LiveMessage } from '../../src/contract/index.ts';
import { COMMAND_NAME, type CommandPermission } from '../../src/contract/commands.ts';
import type {
	CommandRun,
	CommandState,
	CommandsAnswer
} from '../../src/contract/control-commands.ts';
import { actionOutcome, readFailure, type Outcome } from './actions.ts';
import { CommandsClient } from './commands-client.ts';
import type { DockPart } from './dock-live.ts';
import type { DockState } from './dock.svelte.ts';

/** Changes in a burst (a run noted, then its outcome) are read once, this long after the first. */
const REFRESH_MS = 150;

/** The outcome of a row's button (Outcome.svelte shows it by this id). */
export const commandId = (key: string) => `command:${key}`;

/** A row's fields as the streamer edits them. */
export interface CommandDraft {
	trigger: string;
	permission: CommandPermission;
}

/** What a run's outcome is called in the list. */
export const RUN_WORDS: Record<CommandRun['outcome'], string> = {
	running: 'running',
	done: 'done',
	already: 'already',
	refused: 'refused',
	failed: 'failed',
	unknown: 'unknown'
};

/** A trigger as typed: without its `!` and spaces, in lower case (as the upstream keeps it). */
export const typedTrigger = (typed: string) => typed.trim().replace(/^!+/, '').toLowerCase();

/** Why a trigger typed cannot be created, or null. */
export function triggerProblem(typed: string): string | null {
	const t = typedTrigger(typed);
	if (t === '') return 'type a trigger';
	return COMMAND_NAME.test(t) ? null : 'a trigger is 1 to 50 of a-z, 0-9, - and _';
}

const draftOf = (c: CommandState): CommandDraft => ({
	trigger: c.trigger,
	permission: c.permission
});
const sameDraft = (a: CommandDraft, b: CommandDraft) =>
	typedTrigger(a.trigger) === b.trigger && a.permission === b.permission;

export class DockCommands implements DockPart {
	/** The kit's commands as last read or changed; null until read. */
	commands = $state.raw<CommandState[] | null>(null);
	/** The last runs, newest first. */
	runs = $state.raw<CommandRun[]>([]);
	problem = $state<string | null>(null);
	/** Each row's trigger and permission as shown, by command. */
	drafts = $state<Record<string, CommandDraft>>({});

	readonly #dock: DockState;
	readonly #client: CommandsClient;
	#reads = 0;
	#timer: ReturnType<typeof setTimeout> | null = null;
	#closed = false;

	constructor(dock: DockState) {
		this.#dock = dock;
		this.#client = new CommandsClient(dock.client.control);
	}

	/** Reads the commands, and follows the push channel from now on. */
	start(): this {
		this.#dock.attach(this);
		if (!this.#closed) void this.refresh();
		return this;
	}

	close(): void {
		this.#closed = true;
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
	}

	onLive(m: LiveMessage): void {
		if (this.#closed || !(m.type === 'commands' || m.type === 'hello' || m.type === 'resync'))
			return;
		if (this.#timer !== null) return;
		this.#timer = setTimeout(() => {
			this.#timer = null;
			void this.refresh();
		}, REFRESH_MS);
	}

	/** GET /control/commands; a later read's answer wins over an earlier one's. */
	async refresh(): Promise<void> {
		const n = ++this.#reads;
		const res = await this.#client.list();
		if (n !== this.#reads || this.#closed) return;
		this.problem = res.ok ? null : `could not read the commands: ${readFailure(res)}`;
		if (res.ok) this.#adopt(res.body);
	}

	/** Whether a row's fields differ from what is stored. */
	edited(key: string): boolean {
		const c = this.commands?.find((c) => c.key === key);
		const d = this.drafts[key];
		return !!c && !!d && !sameDraft(d, draftOf(c));
	}

	/**
	 * On or Off: on creates the command upstream with the row's trigger and permission; off deletes
	 * it upstream (the row keeps them for next time).
	 */
	toggle(key: string): Promise<void> {
		const c = this.commands?.find((c) => c.key === key);
		return c ? this.#change(key, !c.on) : Promise.resolve();
	}

	/** Save of a command that is on: made again upstream with the row's trigger and permission. */
	save(key: string): Promise<void> {
		return this.#change(key, true);
	}

	/** The free name offered for a taken trigger, put in the row and turned on with. */
	useFree(key: string, free: string): Promise<void> {
		const d = this.drafts[key];
		if (d) this.drafts[key] = { ...d, trigger: free };
		return this.#change(key, true);
	}

	#change(key: string, on: boolean): Promise<void> {
		return this.#dock.press(commandId(key), async () => {
			const draft = this.drafts[key];
			if (!draft) return null;
			const problem = triggerProblem(draft.trigger);
			if (problem) return { kind: 'refused', text: problem, reread: false };
			this.#reads++;
			const res = await this.#client.change(key, {
				on,
				trigger: typedTrigger(draft.trigger),
				permission: draft.permission
			});
			if (!res.ok) return actionOutcome(res);
			this.#adopt(res.body, key);
			return changed(
				res.body.commands.find((c) => c.key === key),
				on
			);
		});
	}

	/** An answer's commands and runs; the drafts of the rows not edited (and of `saved`) follow. */
	#adopt(answer: CommandsAnswer, saved?: string): void {
		const before = new Map((this.commands ?? []).map((c) => [c.key, draftOf(c)]));
		const drafts = { ...this.drafts };
		for (const c of answer.commands) {
			const d = drafts[c.key];
			const was = before.get(c.key);
			if (!d || c.key === saved || (was && sameDraft(d, was))) drafts[c.key] = draftOf(c);
		}
		this.drafts = drafts;
		this.commands = answer.commands;
		this.runs = answer.runs;
	}
}

/** What a change did, in words: on with its trigger, off, or the taken trigger and a free one. */
function changed(c: CommandState | undefined, on: boolean): Outcome {
	if (!c) return { kind: 'done', text: 'done', reread: false };
	if (on && c.problem)
		return { kind: 'refused', text: `not turned on: !${c.trigger} is taken`, reread: false };
	const text = c.on ? `on: !${c.trigger} answers in chat` : 'off: deleted from chat';
	return { kind: 'done', text, reread: false };
}
