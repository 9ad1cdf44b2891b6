// The settings editor's forms, built from the widgets' own field tables (schemas.ts): what input
// each parameter gets (by its schema: a colour, a switch, a sound ...; a choice's words and a
// number's bounds from the value helpers' hints), its label, its hint (`expects`) and the default
// shown while it is empty. Nothing here is written per widget but the labels. Pure: the editor's
// components render it, the unit tests read it.
import { cssColor, fontFamilies } from '../../src/client/css-params.ts';
import { flag, type ParamField, type ParamHints } from '../../src/client/params.ts';
import type { SettingsTarget, SettingsValues, SettingsWidget } from '../../src/contract/index.ts';
import { mediaParamFields } from '../media/params.ts';
import {
	baseTierFields,
	DEFAULT_LADDER,
	imageValue,
	soundValue,
	tierFields
} from '../tts/tiers.ts';
import { SETTINGS_KINDS, storedNames, targetKinds } from './schemas.ts';

export type FieldKind =
	'colour' | 'choice' | 'switch' | 'number' | 'font' | 'sound' | 'image' | 'text';

export interface FormField {
	/** The URL parameter. */
	name: string;
	label: string;
	kind: FieldKind;
	/** What a good value looks like (the field's hint, and the checker's words). */
	expects: string;
	/** What applies while the field is empty ('' when there is nothing to say). */
	placeholder: string;
	/** The placeholder names another field's value (a tier's `as every tip`), not a default. */
	inherited?: boolean;
	/** A choice's words. */
	options?: readonly string[];
	/** A number's bounds; step 1 for whole numbers. */
	min?: number;
	max?: number;
	step?: number;
}

export interface FormSection {
	id: string;
	title: string;
	fields: FormField[];
}

export interface TargetForm {
	/** The look first, then the widgets' own fields (one section a widget on an overlay). */
	sections: FormSection[];
	/** The target takes alert tiers (the TTS widget, an overlay). */
	tiers: boolean;
}

/** The theme every positioned widget takes: the first section. */
export const THEME_NAMES = ['font', 'color', 'accent', 'scale', 'position'];
/** What the tiers panel shows of the base: every tip's look, sound, image ... (tts/tiers.ts). */
export const BASE_TIER_NAMES = Object.keys(baseTierFields);
const TIER_NAME = /^(tier[1-5]|sub|replay)_/;
/** A tier's own parameter (tier2_look, sub_sound ...). */
export const isTierName = (name: string): boolean => TIER_NAME.test(name);

/** Labels, by `kind.name` where a widget says it its own way, else by name. */
const LABELS: Record<string, string> = {
	font: 'Font',
	color: 'Text colour',
	accent: 'Accent colour',
	scale: 'Scale',
	position: 'Position',
	volume: 'Speech volume',
	'media.volume': 'Video volume',
	media_volume: 'Video volume',
	min_display: 'Seconds on screen, at least',
	gap: 'Pause between alerts (s)',
	claim: 'Takes alerts when',
	'media.claim': 'Takes videos when',
	audio_failures: 'Audio attempts before text',
	text_fallback: 'Text when the audio fails',
	look: 'Look',
	sound: 'Sound',
	image: 'Image or GIF',
	celebrate: 'Celebrate',
	sound_volume: 'Sound volume',
	tiers: 'Built-in tiers',
	with_tts: 'While a tip is read',
	duck_volume: 'Video volume while ducked',
	size: 'Player width (share of the page)',
	info: 'Video title and requester',
	name: 'Counter',
	label: 'Caption',
	format: 'Number format',
	style: 'Style',
	intensity: 'Intensity',
	duration: 'Duration (s)',
	limit: 'Rows',
	from: 'From amount'
};

/** A tier's own field says what applies when it is empty. */
const TIER_PLACEHOLDERS: Record<string, string> = {
	from: 'required',
	look: 'as every tip',
	sound: 'as every tip',
	image: 'as every tip',
	celebrate: 'as every tip',
	color: "the look's",
	accent: "the look's",
	scale: 'as the widget',
	min_display: 'as the widget'
};

const SECTION_TITLES: Record<SettingsWidget, string> = {
	tts: 'Alerts',
	media: 'Videos',
	'tip-goal': 'Tip goal',
	counters: 'Counters',
	celebration: 'Celebration',
	recent: 'List',
	leaderboard: 'List'
};

function kindOf(field: ParamField): FieldKind {
	const schema: unknown = field.schema;
	if (schema === flag) return 'switch';
	if (schema === cssColor) return 'colour';
	if (schema === fontFamilies) return 'font';
	if (schema === soundValue) return 'sound';
	if (schema === imageValue) return 'image';
	const hints = schema as ParamHints;
	if (hints.options) return 'choice';
	if (hints.min !== undefined) return 'number';
	return 'text';
}

/** The form field of a parameter, labelled as `widget` says it. */
export function formField(
	name: string,
	field: ParamField,
	widget?: SettingsWidget,
	over: { label?: string; placeholder?: string } = {}
): FormField {
	const { options, min, max, step } = field.schema as ParamHints;
	const defaultText = field.defaultText === 'unset' ? '' : field.defaultText;
	return {
		name,
		label: over.label ?? LABELS[`${widget}.${name}`] ?? LABELS[name] ?? name.replace(/_/g, ' '),
		kind: kindOf(field),
		expects: field.expects,
		placeholder: over.placeholder ?? defaultText,
		...(over.placeholder !== undefined ? { inherited: true } : {}),
		...(options ? { options } : {}),
		...(min !== undefined ? { min, max, step } : {})
	};
}

/** A stored name's field in a target: the first of its widgets that takes it. */
function fieldIn(target: SettingsTarget, name: string): FormField {
	// An overlay page's `media_volume` is its media widget's `volume` (media/params.ts).
	if (name === 'media_volume') return formField(name, mediaParamFields.volume, 'media');
	for (const kind of targetKinds(target)) {
		const field = SETTINGS_KINDS[kind].fields[name];
		if (field) return formField(name, field, kind);
	}
	throw new Error(`${name} is not a parameter of ${target}`);
}

/** The form of a target: its stored names in sections; the tiers' names go to the tiers panel. */
export function targetForm(target: SettingsTarget): TargetForm {
	const names = storedNames(target);
	const tiers = names.includes('tier1_from');
	const placed = new Set<string>();
	const section = (id: string, title: string, pick: (n: string) => boolean): FormSection => {
		const fields = names.filter((n) => !placed.has(n) && pick(n)).map((n) => fieldIn(target, n));
		for (const f of fields) placed.add(f.name);
		return { id, title, fields };
	};
	const sections = [section('look', 'Look', (n) => THEME_NAMES.includes(n))];
	const own = (n: string) => !TIER_NAME.test(n) && !(tiers && BASE_TIER_NAMES.includes(n));
	for (const kind of targetKinds(target)) {
		const fields = SETTINGS_KINDS[kind].fields;
		const inKind = (n: string) => own(n) && (Object.hasOwn(fields, n) || n === `${kind}_volume`);
		sections.push(section(kind, SECTION_TITLES[kind], inKind));
	}
	return { sections: sections.filter((s) => s.fields.length > 0), tiers };
}

// --- the alert tiers (tts/tiers.ts): rows of tier1..tier5, sub and replay ---

/** The amount tiers a URL may set, then sub rewards and replays: the rows' order. */
export const TIER_ROWS = ['tier1', 'tier2', 'tier3', 'tier4', 'tier5', 'sub', 'replay'] as const;
const TIER_KEYS = ['from', 'look', 'sound', 'image', 'color', 'accent', 'scale', 'min_display'];

/** A tier row's fields (no `from` for sub rewards and replays), its switch last. */
export function tierRowFields(prefix: string): FormField[] {
	return [...TIER_KEYS, 'celebrate']
		.map((key) => ({ key, field: tierFields[`${prefix}_${key}`] }))
		.filter(({ field }) => field !== undefined)
		.map(({ key, field }) =>
			formField(`${prefix}_${key}`, field, 'tts', {
				label: LABELS[key],
				placeholder: TIER_PLACEHOLDERS[key]
			})
		);
}

/** The base row: what every tip gets unless its tier says otherwise (and the tiers' switch). */
export function baseTierFormFields(): FormField[] {
	return BASE_TIER_NAMES.map((name) =>
		formField(name, baseTierFields[name as keyof typeof baseTierFields], 'tts')
	);
}

/** The tier rows a set of values has: every prefix one of whose fields is set. */
export function tierRowsIn(values: SettingsValues): string[] {
	return TIER_ROWS.filter((p) =>
		Object.keys(values).some((n) => n.startsWith(`${p}_`) && values[n].trim() !== '')
	);
}

/** The first amount tier not shown yet (null: all five are). */
export function nextAmountTier(rows: readonly string[]): string | null {
	return TIER_ROWS.find((p) => p.startsWith('tier') && !rows.includes(p)) ?? null;
}

/** The values without a tier's. */
export function withoutTier(values: SettingsValues, prefix: string): SettingsValues {
	return Object.fromEntries(Object.entries(values).filter(([n]) => !n.startsWith(`${prefix}_`)));
}

/**
 * The values with the built-in ladder written out as the streamer's own tiers (tier1_from=10 ...),
 * a starting point to change; the base's built-in sound too, unless one is set.
 */
export function withLadder(values: SettingsValues): SettingsValues {
	const out: SettingsValues = { ...values, tiers: '' };
	if (!out.sound?.trim() && DEFAULT_LADDER.base.sound) out.sound = DEFAULT_LADDER.base.sound;
	for (const tier of DEFAULT_LADDER.amount) {
		const { name, ...spec } = tier;
		for (const [key, v] of Object.entries(spec))
			out[`${name}_${key}`] = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
	}
	return out;
}

/** How a row is called: `From 10`, `Sub rewards`, `Replays`. */
export function tierLabel(prefix: string, values: SettingsValues): string {
	if (prefix === 'sub') return 'Sub rewards';
	if (prefix === 'replay') return 'Replays';
	const from = values[`${prefix}_from`]?.trim();
	return `From ${from || '?'}`;
}

/**
 * Which tiers apply: the streamer's own rows, none (`tiers=off`), or the built-in ladder (no row
 * and not off), as tts/tiers.ts readTiers decides.
 */
export function tierMode(values: SettingsValues): 'own' | 'off' | 'built-in' {
	if (tierRowsIn(values).some((p) => p.startsWith('tier'))) return 'own';
	return values.tiers?.trim().toLowerCase() === 'off' ? 'off' : 'built-in';
}

// --- errors beside their fields ---

/**
 * The checker's and the server's sentences by the parameter they name first (`color: expected
 * ...`); `general` holds the rest.
 */
export function errorsByField(
	errors: readonly string[],
	names: ReadonlySet<string>
): { byField: Record<string, string[]>; general: string[] } {
	const byField: Record<string, string[]> = {};
	const general: string[] = [];
	for (const e of errors) {
		const name = /^([a-z][a-z0-9_]*):/.exec(e)?.[1];
		if (name && names.has(name)) (byField[name] ??= []).push(e);
		else general.push(e);
	}
	return { byField, general };
}

/** Two sets of values say the same (empty values are unset). */
export function sameValues(a: SettingsValues, b: SettingsValues): boolean {
	const set = (v: SettingsValues) =>
		Object.entries(v)
			.map(([n, x]) => [n, x.trim()] as const)
			.filter(([, x]) => x !== '')
			.sort(([m], [n]) => (m < n ? -1 : m > n ? 1 : 0));
	return JSON.stringify(set(a)) === JSON.stringify(set(b));
}
