// Alert tiers: the streamer's variations of the alert by amount (tier1_from=10, tier1_look=gold,
// ...), with a tier of their own for sub rewards (sub_*) and replays (replay_*). Each tier picks a
// look, colours, scale, a sound played before the speech, an image, its minimum time on screen and
// whether it fires the celebration. What a tier leaves unset it takes from the base parameters
// (look, sound, image, min_display, celebrate, color, accent, scale without a prefix).
//
// Without tier parameters a built-in ladder applies (DEFAULT_LADDER: a sound for every tip, gold
// from 10, neon from 50, a fanfare and a celebration from 100); `tiers=off` turns it off, and any
// tierN_ parameter replaces it with the streamer's own. Amounts are in the tenant's currency, as
// the upstream sends them.
import { z } from 'zod/mini';
import { CSS_COLOR_EXPECTS, cssColor } from '../../src/client/css-params.ts';
import { choice, share } from '../shared/widget-params.ts';
import {
	flag,
	numberIn,
	oneOf,
	param,
	type ParamField,
	type ParamSchema
} from '../../src/client/params.ts';

/** The card's preset looks (AlertCard.svelte styles each). */
export const LOOKS = ['classic', 'gold', 'neon', 'ember', 'frost'] as const;
export type Look = (typeof LOOKS)[number];

/** The sounds shipped in public/sounds/ (made by src/tools/make-sounds.ts, CC0). */
export const SOUND_NAMES = ['pop', 'coin', 'chime', 'fanfare'] as const;

/** How many amount tiers a URL may set (tier1 ... tier5). */
export const TIER_COUNT = 5;
export const TIER_PREFIXES = [
	...Array.from({ length: TIER_COUNT }, (_, i) => `tier${i + 1}`),
	'sub',
	'replay'
] as const;

const isHttpUrl = (s: string) => /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(s) && s.length <= 2048;

/**
 * A shipped sound's name, `none`, or an http(s) URL of a sound file. Exported, as imageValue: the
 * settings editor knows a sound or an image field by its schema.
 */
export const soundValue: ParamSchema<string> = () =>
	z.pipe(
		z.string().check(
			z.trim(),
			z.refine(
				(s) =>
					(SOUND_NAMES as readonly string[]).includes(s.toLowerCase()) ||
					s.toLowerCase() === 'none' ||
					isHttpUrl(s)
			)
		),
		z.transform((s) => (isHttpUrl(s) ? s : s.toLowerCase()))
	);

/** An http(s) URL of an image or GIF, or `none`. */
export const imageValue: ParamSchema<string> = () =>
	z.pipe(
		z.string().check(
			z.trim(),
			z.refine((s) => s.toLowerCase() === 'none' || isHttpUrl(s))
		),
		z.transform((s) => (isHttpUrl(s) ? s : 'none'))
	);

const SOUND_EXPECTS = `${SOUND_NAMES.join(', ')}, none, or an http(s) URL of a sound`;

const LOOK_EXPECTS = LOOKS.join(', ');
const IMAGE_EXPECTS = 'an http(s) URL of an image or GIF, or none';

/** The base fields (no prefix): what every tip gets unless its tier says otherwise. */
export const baseTierFields = {
	look: param(oneOf(LOOKS), {
		defaultText: 'classic',
		expects: LOOK_EXPECTS
	}),
	sound: param(soundValue, {
		defaultText: 'pop with the built-in tiers, else none',
		expects: SOUND_EXPECTS
	}),
	image: param(imageValue, {
		defaultText: 'none',
		expects: IMAGE_EXPECTS
	}),
	celebrate: param(flag, {
		defaultText: '0',
		expects: '1 or 0'
	}),
	sound_volume: share(0.8),
	tiers: choice(['default', 'off'], 'default')
};

/** The base fields' lines in the README table (TTS_PARAM_DOCS; not bundled in a page). */
export const baseTierDescriptions: { readonly [K in keyof typeof baseTierFields]: string } = {
	look: 'preset look of the card (colours and glow); tiers may choose another',
	sound: 'sound played before the speech',
	image: 'image or GIF shown on the card',
	celebrate:
		"1 fires the celebration widget (the overlay's, or every celebration source) for each alert",
	sound_volume: 'loudness of the alert sounds',
	tiers:
		'default: the built-in tiers apply unless the URL sets its own (tier1_from ...); off: one look for every tip'
};

/** What a tier may set, one field each, shared by every prefix (parseParams builds the schemas). */
const TIER_FIELD: Record<string, ParamField<unknown>> = {
	from: param(numberIn(0, 1_000_000), {
		expects: 'an amount from 0'
	}),
	look: param(oneOf(LOOKS), { expects: LOOK_EXPECTS }),
	color: param(cssColor, { expects: CSS_COLOR_EXPECTS }),
	accent: param(cssColor, { expects: CSS_COLOR_EXPECTS }),
	scale: param(numberIn(0.25, 4), {
		expects: 'a number from 0.25 to 4'
	}),
	sound: param(soundValue, { expects: SOUND_EXPECTS }),
	image: param(imageValue, { expects: IMAGE_EXPECTS }),
	min_display: param(numberIn(0, 60), {
		expects: 'seconds from 0 to 60'
	}),
	celebrate: param(flag, { expects: '1 or 0' })
};

/** tier1_* ... tier5_*, sub_*, replay_* (sub and replay have no `_from`): the README lists the pattern. */
export const tierFields: Record<string, ParamField<unknown>> = Object.fromEntries(
	TIER_PREFIXES.flatMap((prefix) =>
		Object.entries(TIER_FIELD)
			.filter(([k]) => k !== 'from' || prefix.startsWith('tier'))
			.map(([k, f]) => [`${prefix}_${k}`, f] as const)
	)
);

/** What one tier sets (absent: taken from the base). */
export interface TierSpec {
	from?: number;
	look?: Look;
	color?: string;
	accent?: string;
	scale?: number;
	sound?: string;
	image?: string;
	min_display?: number;
	celebrate?: boolean;
}

/** The style an alert gets: its tier resolved against the base. */
export interface AlertStyle {
	/** `base`, `tier1`..`tier5`, `sub` or `replay`: which tier applied (data-tier on the card). */
	tier: string;
	look: Look;
	/** Set only when the tier sets them; otherwise the look's or the page theme's apply. */
	color?: string;
	accent?: string;
	scale?: number;
	/** URL of the sound to play before the speech; null: none. */
	sound: string | null;
	/** URL of the card's image; null: none. */
	image: string | null;
	minDisplayS: number;
	celebrate: boolean;
}

export interface AlertTiers {
	base: TierSpec;
	/** Amount tiers, lowest `from` first. */
	amount: (TierSpec & { name: string; from: number })[];
	sub?: TierSpec;
	replay?: TierSpec;
}

/** The built-in ladder: used when the URL sets no tier of its own and not `tiers=off`. */
export const DEFAULT_LADDER: Omit<AlertTiers, 'base'> & { base: TierSpec } = {
	base: { sound: 'pop' },
	amount: [
		{ name: 'tier1', from: 10, look: 'gold', sound: 'coin' },
		{ name: 'tier2', from: 50, look: 'neon', sound: 'chime' },
		{
			name: 'tier3',
			from: 100,
			look: 'ember',
			sound: 'fanfare',
			scale: 1.15,
			min_display: 8,
			celebrate: true
		}
	]
};

type Values = Record<string, unknown>;

/** What a tier may set: the fields of TIER_FIELD, without their prefix. */
const TIER_KEYS = Object.keys(TIER_FIELD);
/** The base's colours, scale and min_display are the page's theme and timing, not a tier's. */
const BASE_KEYS = ['look', 'sound', 'image', 'celebrate'] as const;

function specOf(v: Values, prefix: string): TierSpec {
	const spec: Record<string, unknown> = {};
	for (const key of prefix ? TIER_KEYS : BASE_KEYS) {
		const value = v[prefix ? `${prefix}_${key}` : key];
		if (value !== undefined) spec[key] = value;
	}
	return spec as TierSpec;
}

/**
 * The tiers a parsed URL describes, or the sentences that say what is wrong (a tier without its
 * `_from`, two tiers from the same amount).
 */
export function readTiers(
	v: Values
): { ok: true; tiers: AlertTiers } | { ok: false; errors: string[] } {
	const errors: string[] = [];
	const amount: AlertTiers['amount'] = [];
	let own = false;
	for (const prefix of TIER_PREFIXES) {
		const spec = specOf(v, prefix);
		const keys = Object.keys(spec);
		if (keys.length === 0) continue;
		own = true;
		if (!prefix.startsWith('tier')) continue;
		if (spec.from === undefined) {
			errors.push(
				`${prefix}_${keys[0]}: ${prefix} needs ${prefix}_from, the smallest amount it applies to`
			);
			continue;
		}
		const same = amount.find((t) => t.from === spec.from);
		if (same) {
			errors.push(
				`${prefix}_from: ${same.name} already starts at ${spec.from}; give each tier its own amount`
			);
			continue;
		}
		amount.push({ ...spec, name: prefix, from: spec.from });
	}
	if (errors.length) return { ok: false, errors };
	amount.sort((a, b) => a.from - b.from);
	const base = specOf(v, '');
	const sub = specOf(v, 'sub');
	const replay = specOf(v, 'replay');
	const ladder = !own && v.tiers !== 'off';
	return {
		ok: true,
		tiers: {
			base: ladder ? { ...DEFAULT_LADDER.base, ...base } : base,
			amount: ladder ? DEFAULT_LADDER.amount : amount,
			...(Object.keys(sub).length ? { sub } : {}),
			...(Object.keys(replay).length ? { replay } : {})
		}
	};
}

/** A tip's tier: sub rewards and replays their own if set, else the highest tier its amount reaches. */
export function pickTier(
	tiers: AlertTiers,
	tip: { amount: number | null; is_sub_reward: boolean; is_replay: boolean }
): { name: string; spec: TierSpec } {
	if (tip.is_sub_reward && tiers.sub) return { name: 'sub', spec: tiers.sub };
	if (tip.is_replay && tiers.replay) return { name: 'replay', spec: tiers.replay };
	const amount = tip.amount ?? 0;
	let picked: { name: string; spec: TierSpec } = { name: 'base', spec: {} };
	for (const t of tiers.amount) if (amount >= t.from) picked = { name: t.name, spec: t };
	return picked;
}

/** Where a shipped sound is served (public/sounds/), or the URL as given. */
export function soundUrl(sound: string | undefined): string | null {
	if (!sound || sound === 'none') return null;
	return (SOUND_NAMES as readonly string[]).includes(sound) ? `/sounds/${sound}.wav` : sound;
}

/** The style of a tip's alert: its tier over the base, over the page's min_display. */
export function alertStyle(
	tiers: AlertTiers,
	tip: { amount: number | null; is_sub_reward: boolean; is_replay: boolean },
	minDisplayS: number
): AlertStyle {
	const { name, spec } = pickTier(tiers, tip);
	const b = tiers.base;
	const image = spec.image ?? b.image;
	return {
		tier: name,
		look: spec.look ?? b.look ?? 'classic',
		...(spec.color ? { color: spec.color } : {}),
		...(spec.accent ? { accent: spec.accent } : {}),
		...(spec.scale ? { scale: spec.scale } : {}),
		sound: soundUrl(spec.sound ?? b.sound),
		image: image && image !== 'none' ? image : null,
		minDisplayS: spec.min_display ?? minDisplayS,
		celebrate: spec.celebrate ?? b.celebrate ?? false
	};
}
