// URL parameters of the TTS widget: the one place they are declared. The shell parses them with
// parseTtsParams(location.search); README's table comes from TTS_PARAM_DOCS.
import { KEY_DESCRIPTION, keyField, themeFields, withThemeDocs } from '../shared/theme-params.ts';
import {
	choice,
	claimField,
	instanceField,
	offFlag,
	onOff,
	seconds,
	share,
	wholeNumber
} from '../shared/widget-params.ts';
import {
	numberIn,
	param,
	paramDocs,
	parseParams,
	type ParamResult,
	type ParamValues
} from '../../src/client/params.ts';
import {
	baseTierDescriptions,
	baseTierFields,
	readTiers,
	tierFields,
	type AlertTiers
} from './tiers.ts';

export const ttsParamFields = {
	key: keyField,
	volume: share(1),
	min_display: seconds(0, 60, 4),
	gap: seconds(0, 30, 0.5),
	claim: claimField,
	audio_failures: wholeNumber(1, 10, 3),
	text_fallback: onOff,
	debug: offFlag,
	sample: offFlag,
	sample_amount: param(numberIn(0, 1_000_000), {
		default: 5,
		expects: 'an amount from 0'
	}),
	sample_kind: choice(['tip', 'sub', 'replay'], 'tip'),
	instance: instanceField,
	...themeFields('top')
};

export type TtsParams = ParamValues<typeof ttsParamFields & typeof baseTierFields> & {
	/** The alert tiers the URL describes (tiers.ts), or the built-in ones. */
	alertTiers: AlertTiers;
};

const allFields = { ...ttsParamFields, ...baseTierFields, ...tierFields };

/** Parses the TTS widget's URL parameters (e.g. `location.search`), the alert tiers included. */
export function parseTtsParams(search: string | URLSearchParams): ParamResult<TtsParams> {
	const parsed = parseParams(allFields, search);
	if (!parsed.ok) return parsed;
	const tiers = readTiers(parsed.value);
	if (!tiers.ok) return { ok: false, errors: tiers.errors };
	const value = parsed.value as ParamValues<typeof ttsParamFields & typeof baseTierFields>;
	return { ...parsed, value: { ...value, alertTiers: tiers.tiers } };
}

/**
 * One row per parameter for the README: name, what it expects, default, description. Built by a
 * function: the spreads in paramDocs' arguments would otherwise stay in a page that drops the call
 * (a bundler keeps an object spread, which may run getters), and with them the descriptions.
 */
export const TTS_PARAM_DOCS = /*@__PURE__*/ ttsParamDocs();

function ttsParamDocs() {
	return paramDocs(
		{ ...ttsParamFields, ...baseTierFields },
		withThemeDocs(
			{
				key: KEY_DESCRIPTION,
				volume: 'loudness of the speech (OBS can also mix the source)',
				min_display: 'the alert stays on screen at least this long, even for short audio',
				gap: "pause between one alert leaving and the next one starting; with 0, a next alert that is ready takes the card's place as soon as it starts",
				claim:
					'when this copy takes alerts: visible (shown anywhere in OBS), active (on air in Program), always; never: only shows what another copy reads (the preview)',
				audio_failures: 'audio attempts for one alert before the text fallback',
				text_fallback:
					'on: after repeated audio failures show the message as text for a readable time, then finish it',
				debug: '1 shows a diagnostics panel (connection, last event, claim, OBS state)',
				sample:
					'1 shows a sample alert and nothing else (no connection, no claims, no sound): for placing and theming the widget',
				sample_amount: "with sample=1: the sample tip's amount, to see a tier's look",
				sample_kind: 'with sample=1: a sample sub reward or replay, to see their tier',
				instance: 'tells two copies of this widget apart (e.g. two scenes with their own source)',
				...baseTierDescriptions
			},
			'the alert',
			'colour of the amount, the badges and the spoken-word highlight'
		)
	);
}
