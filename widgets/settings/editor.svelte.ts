// The settings editor's state (docs/settings.md, Editor): the stored settings as last read, a
// draft per target (switching targets keeps what was typed), the checker's sentences and the
// server's, Save, Undo and the control credential they need. The components only render it.
import type { SettingsTarget, SettingsValues, SettingsWidget } from '../../src/contract/index.ts';
import { KEY_FORMAT } from '../../src/contract/keys.ts';
import {
	errorsByField,
	nextAmountTier,
	sameValues,
	targetForm,
	TIER_ROWS,
	tierRowsIn,
	withoutTier,
	type TargetForm
} from './form-model.ts';
import { checkSettings, normalizeSettings, storedNames, targetKinds } from './schemas.ts';
import type { ControlCredential, SaveOutcome, SettingsClient } from './settings-client.ts';
import type { ImportedUrl } from './url-io.ts';

/** How the editor gets the control credential it lacks: ask for the key, or the hosted session. */
export type CredentialSource =
	| { kind: 'key' }
	| { kind: 'session'; open: () => Promise<ControlCredential | { error: string }> }
	| { kind: 'none' };

export interface Notice {
	kind: 'ok' | 'error' | 'conflict';
	text: string;
}

/** Where a single-mode preview keeps the control key for its tab (sessionStorage). */
export const KEY_STORAGE = 'tok.settings.control-key';

type Action = 'save' | 'undo';

export class EditorState {
	target = $state<SettingsTarget>('tts');
	status = $state<'loading' | 'ready' | 'failed'>('loading');
	loadError = $state('');
	stored = $state<Record<string, SettingsValues>>({});
	revision = $state(0);
	/** Saves Undo can take back, per target; null until read with the control credential. */
	undoCounts = $state<Record<string, number> | null>(null);
	/** The target whose Undo was pressed once with unsaved changes (the next press goes on). */
	#undoArmedFor: SettingsTarget | null = null;
	busy = $state<Action | null>(null);
	notice = $state<Notice | null>(null);
	/** The server's sentences of the last refused save of the target shown (cleared on an edit). */
	serverErrors = $state<string[]>([]);
	/** An action waits for the control key (the prompt shows). */
	asking = $state<Action | null>(null);
	keyError = $state('');
	/** What the last pasted URL left in the URL or out (shown under Paste). */
	pasted = $state<{ kept: string[]; problems: string[] } | null>(null);
	/** Which widget the sample shows (an overlay's widgets; a widget target shows itself). */
	sampleWidget = $state<SettingsWidget>('tts');
	/** The TTS sample's tip: its amount, or a sub reward or a replay. */
	sampleAmount = $state('5');
	sampleTip = $state<'tip' | 'sub' | 'replay'>('tip');
	#drafts = $state<Record<string, SettingsValues>>({});
	#addedRows = $state<Record<string, string[]>>({});

	constructor(
		readonly client: SettingsClient,
		readonly source: CredentialSource,
		readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null = null
	) {
		const key = source.kind === 'key' ? storage?.getItem(KEY_STORAGE) : null;
		if (key) client.useControl({ key });
	}

	readonly form: TargetForm = $derived(targetForm(this.target));
	readonly names: ReadonlySet<string> = $derived(new Set(storedNames(this.target)));
	/** The form's values for the target shown. */
	readonly values: SettingsValues = $derived(
		this.#drafts[this.target] ?? this.stored[this.target] ?? {}
	);
	readonly checkErrors: string[] = $derived(
		checkSettings(this.target, normalizeSettings(this.values))
	);
	readonly errors: string[] = $derived([...new Set([...this.checkErrors, ...this.serverErrors])]);
	readonly dirty: boolean = $derived(this.unsaved(this.target));
	/** true / false, or null: not known before the control credential is. */
	readonly canUndo: boolean | null = $derived(
		this.undoCounts === null ? null : (this.undoCounts[this.target] ?? 0) > 0
	);
	/**
	 * What the live sample shows: the form's values; while some do not pass the checker, the others
	 * (a half-typed colour never blanks the sample), or the stored ones when that is not enough.
	 */
	readonly sampleValues: SettingsValues = $derived.by(() => {
		const values = normalizeSettings(this.values);
		if (this.checkErrors.length === 0) return values;
		const { byField } = errorsByField(this.checkErrors, this.names);
		const rest = Object.fromEntries(Object.entries(values).filter(([n]) => !byField[n]));
		return checkSettings(this.target, rest).length ? (this.stored[this.target] ?? {}) : rest;
	});
	/** The tier rows shown: those with values, and those just added. */
	readonly tierRows: string[] = $derived(
		TIER_ROWS.filter(
			(p) => tierRowsIn(this.values).includes(p) || (this.#addedRows[this.target] ?? []).includes(p)
		)
	);

	/** The target has changes not saved yet (its draft differs from what is stored). */
	unsaved(target: SettingsTarget): boolean {
		const draft = this.#drafts[target];
		return draft !== undefined && !sameValues(draft, this.stored[target] ?? {});
	}

	/** Some target has changes not saved yet. */
	get hasUnsaved(): boolean {
		return Object.keys(this.#drafts).some((target) => this.unsaved(target as SettingsTarget));
	}

	async load(): Promise<void> {
		const res = await this.client.read();
		if (!res.ok) {
			this.status = this.status === 'ready' ? 'ready' : 'failed';
			this.loadError = `The settings could not be read: ${res.error}.`;
			return;
		}
		this.stored = res.read.targets;
		this.revision = res.read.revision;
		this.undoCounts = res.read.undo;
		this.loadError = '';
		this.status = 'ready';
	}

	select(target: SettingsTarget): void {
		this.target = target;
		if (!target.startsWith('o_')) this.sampleWidget = target as SettingsWidget;
		else if (!targetKinds(target).includes(this.sampleWidget)) this.sampleWidget = 'tts';
		this.serverErrors = [];
		this.notice = null;
	}

	set(name: string, value: string): void {
		this.#drafts[this.target] = { ...this.values, [name]: value };
		this.serverErrors = [];
	}

	/** Replaces the form's values (a pasted URL, the built-in tiers written out). */
	replace(values: SettingsValues, target = this.target): void {
		this.#drafts[target] = { ...values };
		this.#addedRows[target] = [];
		this.serverErrors = [];
	}

	addTier(prefix = nextAmountTier(this.tierRows)): void {
		if (!prefix || this.tierRows.includes(prefix)) return;
		this.#addedRows[this.target] = [...(this.#addedRows[this.target] ?? []), prefix];
		// Own tiers replace the built-in ones whatever `tiers` says: a leftover `tiers=off` goes.
		if (prefix.startsWith('tier') && this.values.tiers) this.set('tiers', '');
	}

	removeTier(prefix: string): void {
		this.#drafts[this.target] = withoutTier(this.values, prefix);
		this.#addedRows[this.target] = (this.#addedRows[this.target] ?? []).filter((p) => p !== prefix);
		this.serverErrors = [];
	}

	/** Puts a tier row's tip in the TTS sample: its amount, or a sub reward, a replay. */
	showTier(prefix: string): void {
		if (this.target.startsWith('o_')) this.sampleWidget = 'tts';
		if (prefix === 'sub' || prefix === 'replay') {
			this.sampleTip = prefix;
			return;
		}
		this.sampleTip = 'tip';
		// Every tip: an amount below any tier's (the built-in ones start at 10).
		this.sampleAmount = prefix === 'base' ? '1' : this.values[`${prefix}_from`]?.trim() || '0';
	}

	/** The form back to the stored values of the target. */
	discard(): void {
		delete this.#drafts[this.target];
		this.#addedRows[this.target] = [];
		this.serverErrors = [];
	}

	/**
	 * Values from another editor of the page (the preview's themes and alert tiers) into a target's
	 * form: the names `owns` says are theirs are replaced, the others kept. Not saved yet.
	 */
	feed(target: SettingsTarget, values: SettingsValues, owns: (name: string) => boolean): void {
		this.select(target);
		const kept = Object.entries(this.values).filter(([n]) => !owns(n));
		this.replace({ ...Object.fromEntries(kept), ...values });
		this.notice = { kind: 'ok', text: 'In the form now: check the sample, then Save.' };
	}

	/** A pasted URL's values into its target's form (not saved yet). */
	paste(imported: ImportedUrl & { ok: true }): void {
		this.select(imported.target);
		this.replace(imported.values, imported.target);
		this.pasted = { kept: imported.kept, problems: imported.problems };
		this.notice = {
			kind: 'ok',
			text: 'The URL is in the form: check the sample, then Save to store it.'
		};
	}

	async save(): Promise<void> {
		this.#undoArmedFor = null;
		if (this.checkErrors.length) {
			this.notice = { kind: 'error', text: 'Nothing was saved: fix the fields marked below.' };
			return;
		}
		const values = normalizeSettings(this.values);
		await this.#act('save', () => this.client.save(this.target, values, this.revision));
	}

	async undo(): Promise<void> {
		// Undo brings back the set before the last save: edits not saved yet would be lost unseen,
		// so with some, the first press says so and the next one goes on.
		if (this.dirty && this.#undoArmedFor !== this.target) {
			this.#undoArmedFor = this.target;
			this.notice = {
				kind: 'error',
				text: 'Undo drops your unsaved changes here and brings back the settings before the last save: press Undo again to go on.'
			};
			return;
		}
		await this.#act('undo', () => this.client.undo(this.target));
	}

	/** After a conflict: the settings as they are now (this target's draft dropped). */
	async reload(): Promise<void> {
		this.discard();
		this.notice = null;
		await this.load();
	}

	/** The key the prompt was given: kept for the tab, then the waiting action goes on. */
	async giveKey(key: string): Promise<void> {
		const action = this.asking;
		if (!action || !KEY_FORMAT.test(key.trim())) {
			this.keyError = 'That is not a control key (16 to 128 of A-Z a-z 0-9 _ -).';
			return;
		}
		this.client.useControl({ key: key.trim() });
		this.storage?.setItem(KEY_STORAGE, key.trim());
		this.asking = null;
		this.keyError = '';
		await (action === 'save' ? this.save() : this.undo());
	}

	cancelKey(): void {
		this.asking = null;
		this.keyError = '';
	}

	async #act(action: Action, send: () => Promise<SaveOutcome>): Promise<void> {
		if (this.busy) return;
		if (!this.client.canSave && !(await this.#credential(action))) return;
		const target = this.target;
		// Read with the overlay key so far: the control credential's read says what Undo can do.
		const unknownUndo = this.undoCounts === null;
		this.busy = action;
		this.notice = null;
		try {
			const res = await send();
			if (res.ok) {
				this.stored = { ...this.stored, [target]: res.saved.values };
				this.revision = res.saved.revision;
				this.undoCounts = { ...this.undoCounts, [target]: res.saved.undo };
				delete this.#drafts[target];
				this.#addedRows[target] = [];
				this.notice = { kind: 'ok', text: noticeText(action, target) };
				if (unknownUndo) await this.load();
			} else this.#failed(action, res);
		} finally {
			this.busy = null;
		}
	}

	async #credential(action: Action): Promise<boolean> {
		if (this.source.kind === 'key') {
			this.asking = action;
			return false;
		}
		if (this.source.kind === 'session') {
			const session = await this.source.open();
			if ('error' in session) {
				this.notice = { kind: 'error', text: session.error };
				return false;
			}
			this.client.useControl(session);
			return true;
		}
		this.notice = { kind: 'error', text: 'Saving needs the control key.' };
		return false;
	}

	#failed(action: Action, res: SaveOutcome & { ok: false }): void {
		switch (res.why) {
			case 'bad_settings':
				this.serverErrors = res.errors;
				this.notice = {
					kind: 'error',
					text: 'Nothing was saved: the server refused these values.'
				};
				return;
			case 'conflict':
				this.notice = {
					kind: 'conflict',
					text: 'Someone else saved settings since you opened them (another tab or device). Reload to see theirs; your changes to this widget will be dropped.'
				};
				return;
			case 'nothing_to_undo':
				this.undoCounts = { ...this.undoCounts, [this.target]: 0 };
				this.notice = { kind: 'error', text: 'There is nothing to undo for this one.' };
				return;
			case 'refused':
				this.#refused(action, res.error);
				return;
			default:
				this.notice = { kind: 'error', text: `Not ${doneText(action)}: ${res.error}.` };
		}
	}

	#refused(action: Action, error: string): void {
		if (this.source.kind === 'key') {
			this.client.useControl(null);
			this.storage?.removeItem(KEY_STORAGE);
			this.asking = action;
			this.keyError = `The control key was refused (${error}).`;
		} else this.notice = { kind: 'error', text: `Refused: ${error}.` };
	}
}

const doneText = (action: Action) => (action === 'save' ? 'saved' : 'undone');

const noticeText = (action: Action, target: SettingsTarget) =>
	action === 'save'
		? `Saved. Every open ${target.startsWith('o_') ? 'source of this overlay' : 'source'} follows it now.`
		: 'Undone: the settings before the last save are back.';
