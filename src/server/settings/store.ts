// Where the token endpoint keeps the streamer's stored settings (docs/settings.md): a file
// in single mode (file-store.ts), PostgreSQL in hosted mode (src/hosted/settings-store.ts). A
// target's set is replaced whole by a save; the set it replaces goes on the target's undo stack.
// Both stores share the rules below, so that a save and an undo mean the same in either mode.
import type {
	ControlSettings,
	LiveMessage,
	SavedSettings,
	SettingsValues
} from '../../contract/index.ts';
import type { PushSubscriptions } from '../live/push-channel.ts';

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

export interface SettingsStore {
	/** Every target of the streamer that has values, with its undo depth; revision 0: none saved. */
	read(streamer: string): Promise<ControlSettings>;
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
	): Promise<SavedSettings>;
	/**
	 * Restores the target's last replaced set as the next revision and pops it (publishing as a
	 * save does). Throws SettingsRefused `nothing_to_undo`, or `settings_conflict` as save does.
	 */
	undo(streamer: string, target: string, baseRevision?: number): Promise<SavedSettings>;
	/**
	 * The push channel it publishes its changes on (src/server/live/push-channel.ts): the streamer's
	 * pages hear them, made on any instance.
	 */
	readonly push: PushSubscriptions;
	close?(): Promise<void>;
}

/** One target as stored: its set, and the sets it replaced (the last one is Undo's). */
export interface TargetRecord {
	values: SettingsValues;
	history: SettingsValues[];
}

/** The target after a save of `values`. */
export function afterSave(was: TargetRecord | undefined, values: SettingsValues): TargetRecord {
	return { values, history: [...(was?.history ?? []), was?.values ?? {}].slice(-MAX_UNDO) };
}

/** The target after an undo, or null when it has nothing to undo. */
export function afterUndo(was: TargetRecord | undefined): TargetRecord | null {
	if (!was || was.history.length === 0) return null;
	return { values: was.history[was.history.length - 1], history: was.history.slice(0, -1) };
}

/** What a save or an undo answers. */
export function savedOf(revision: number, target: string, record: TargetRecord): SavedSettings {
	return { revision, target, values: record.values, undo: record.history.length };
}

/** The streamer's targets as GET /control/settings answers them (empty sets left out). */
export function controlOf(
	revision: number,
	records: Iterable<[string, TargetRecord]>
): ControlSettings {
	const targets: Record<string, SettingsValues> = {};
	const undo: Record<string, number> = {};
	for (const [target, r] of records) {
		if (Object.keys(r.values).length > 0) targets[target] = r.values;
		if (r.history.length > 0) undo[target] = r.history.length;
	}
	return { revision, targets, undo };
}

/** The message every instance's subscribers of the streamer hear after a save or an undo. */
export const settingsMessage = (target: string, revision: number): LiveMessage => ({
	type: 'settings',
	target,
	version: revision
});
