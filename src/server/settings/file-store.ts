// Single mode's stored settings: one JSON file beside the overlay key (SETTINGS_FILE, default
// .settings.json), held in memory and written durably before a save is answered, then copied to
// `<file>.last-good`. A file that does not parse at start is reported, moved aside and replaced by
// the last good copy, and the server starts: a look lost to a damaged file is not worth a stream
// that cannot start (moderation's file, which decides what is read aloud, stops the server
// instead). `where` null: memory only (tests). One process serves one streamer, so the streamer
// argument is only a key of the push channel.
import { readFileSync, renameSync } from 'node:fs';
import { z } from 'zod/mini';
import {
	describeIssues,
	isSettingsTarget,
	SettingsValues,
	type ControlSettings,
	type SavedSettings
} from '../../contract/index.ts';
import { writeDurably } from '../durable-file.ts';
import { MemoryPushChannel } from '../live/push-channel.ts';
import {
	afterSave,
	afterUndo,
	controlOf,
	MAX_TARGETS,
	MAX_UNDO,
	savedOf,
	settingsMessage,
	SettingsRefused,
	type SettingsStore,
	type TargetRecord
} from './store.ts';

const FileShape = z.object({
	revision: z.int().check(z.gte(0)),
	targets: z.record(
		z.string().check(z.refine(isSettingsTarget, 'not a widget or an overlay id')),
		z.object({
			values: SettingsValues,
			history: z.array(SettingsValues).check(z.maxLength(MAX_UNDO))
		})
	)
});

interface State {
	revision: number;
	targets: Map<string, TargetRecord>;
}

const empty = (): State => ({ revision: 0, targets: new Map() });

export class FileSettingsStore implements SettingsStore {
	readonly #where: string | null;
	#state: State = empty();
	/** Saves and undos run one after another, each on the state the one before left. */
	#queue: Promise<unknown> = Promise.resolve();

	/** `push`: the channel it publishes on (the app's, shared with the moderation store). */
	constructor(
		where: string | null,
		now: () => Date = () => new Date(),
		readonly push = new MemoryPushChannel()
	) {
		this.#where = where;
		if (where === null) return;
		const loaded = load(where, now);
		if (loaded) this.#state = loaded.state;
		// The good copy, back where the server reads it (a restart before any save finds it there).
		if (loaded?.restored)
			this.#queue = this.#write(loaded.state).catch((err: Error) =>
				console.error(`SETTINGS_FILE: ${where} could not be written again: ${err.message}`)
			);
	}

	async read(): Promise<ControlSettings> {
		return controlOf(this.#state.revision, this.#state.targets);
	}

	save(
		streamer: string,
		target: string,
		values: SettingsValues,
		baseRevision?: number
	): Promise<SavedSettings> {
		return this.#change(streamer, target, baseRevision, (was, count) => {
			if (!was && count >= MAX_TARGETS) return 'too_many_targets';
			return afterSave(was, values);
		});
	}

	undo(streamer: string, target: string, baseRevision?: number): Promise<SavedSettings> {
		return this.#change(
			streamer,
			target,
			baseRevision,
			(was) => afterUndo(was) ?? 'nothing_to_undo'
		);
	}

	/**
	 * One change, after those before it: the next state is written (where there is a file) before
	 * it is kept and published, so a write that fails leaves the settings as they were.
	 */
	#change(
		streamer: string,
		target: string,
		baseRevision: number | undefined,
		next: (
			was: TargetRecord | undefined,
			count: number
		) => TargetRecord | 'too_many_targets' | 'nothing_to_undo'
	): Promise<SavedSettings> {
		const run = async () => {
			const { revision, targets } = this.#state;
			if (baseRevision !== undefined && baseRevision !== revision)
				throw new SettingsRefused('settings_conflict', revision);
			const record = next(targets.get(target), targets.size);
			if (typeof record === 'string') throw new SettingsRefused(record, revision);
			const state = { revision: revision + 1, targets: new Map(targets).set(target, record) };
			await this.#write(state);
			this.#state = state;
			this.push.publish(streamer, settingsMessage(target, state.revision));
			return savedOf(state.revision, target, record);
		};
		const done = this.#queue.then(run, run);
		this.#queue = done.catch(() => {});
		return done;
	}

	async #write(state: State): Promise<void> {
		const where = this.#where;
		if (where === null) return;
		const text =
			JSON.stringify({ revision: state.revision, targets: Object.fromEntries(state.targets) }) +
			'\n';
		await writeDurably(where, text);
		await writeDurably(`${where}.last-good`, text);
	}
}

/**
 * The settings in `where`; nothing when there is no file. A file that cannot be read as settings
 * is reported in one line naming SETTINGS_FILE, moved to `<where>.broken-<time>`, and the last good
 * copy is loaded instead (`restored`), or nothing.
 */
function load(where: string, now: () => Date): { state: State; restored: boolean } | null {
	let text: string;
	try {
		text = readFileSync(where, 'utf8');
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
		// Unreadable (permissions, a folder): reported, and the server starts with nothing stored.
		console.error(
			`SETTINGS_FILE: cannot read ${where} (${(err as Error).message}); no stored settings`
		);
		return null;
	}
	const parsed = parse(text);
	if ('state' in parsed) return { state: parsed.state, restored: false };
	let moved: string;
	try {
		const aside = `${where}.broken-${now().toISOString().replace(/[:.]/g, '-')}`;
		renameSync(where, aside);
		moved = `moved to ${aside}`;
	} catch (err) {
		// The next save replaces it anyway.
		moved = `not moved aside (${(err as Error).message})`;
	}
	const good = readGood(`${where}.last-good`);
	const loaded = good
		? `loaded ${where}.last-good (revision ${good.revision})`
		: 'starting with no stored settings';
	console.error(
		`SETTINGS_FILE: ${where} is not a settings file (${parsed.problem}); ${moved}, ${loaded}`
	);
	return good ? { state: good, restored: true } : null;
}

function readGood(where: string): State | null {
	try {
		const parsed = parse(readFileSync(where, 'utf8'));
		return 'state' in parsed ? parsed.state : null;
	} catch {
		return null;
	}
}

function parse(text: string): { state: State } | { problem: string } {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return { problem: text.trim() === '' ? 'empty' : 'not JSON' };
	}
	const file = FileShape.safeParse(json);
	if (!file.success) return { problem: describeIssues(file.error) };
	return {
		state: { revision: file.data.revision, targets: new Map(Object.entries(file.data.targets)) }
	};
}
