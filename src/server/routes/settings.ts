// Stored settings (docs/settings.md): GET /settings for the pages (overlay key), and under
// /control (the control credential, control.ts) the editor's read, save and undo. The streamer comes
// from the credential, so one streamer never reads or changes another's. A save is checked with the
// widgets' own schemas, handed in as AppOptions.checkSettings (this layer does not import widgets).
import type { Context, Hono } from 'hono';
import {
	isSettingsTarget,
	MAX_SETTINGS_PER_TARGET,
	SaveSettings,
	type SettingsValues
} from '../../contract/index.ts';
import type { AppOptions } from '../app-options.ts';
import { HttpError } from '../http-error.ts';
import { SettingsRefused, type SettingsStore } from '../settings/store.ts';
import { SINGLE_STREAMER } from './control-key.ts';
import { jsonBody, SETTINGS_MAX_BODY } from './guards.ts';
import type { OverlayKeyCheck } from './overlay-key.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

type Access = (c: Context) => { streamer: string };

/** GET /settings: what the pages merge under their URL parameters. */
export function settingsRoute(app: Hono, key: OverlayKeyCheck, store: SettingsStore) {
	app.get('/settings', key.requireKey, async (c) => {
		const { revision, targets } = await store.read(key.streamerOf(c) ?? SINGLE_STREAMER);
		return c.json({ revision, targets }, 200, NO_STORE);
	});
}

/** /control/settings: read (with the undo depths), save a target's set, undo its last save. */
export function controlSettingsRoutes(
	control: Hono,
	store: SettingsStore,
	accessOf: Access,
	check: AppOptions['checkSettings']
) {
	control.get('/settings', async (c) =>
		c.json(await store.read(accessOf(c).streamer), 200, NO_STORE)
	);

	control.put('/settings/:target', async (c) => {
		const target = targetOf(c);
		if (!check)
			throw new HttpError(503, 'no_schemas', 'this server cannot check settings, so it keeps none');
		const body = saveBody(await jsonBody(c, SETTINGS_MAX_BODY));
		const values = normalized(body.values);
		const errors = [...tooMany(values), ...check(target, values)];
		if (errors.length > 0) throw badSettings(errors);
		const saved = await refusedAs409(() =>
			store.save(accessOf(c).streamer, target, values, body.base_revision)
		);
		return c.json(saved, 200, NO_STORE);
	});

	control.post('/settings/:target/undo', async (c) => {
		const target = targetOf(c);
		const base = await undoBody(c);
		const saved = await refusedAs409(() => store.undo(accessOf(c).streamer, target, base));
		return c.json(saved, 200, NO_STORE);
	});
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

const badSaveBody = () =>
	new HttpError(
		400,
		'bad_request',
		'expected a JSON body { "values": { "<parameter>": "<value>" }, "base_revision": <revision> }'
	);

/** The body of a save; a value that is not a string of the right length names its parameter. */
function saveBody(json: unknown): SaveSettings {
	const parsed = SaveSettings.safeParse(json);
	if (parsed.success) return parsed.data;
	const named = parsed.error.issues.filter((i) => i.path[0] === 'values' && i.path.length > 1);
	if (named.length === 0 || named.length < parsed.error.issues.length) throw badSaveBody();
	throw badSettings(named.map((i) => `${String(i.path[1])}: ${i.message}`));
}

/** The undo's base revision, from an optional body `{ "base_revision": n }` (or none, or `{}`). */
async function undoBody(c: Context): Promise<number | undefined> {
	const text = (await c.req.text()).trim();
	if (text === '' || text === '{}') return undefined;
	const bad = () =>
		new HttpError(400, 'bad_request', 'expected no body, or { "base_revision": <revision> }');
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		throw bad();
	}
	const base = (body as { base_revision?: unknown } | null)?.base_revision;
	if (typeof base !== 'number' || !Number.isInteger(base) || base < 0) throw bad();
	return base;
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
