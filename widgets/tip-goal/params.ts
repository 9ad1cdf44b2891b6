// URL parameters of the tip-goal widget: the one place they are declared. The page parses them
// with parseTipGoalParams(location.search); README's table comes from TIP_GOAL_PARAM_DOCS.
import { POSITIONS, KEY_DESCRIPTION, keyField, themeFields } from '../shared/theme-params.ts';
import { OVERLAY_ID } from '../../src/contract/index.ts';
import {
	flag,
	identifier,
	param,
	paramDocs,
	parseParams,
	requiredParam,
	type ParamResult,
	type ParamValues
} from '../../src/client/params.ts';
import { z } from 'zod/mini';
import type { TipGoalTheme } from './view.ts';

/** Where the goal bar sits on its page (or in its box on an overlay). */
export const GOAL_POSITIONS = POSITIONS;
export type GoalPosition = (typeof GOAL_POSITIONS)[number];

const overlayId: z.ZodMiniType<string, string> = z.string().check(z.trim(), z.regex(OVERLAY_ID));

export const tipGoalParamFields = {
	// The same overlay key as every widget page (one schema, so the pages cannot disagree).
	key: keyField,
	overlay: requiredParam(overlayId, {
		expects: 'an overlay id: o_ followed by 8 hex characters (e.g. o_1a2b3c4d)'
	}),
	widget: param(identifier(64), {
		defaultText: 'unset',
		expects: 'a widget id such as w_main_goal (A-Z a-z 0-9 _ -, up to 64)'
	}),
	debug: param(flag, {
		default: false,
		defaultText: '0',
		expects: '1 or 0'
	}),
	...themeFields('bottom')
};

export type TipGoalParams = ParamValues<typeof tipGoalParamFields>;

/** Parses the tip-goal widget's URL parameters (e.g. `location.search`). */
export function parseTipGoalParams(search: string | URLSearchParams): ParamResult<TipGoalParams> {
	return parseParams(tipGoalParamFields, search);
}

/** One row per parameter for the README. */
export const TIP_GOAL_PARAM_DOCS = /*@__PURE__*/ paramDocs(tipGoalParamFields, {
	key: KEY_DESCRIPTION,
	overlay: 'the upstream overlay whose tip goal is shown (the goal lives on an overlay)',
	widget: 'the tip_goal widget of that overlay this page stands for (diagnostics)',
	debug: '1 shows a diagnostics panel (connection, last event, reads)',
	font: 'font of the goal, installed on the streaming PC (e.g. `Comic Neue, sans-serif`)',
	color: 'text colour of the goal',
	accent: 'colour of the progress bar and the percentage',
	scale: 'size of the goal relative to the page width',
	position: 'where the goal sits on the page'
});

/** The theme part of the parameters, as the widget's markup consumes it. */
export function tipGoalTheme(p: TipGoalParams): TipGoalTheme {
	return { font: p.font, color: p.color, accent: p.accent, scale: p.scale, position: p.position };
}
