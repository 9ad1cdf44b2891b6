// Stored settings (docs/settings.md): GET /settings for the pages (overlay key), and under
// /control (the control credential, control.ts) the editor's read, save and undo. The streamer comes
// from the credential, so one streamer never reads or changes another's. A save is checked with the
// widgets' own schemas, handed in as AppOptions.checkSettings (this layer does not import widgets).
import type { Context, Hono } from 'hono';
import type { z } from 'zod/mini';
import { CONTROL_BODIES } from '../../contract/control-bodies.ts';
import {
	isSettingsTarget,
	MAX_SETTINGS_PER_TARGET,
	type SettingsValues
} from '../../contract/index.ts';
import type { AppOptions } from '../app-options.ts';
import { HttpError } from '../http-error.ts';
import { SettingsRefused, type SettingsStore } from '../settings/store.ts';
import { SINGLE_STREAMER, type ControlEnv } from './control-key.ts';
import { jsonInput, limitOf, notJson } from './control-input.ts';
import type { OverlayKeyCheck } from './overlay-key.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** GET /settings: what the pages merge under their URL parameters. */
export function settingsRoute(app: Hono, key: OverlayKeyCheck, store: SettingsStore) {
	app.get('/settings', key.requireKey, async (c) => {
		const { revision, targets } = await store.read(key.streamerOf(c) ?? SINGLE_STREAMER);
		return c.json({ revision, targets }, 200, NO_STORE);
	});
}

/** /control/settings: read (with the undo depths), save a target's set, undo its last save. */
export function controlSettingsRoutes(
	control: Hono<ControlEnv>,
	store: SettingsStore,
	check: AppOptions['checkSettings']
) {
	control.get('/settings', async (c) =>
		c.json(await store.read(c.var.caller.streamer), 200, NO_STORE)
	);

	control.put(
		'/settings/:target',
		(c, next) => {
			targetOf(c);
			if (!check)
				throw new HttpError(
					503,
					'no_schemas',
					'this server cannot check settings, so it keeps none'
				);
			return next();
		},
		limitOf(CONTROL_BODIES.saveSettings),
		jsonInput({ schema: CONTROL_BODIES.saveSettings.body, refuse: refusedSave }),
		async (c) => {
			const target = targetOf(c);
			const body = c.req.valid('json');
			const values = normalized(body.values);
			const errors = [...tooMany(values), ...check!(target, values)];
			if (errors.length > 0) throw badSettings(errors);
			const saved = await refusedAs409(() =>
				store.save(c.var.caller.streamer, target, values, body.base_revision)
			);
			return c.json(saved, 200, NO_STORE);
		}
	);

	control.post(
		'/settings/:target/undo',
		(c, next) => (targetOf(c), next()),
		limitOf(CONTROL_BODIES.undoSettings),
		jsonInput({
			schema: CONTROL_BODIES.undoSettings.body,
			optional: true,
			refuse: () => new HttpError(400, 'bad_request', CONTROL_BODIES.undoSettings.badBody)
		}),
		async (c) => {
			const body = c.req.valid('json');
			const base = 'base_revision' in body ? body.base_revision : undefined;
			const saved = await refusedAs409(() => store.undo(c.var.caller.streamer, targetOf(c), base));
			return c.json(saved, 200, NO_STORE);
		}
	);
}

function targetOf(c: Context): string {
	const target = c.req.param('target') ?? '';
	if (!isSettingsTarget(target))
		throw new HttpError(
			400,
			'bad_target',
			'expected a widget (tts, media, tip-goal, counters, celebration, recent, leaderboard) or an overlay id (o_ and 8 hex digits)'
		);
	return target;
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
