// The stored settings' schemas (docs/settings.md): every widget's own URL-parameter table,
// so that a stored value is checked by exactly the rules that check it in a URL. The token endpoint
// checks a save with checkSettings (handed to it by src/main.ts: the server layer does not import
// widgets), the editor builds its forms from the same tables and turns a pasted URL into stored
// settings, and back into a URL with the parameters written out.
import {
	isSettingsTarget,
	PER_SOURCE_PARAMS,
	type SettingsTarget,
	type SettingsValues,
	type SettingsWidget
} from '../../src/contract/index.ts';
import type { ParamFields, ParamResult } from '../../src/client/params.ts';
import { celebrationParamFields, parseCelebrationParams } from '../celebration/params.ts';
import { countersParamFields, parseCountersParams } from '../counters/params.ts';
import { leaderboardParamFields, parseLeaderboardParams } from '../leaderboard/params.ts';
import { mediaParamFields, mediaParamsForOverlay, parseMediaParams } from '../media/params.ts';
import { parseRecentParams, recentParamFields } from '../recent/params.ts';
import { parseTipGoalParams, tipGoalParamFields } from '../tip-goal/params.ts';
import { parseTtsParams, ttsParamFields } from '../tts/params.ts';
import { baseTierFields, tierFields } from '../tts/tiers.ts';

export interface SettingsKind {
	/** The widget's name as the editor and the errors say it. */
	label: string;
	/** Its URL parameters (per-source ones included: storedNames leaves them out). */
	fields: ParamFields;
	/** Parses a whole query of its parameters, as its page does. */
	parse(q: URLSearchParams): ParamResult<unknown>;
}

export const SETTINGS_KINDS: Record<SettingsWidget, SettingsKind> = {
	tts: {
		label: 'TTS widget',
		fields: { ...ttsParamFields, ...baseTierFields, ...tierFields },
		parse: parseTtsParams
	},
	media: { label: 'media widget', fields: mediaParamFields, parse: parseMediaParams },
	'tip-goal': { label: 'tip-goal widget', fields: tipGoalParamFields, parse: parseTipGoalParams },
	counters: { label: 'counters widget', fields: countersParamFields, parse: parseCountersParams },
	celebration: {
		label: 'celebration widget',
		fields: celebrationParamFields,
		parse: parseCelebrationParams
	},
	recent: { label: 'recent-events widget', fields: recentParamFields, parse: parseRecentParams },
	leaderboard: {
		label: 'top-supporters widget',
		fields: leaderboardParamFields,
		parse: parseLeaderboardParams
	}
};

/** The widgets an overlay page places, each parsed from the page's one query (src/pages/overlay.ts). */
const OVERLAY_PARSERS: readonly ((q: URLSearchParams) => ParamResult<unknown>)[] = [
	parseTtsParams,
	mediaParamsForOverlay,
	parseCountersParams,
	parseCelebrationParams,
	parseTipGoalParams
];
const OVERLAY_KINDS: readonly SettingsWidget[] = [
	'tts',
	'media',
	'counters',
	'celebration',
	'tip-goal'
];

const perSource = new Set<string>(PER_SOURCE_PARAMS);
/** A well-formed key, for checking a set of settings with the parsers, which require one. */
const CHECK_KEY = 'settings-check-key';
/** A well-formed overlay id, for the tip goal's parser, which requires one (it stays per source). */
const CHECK_OVERLAY = 'o_00000000';

/** The widgets whose parameters a target holds: one kind, or every widget an overlay page places. */
export function targetKinds(target: SettingsTarget): readonly SettingsWidget[] {
	return target.startsWith('o_') ? OVERLAY_KINDS : [target as SettingsWidget];
}

/** The names a target may store, in the order of its widgets' tables (the editor's order). */
export function storedNames(target: SettingsTarget): string[] {
	const kinds = targetKinds(target);
	const names = new Set<string>();
	for (const kind of kinds) {
		for (const name of Object.keys(SETTINGS_KINDS[kind].fields))
			if (!perSource.has(name)) names.add(name);
		// In an overlay page `volume` is the speech's; `media_volume` the videos' (media/params.ts).
		if (kind === 'media' && kinds.length > 1) names.add('media_volume');
	}
	return [...names];
}

/** What a target is called in an error (`the TTS widget`, `overlay o_1a2b3c4d`). */
export function targetLabel(target: SettingsTarget): string {
	return target.startsWith('o_')
		? `overlay ${target}`
		: `the ${SETTINGS_KINDS[target as SettingsWidget].label}`;
}

/**
 * The problems of a target's settings, one sentence each naming the parameter (empty: they can be
 * stored): a name the target does not take, one that stays in each source's URL, or a value its
 * widget's schema refuses. Values are checked as the URL would carry them; empty ones are unset.
 */
export function checkSettings(target: string, values: SettingsValues): string[] {
	if (!isSettingsTarget(target)) return [`"${target}" is not a widget or an overlay id`];
	const allowed = new Set(storedNames(target));
	const errors: string[] = [];
	// The per-source parameters a parser requires, as a source's URL would give them.
	const overlay = target.startsWith('o_') ? target : CHECK_OVERLAY;
	const q = new URLSearchParams({ key: CHECK_KEY, overlay });
	for (const [name, value] of Object.entries(values)) {
		if (perSource.has(name))
			errors.push(`${name}: stays in each source's URL, it is not a stored setting`);
		else if (!allowed.has(name)) errors.push(`${name}: not a setting of ${targetLabel(target)}`);
		else q.set(name, value);
	}
	const parsers = target.startsWith('o_')
		? OVERLAY_PARSERS
		: [SETTINGS_KINDS[target as SettingsWidget].parse];
	for (const parse of parsers) {
		const r = parse(q);
		if (!r.ok) errors.push(...r.errors);
	}
	return [...new Set(errors)];
}

/** A target's settings with values trimmed and empty ones dropped (an empty value is unset). */
export function normalizeSettings(values: SettingsValues): SettingsValues {
	const out: SettingsValues = {};
	for (const [name, value] of Object.entries(values)) {
		const v = value.trim();
		if (v !== '') out[name] = v;
	}
	return out;
}
