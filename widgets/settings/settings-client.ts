// The settings editor's way to the token endpoint (docs/settings.md): it reads the stored settings
// with the overlay key (GET /settings, the preview) or with the control credential (GET
// /control/settings, which also says how many saves Undo can take back), and saves and undoes with
// the control credential only (PUT /control/settings/{target}, POST .../undo), through the one
// /control client (src/client/control.ts) the dock uses too.
import {
	ApiClient,
	refusesKey,
	type ApiFailure,
	type FetchLike,
	type KeyRefusal
} from '../../src/client/api.ts';
import {
	ControlApi,
	errorText,
	UNREADABLE,
	type ControlCredential,
	type ControlResult
} from '../../src/client/control.ts';
import {
	StoredSettings,
	type SavedSettings,
	type SettingsTarget,
	type SettingsValues
} from '../../src/contract/index.ts';
import * as control from '../../src/contract/control.ts';

export type { ControlCredential } from '../../src/client/control.ts';

export interface ReadSettings {
	revision: number;
	targets: Record<string, SettingsValues>;
	/** Saves Undo can take back, per target; null when read with the overlay key (unknown). */
	undo: Record<string, number> | null;
}

export type ReadOutcome = { ok: true; read: ReadSettings } | { ok: false; error: string };

export type SaveOutcome =
	| { ok: true; saved: SavedSettings }
	/** 400 bad_settings: every sentence, each naming its parameter; nothing was saved. */
	| { ok: false; why: 'bad_settings'; errors: string[] }
	/** 409 settings_conflict: another save since this editor read the settings. */
	| { ok: false; why: 'conflict'; error: string }
	/** 409 nothing_to_undo. */
	| { ok: false; why: 'nothing_to_undo'; error: string }
	/** 401 (or 429 too_many_attempts): the control credential was refused. */
	| { ok: false; why: 'refused'; error: string }
	| { ok: false; why: 'failed'; error: string };

/** The sentences of a 400 bad_settings: its `errors` list, or its one `error`. */
function badSettings(res: ApiFailure): string[] {
	const body = res.kind === 'http' ? res.body : null;
	const errors = (body as { errors?: unknown } | null)?.errors;
	if (Array.isArray(errors) && errors.every((e) => typeof e === 'string') && errors.length)
		return errors;
	return [errorText(res)];
}

function failure(res: ApiFailure): SaveOutcome {
	const code = res.kind === 'http' ? res.code : undefined;
	if (code === 'bad_settings') return { ok: false, why: 'bad_settings', errors: badSettings(res) };
	if (code === 'settings_conflict') return { ok: false, why: 'conflict', error: errorText(res) };
	if (code === 'nothing_to_undo')
		return { ok: false, why: 'nothing_to_undo', error: errorText(res) };
	// 429 too_many_attempts too: the token endpoint sends it only to a wrong key.
	if (refusesKey(res)) return { ok: false, why: 'refused', error: errorText(res) };
	return { ok: false, why: 'failed', error: errorText(res) };
}

export class SettingsClient {
	readonly #overlay: ApiClient | null;
	#control: ControlApi | null = null;
	readonly #fetch: FetchLike | undefined;
	readonly #onKeyRefused: ((refusal: KeyRefusal) => void) | undefined;

	constructor(opts: {
		overlayKey?: string;
		control?: ControlCredential;
		fetch?: FetchLike;
		/** Hears every call refused for its key (the editor page checks the key again later). */
		onKeyRefused?: (refusal: KeyRefusal) => void;
	}) {
		this.#fetch = opts.fetch;
		this.#onKeyRefused = opts.onKeyRefused;
		this.#overlay = opts.overlayKey
			? this.#heard(new ApiClient({ overlayKey: opts.overlayKey, fetch: this.#fetch }))
			: null;
		if (opts.control) this.useControl(opts.control);
	}

	#heard(api: ApiClient): ApiClient {
		if (this.#onKeyRefused) api.onKeyRefused(this.#onKeyRefused);
		return api;
	}

	/** Save and Undo can be sent (a control credential is known). */
	get canSave(): boolean {
		return this.#control !== null;
	}

	/** From now on, reads, saves and undoes with this credential (null: forget it). */
	useControl(credential: ControlCredential | null): void {
		this.#control = credential ? new ControlApi(credential, this.#fetch) : null;
		if (this.#control) this.#heard(this.#control.api);
	}

	/** Every stored target: with the control credential when known, else the overlay key. */
	async read(): Promise<ReadOutcome> {
		if (this.#control) {
			const res = await this.#control.call(control.settings);
			return res.ok ? { ok: true, read: res.body } : { ok: false, error: errorText(res) };
		}
		if (!this.#overlay) return { ok: false, error: 'no key to read the settings with' };
		const res = await this.#overlay.send('settings', 'GET', '/settings');
		if (!res.ok) return { ok: false, error: errorText(res) };
		const body = StoredSettings.safeParse(res.body);
		if (!body.success) return { ok: false, error: UNREADABLE };
		return { ok: true, read: { ...body.data, undo: null } };
	}

	/** PUT /control/settings/{target}: the target's whole set, from `baseRevision`. */
	async save(target: SettingsTarget, values: SettingsValues, baseRevision: number) {
		const body = { values, base_revision: baseRevision };
		return this.#control
			? saved(await this.#control.call(control.saveSettings, { params: { target }, body }))
			: NO_CONTROL;
	}

	/** POST /control/settings/{target}/undo: the set before the last save comes back. */
	async undo(target: SettingsTarget) {
		return this.#control
			? saved(await this.#control.call(control.undoSettings, { params: { target } }))
			: NO_CONTROL;
	}
}

const NO_CONTROL: SaveOutcome = {
	ok: false,
	why: 'refused',
	error: 'saving needs the control credential'
};

function saved(res: ControlResult<typeof control.saveSettings>): SaveOutcome {
	return res.ok ? { ok: true, saved: res.body } : failure(res);
}
