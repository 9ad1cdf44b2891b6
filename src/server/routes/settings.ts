// Stored settings (docs/settings.md): GET /settings for the pages (overlay key), and under
// /control (the control credential, control.ts) the editor's read, save and undo. The streamer comes
// from the credential, so one streamer never reads or changes another's. A save is checked with the
// widgets' own schemas, handed in as AppOptions.checkSettings (this layer does not import widgets).
import { Hono } from 'hono';
import type { z } from 'zod/mini';
import { CONTROL_BODIES } from '../../contract/control-bodies.ts';
import { MAX_SETTINGS_PER_TARGET, type SettingsValues } from '../../contract/index.ts';
import type { AppOptions } from '../app-options.ts';
import type { CallerEnv } from '../caller.ts';
import { HttpError } from '../http-error.ts';
import { SettingsRefused, type SettingsStore } from '../settings/store.ts';
import { notJson, serve } from './control-input.ts';
import type { RequireKey } from './overlay-key.ts';

/** GET /settings: what the pages merge under their URL parameters. */
export function settingsRoute(app: Hono, requireKey: RequireKey, store: SettingsStore) {
	app.get('/settings', requireKey, async (c) => {
		const { revision, targets } = await store.read(c.var.caller.streamer);
		return c.json({ revision, targets });
	});
}

/** /control/settings: read (with the undo depths), save a target's set, undo its last save. */
export function controlSettingsRoutes(
	store: SettingsStore,
	check: AppOptions['checkSettings']
): Hono<CallerEnv> {
	const app = new Hono<CallerEnv>();
	serve(app, 'settings', async (c) => c.json(await store.read(c.var.caller.streamer)));

	serve(
		app,
		'saveSettings',
		async (c, { params: { target }, body }) => {
			const values = normalized(body.values);
			const errors = [...tooMany(values), ...check!(target, values)];
			if (errors.length > 0) throw badSettings(errors);
			const saved = await refusedAs409(() =>
				store.save(c.var.caller.streamer, target, values, body.base_revision)
			);
			return c.json(saved);
		},
		{
			before: () => {
				if (!check)
					throw new HttpError(
						503,
						'no_schemas',
						'this server cannot check settings, so it keeps none'
					);
			},
			refuse: refusedSave
		}
	);

	serve(app, 'undoSettings', async (c, { params: { target }, body }) => {
		const base = 'base_revision' in body ? body.base_revision : undefined;
		return c.json(await refusedAs409(() => store.undo(c.var.caller.streamer, target, base)));
	});
	return app;
}

const badSettings = (errors: readonly string[]) =>
	new HttpError(400, 'bad_settings', errors.join('; '), undefined, { errors });

/**
 * A save's body that does not match: a value that is not a string of the right length names its
 * parameter (400 bad_settings), anything else is the body's shape (400 bad_request).
 */
function refusedSave(error: z.core.$ZodError | null): HttpError {
	if (!error) return notJson();
	const named = error.issues.filter((i) => i.path[0] === 'values' && i.path.length > 1);
	if (named.length === 0 || named.length < error.issues.length)
		return new HttpError(400, 'bad_request', CONTROL_BODIES.saveSettings.badBody);
	return badSettings(named.map((i) => `${String(i.path[1])}: ${i.message}`));
}

/** As widgets/settings/schemas.ts normalizeSettings: values trimmed, an empty one is unset. */
function normalized(values: SettingsValues): SettingsValues {
	const out: SettingsValues = {};
	for (const [name, value] of Object.entries(values)) {
		const v = value.trim();
		if (v !== '') out[name] = v;
	}
	return out;
}

function tooMany(values: SettingsValues): string[] {
	const n = Object.keys(values).length;
	return n > MAX_SETTINGS_PER_TARGET
		? [`at most ${MAX_SETTINGS_PER_TARGET} parameters in one target (${n} given)`]
		: [];
}

const REFUSALS = {
	settings_conflict:
		'the settings were saved elsewhere since you read them: read them again, then save',
	nothing_to_undo: 'there is no earlier save of these settings to go back to',
	too_many_targets: 'too many widgets and overlays have stored settings'
} as const;

/** A store's refusal as its 409, with the revision now (the editor reads again from it). */
async function refusedAs409<T>(run: () => Promise<T>): Promise<T> {
	try {
		return await run();
	} catch (err) {
		if (!(err instanceof SettingsRefused)) throw err;
		throw new HttpError(409, err.code, REFUSALS[err.code], undefined, { revision: err.revision });
	}
}
