// Acts on each `chat.command` the streamer's intake hears (docs/dock.md, Commands), exactly once:
// the run is noted in the store under its event id before anything is done (the first writer wins,
// on every instance, across restarts and takeovers); a delivery that finds it noted by another
// does nothing. Then the role and the arguments are checked again (src/core/commands.ts), the
// run acts (act.ts), and its outcome is written. A run noted whose outcome never came is not
// acted on again: the dock shows it as unknown. The store is waited for briefly
// (src/server/deadline.ts): past it nothing is done, and the note, if it landed, shows as unknown.
import { randomUUID } from 'node:crypto';
import {
	ChatCommandData,
	type CommandPermission,
	type EventEnvelope
} from '../../contract/index.ts';
import { checkRun, type CommandKey } from '../../core/commands.ts';
import { StoreDeadline } from '../deadline.ts';
import type { UpstreamClient } from '../upstream.ts';
import { act, type ActParts, type Outcome } from './act.ts';
import { keyOfCreated, RUNS_LISTED, settingOf, type CommandsStore, type Run } from './store.ts';

/** How long each of the two store steps before acting may take (the run acts within 1 s). */
const COMMAND_STORE_MS = 400;

export interface RunnerParts extends ActParts {
	store: CommandsStore;
	upstreamOf: (streamer: string) => UpstreamClient;
	log?: (line: string) => void;
	now?: () => number;
}

export class CommandRunner {
	readonly #deadline = new StoreDeadline(COMMAND_STORE_MS);
	readonly #log: (line: string) => void;
	readonly #now: () => number;
	/** Runs under way (tests wait for them). */
	readonly #running = new Set<Promise<void>>();

	constructor(private readonly parts: RunnerParts) {
		this.#log = parts.log ?? ((line) => console.warn(line));
		this.#now = parts.now ?? Date.now;
	}

	/** An event the intake heard: a `chat.command` of a command the kit created is acted on. */
	heard(streamer: string, event: EventEnvelope): void {
		if (event.type !== 'chat.command') return;
		const run = this.#run(streamer, event).catch((err: unknown) =>
			this.#log(`[commands] ${event.id}: ${err instanceof Error ? err.message : String(err)}`)
		);
		this.#running.add(run);
		void run.finally(() => this.#running.delete(run));
	}

	/** Resolves once every run heard so far has its outcome written (or gave up). */
	async settled(): Promise<void> {
		while (this.#running.size) await Promise.all([...this.#running]);
	}

	async #run(streamer: string, event: EventEnvelope): Promise<void> {
		const parsed = ChatCommandData.safeParse(event.data);
		if (!parsed.success) return this.#log(`[commands] chat.command ${event.id} dropped: malformed`);
		const data = parsed.data;
		const read = await this.#deadline.wait(this.parts.store.read(streamer));
		if (!read.done) return this.#log(`[commands] ${event.id} not acted: the store is slow`);
		const key = keyOfCreated(read.value, data.command);
		// A command of the streamer's own: not the kit's to act on.
		if (!key) return;
		const token = randomUUID();
		const run: Run = {
			at: this.#now(),
			command: key,
			who: data.user.display_name.slice(0, 64),
			role: data.user.role,
			platform: data.platform,
			args: data.args.slice(0, 120),
			token,
			outcome: 'noted',
			message: ''
		};
		const noted = await this.#deadline.wait(this.parts.store.add(streamer, [[event.id, run]]));
		if (!noted.done) return this.#log(`[commands] ${event.id} not acted: not noted in time`);
		// Heard before (another delivery, another instance): that one acts.
		if (noted.value[event.id]?.token !== token) return;
		const { permission } = settingOf(read.value, key);
		const outcome = await this.#outcome(streamer, key, permission, data);
		await this.#write(streamer, event.id, outcome);
	}

	async #outcome(
		streamer: string,
		key: CommandKey,
		permission: CommandPermission,
		data: ChatCommandData
	): Promise<Outcome> {
		const checked = checkRun(key, permission, data.user.role, data.args);
		if (!checked.ok) return { outcome: 'refused', message: checked.why };
		const upstream = this.parts.upstreamOf(streamer);
		return act(this.parts, streamer, upstream, checked.does, checked.name);
	}

	async #write(streamer: string, id: string, outcome: Outcome): Promise<void> {
		await this.parts.store.update(
			streamer,
			(state, tell) => {
				const run = state.entries[id];
				if (!run || run.outcome !== 'noted') return;
				state.entries[id] = { ...run, ...outcome };
				state.recent = [id, ...state.recent.filter((r) => r !== id)].slice(0, RUNS_LISTED);
				tell({ type: 'commands' });
			},
			[id]
		);
	}
}
