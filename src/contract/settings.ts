// Stored settings (docs/settings.md): a widget's URL parameters kept by the token endpoint
// per streamer, so that an OBS source's URL stays its path and key and a change in the editor
// reaches every open source through the push channel. Stored as the URL would carry them (name ->
// the text of its value): the widgets' own parameter schemas validate them, on save and on load,
// and a URL parameter still overrides a stored one.
import { z } from 'zod/mini';
import { OVERLAY_ID } from './common.ts';

/** The widget pages that have stored settings (every /widget/{type} page). */
export const SETTINGS_WIDGETS = [
	'tts',
	'media',
	'tip-goal',
	'counters',
	'celebration',
	'recent',
	'leaderboard'
] as const;
export type SettingsWidget = (typeof SETTINGS_WIDGETS)[number];

/**
 * What a set of stored settings belongs to: a widget page (`tts`: every TTS source, and the TTS
 * widget of every overlay page), or one overlay page (`o_1a2b3c4d`: the widgets of that page).
 */
export type SettingsTarget = SettingsWidget | `o_${string}`;

export function isSettingsTarget(s: string): s is SettingsTarget {
	return (SETTINGS_WIDGETS as readonly string[]).includes(s) || OVERLAY_ID.test(s);
}

/**
 * Parameters that name one source rather than the look or the behaviour: they stay in that source's
 * URL and are never stored (a stored `key` or `instance` would make every source the same one).
 */
export const PER_SOURCE_PARAMS = [
	'key',
	'instance',
	'debug',
	'sample',
	'sample_amount',
	'sample_kind',
	'overlay',
	'widget'
] as const;

/** At most this many parameters in one target (the TTS widget with five tiers has about 70). */
export const MAX_SETTINGS_PER_TARGET = 200;
/** At most this many characters in one value (an image or sound URL). */
export const MAX_SETTING_LENGTH = 2048;

// `/*@__PURE__*/` before each `.check(...)` (common.ts says why): without them every widget page
// kept these schemas, which none of them uses (0.1 to 0.4 kB gzipped a page).

/** One target's stored parameters: name -> the value as the URL writes it. */
export const SettingsValues = z.record(
	/*@__PURE__*/ z.string().check(z.regex(/^[a-z][a-z0-9_]{0,39}$/)),
	/*@__PURE__*/ z.string().check(z.maxLength(MAX_SETTING_LENGTH))
);
export type SettingsValues = z.infer<typeof SettingsValues>;

/**
 * GET /settings (overlay key): every stored target of the streamer. `revision` grows with every
 * save and undo of any target; a target never saved (or saved empty) is absent.
 */
export const StoredSettings = z.looseObject({
	revision: /*@__PURE__*/ z.int().check(z.gte(0)),
	targets: z.record(z.string(), SettingsValues)
});
export type StoredSettings = z.infer<typeof StoredSettings>;

/** GET /control/settings: the same, with how many saves of each target Undo can take back. */
export const ControlSettings = z.looseObject({
	revision: /*@__PURE__*/ z.int().check(z.gte(0)),
	targets: z.record(z.string(), SettingsValues),
	undo: z.record(z.string(), /*@__PURE__*/ z.int().check(z.gte(0)))
});
export type ControlSettings = z.infer<typeof ControlSettings>;

/**
 * PUT /control/settings/{target} body: the target's whole set (what is absent is unset).
 * `base_revision`: the revision the editor started from; another save since then is a 409
 * `settings_conflict`, so two editors never overwrite each other unseen.
 */
export const SaveSettings = z.object({
	values: SettingsValues,
	base_revision: z.optional(/*@__PURE__*/ z.int().check(z.gte(0)))
});
export type SaveSettings = z.infer<typeof SaveSettings>;

/** The answer of a save or an undo: the target as it is now. */
export const SavedSettings = z.looseObject({
	revision: /*@__PURE__*/ z.int().check(z.gte(0)),
	target: z.string(),
	values: SettingsValues,
	undo: /*@__PURE__*/ z.int().check(z.gte(0))
});
export type SavedSettings = z.infer<typeof SavedSettings>;
