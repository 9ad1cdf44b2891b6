// Where the token endpoint keeps the streamer's stored settings (docs/settings.md): a kind of kept
// state (src/server/store/kept.ts), its meta the revision (one counter for all of a streamer's
// targets), its entries the targets, each with the sets Undo can bring back; all open (a streamer
// has at most MAX_TARGETS). Single mode keeps them in SETTINGS_FILE (default .settings.json, beside
// the overlay key): a line of the file that cannot be read is reported, the file moved aside and the
// changes before it kept, and the server starts: a look lost to a damaged file is not worth a stream
// that cannot start (moderation's file, which decides what is read aloud, stops the server
// instead). A target's set is replaced whole by a save; the set it replaces goes on its undo stack.
import { z } from 'zod/mini';
import { SettingsValues, type ControlSettings, type SavedSettings } from '../../contract/index.ts';
import type { MemoryPushChannel } from '../live/push-channel.ts';
import { FileKeptStore } from '../store/file-kept.ts';
import type { Kept, KeptStore, Kind } from '../store/kept.ts';

/** A target's previous sets kept for Undo, at most. */
export const MAX_UNDO = 20;
/** Targets a streamer may keep (the 7 widgets and overlays): a save of one more is refused. */
export const MAX_TARGETS = 64;

/** Why a save or an undo was refused (the routes answer 409 with the code). */
export type SettingsRefusal = 'settings_conflict' | 'nothing_to_undo' | 'too_many_targets';

export class SettingsRefused extends Error {
	constructor(
		readonly code: SettingsRefusal,
		/** The streamer's revision when refused. */
		readonly revision: number
	) {
		super(code);
	}
}

/** One target as stored: its set, and the sets it replaced (the last one is Undo's). */
const TargetRecord = z.object({
	values: SettingsValues,
	history: z.array(SettingsValues).check(z.maxLength(MAX_UNDO))
});
type TargetRecord = z.infer<typeof TargetRecord>;
const Revision = z.object({ revision: z.int().check(z.gte(0)) });

export const SETTINGS: Kind<z.infer<typeof Revision>, TargetRecord> = {
	name: 'settings',
	meta: Revision,
	entry: TargetRecord,
	empty: () => ({ revision: 0 }),
	open: () => true,
	dropAt: () => null
};

/** The file in single mode (null: memory only); the earlier whole file `{ revision, targets }` reads as is. */
export const settingsFile = (where: string | null, push?: MemoryPushChannel, now?: () => Date) =>
	new SettingsStore(
		new FileKeptStore(SETTINGS, {
			where,
			variable: 'SETTINGS_FILE',
			unreadable: 'aside',
			push,
			now,
			upgrade: (json) => {
				const { targets, ...rest } = json as { targets?: unknown };
				return targets === undefined ? json : { ...rest, entries: targets };
			}
		})
	);

type Settings = Kept<z.infer<typeof Revision>, TargetRecord>;

export class SettingsStore {
	constructor(readonly kept: KeptStore<z.infer<typeof Revision>, TargetRecord>) {}

	/**
	 * The push channel it publishes its changes on (src/server/live/push-channel.ts): the streamer's
	 * pages hear them, made on any instance.
	 */
	get push() {
		return this.kept.push;
	}

	/** Every target of the streamer that has values, with its undo depth; revision 0: none saved. */
	async read(streamer: string): Promise<ControlSettings> {
		const { revision, entries } = await this.kept.read(streamer);
		const targets: Record<string, SettingsValues> = {};
		const undo: Record<string, number> = {};
		for (const [target, r] of Object.entries(entries)) {
			if (Object.keys(r.values).length > 0) targets[target] = r.values;
			if (r.history.length > 0) undo[target] = r.history.length;
		}
		return { revision, targets, undo };
	}

	/**
	 * Replaces the target's set (already checked and normalized) as the next revision, pushes the
	 * one it replaces on its undo stack, and publishes `{ type: 'settings', target, version }`.
	 * Throws SettingsRefused `settings_conflict` when `baseRevision` is given and is not the current
	 * revision, `too_many_targets` for a new target past MAX_TARGETS.
	 */
	save(
		streamer: string,
		target: string,
		values: SettingsValues,
		baseRevision?: number
	): Promise<SavedSettings> {
		return this.#change(streamer, target, baseRevision, (s, was) => {
			if (!was && Object.keys(s.entries).length >= MAX_TARGETS) return 'too_many_targets';
			return { values, history: [...(was?.history ?? []), was?.values ?? {}].slice(-MAX_UNDO) };
		});
	}

	/**
	 * Restores the target's last replaced set as the next revision and pops it (publishing as a
	 * save does). Throws SettingsRefused `nothing_to_undo`, or `settings_conflict` as save does.
	 */
	undo(streamer: string, target: string, baseRevision?: number): Promise<SavedSettings> {
		return this.#change(streamer, target, baseRevision, (_, was) => {
			if (!was || was.history.length === 0) return 'nothing_to_undo';
			return { values: was.history[was.history.length - 1], history: was.history.slice(0, -1) };
		});
	}

	close(): Promise<void> {
		return this.kept.close?.() ?? Promise.resolve();
	}

	#change(
		streamer: string,
		target: string,
		baseRevision: number | undefined,
		next: (s: Settings, was: TargetRecord | undefined) => TargetRecord | SettingsRefusal
	): Promise<SavedSettings> {
		return this.kept.update(streamer, (s, tell) => {
			if (baseRevision !== undefined && baseRevision !== s.revision)
				throw new SettingsRefused('settings_conflict', s.revision);
			const record = next(s, s.entries[target]);
			if (typeof record === 'string') throw new SettingsRefused(record, s.revision);
			s.revision++;
			s.entries[target] = record;
			tell({ type: 'settings', target, version: s.revision });
			return { revision: s.revision, target, values: record.values, undo: record.history.length };
		});
	}
}
