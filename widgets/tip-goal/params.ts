// URL parameters of the tip-goal widget: the one place they are declared. The page parses them
// with parseTipGoalParams(location.search); README's table comes from TIP_GOAL_PARAM_DOCS.
import { keyField, themeFields, themeOf, type WidgetTheme } from '../shared/theme-params.ts';
import { debugField, overlayIdParam } from '../shared/widget-params.ts';
import {
	identifier,
	param,
	paramDocs,
	parseParams,
	requiredParam
} from '../../src/client/params.ts';
import type { ParamResult, ParamValues } from '../../src/client/params.ts';

export const tipGoalParamFields = {
	key: keyField,
	overlay: requiredParam(overlayIdParam, {
		expects: 'an overlay id: o_ followed by 8 hex characters (e.g. o_1a2b3c4d)',
		description: 'the upstream overlay whose tip goal is shown (the goal lives on an overlay)'
	}),
	widget: param(identifier(64), {
		defaultText: 'unset',
		expects: 'a widget id such as w_main_goal (A-Z a-z 0-9 _ -, up to 64)',
		description: 'the tip_goal widget of that overlay this page stands for (diagnostics)'
	}),
	debug: debugField('1 shows a diagnostics panel (connection, last event, reads)'),
	...themeFields({
		position: 'bottom',
		describe: {
			font: 'font of the goal, installed on the streaming PC (e.g. `Comic Neue, sans-serif`)',
			color: 'text colour of the goal',
			accent: 'colour of the progress bar and the percentage',
			scale: 'size of the goal relative to the page width',
			position: 'where the goal sits on the page'
		}
	})
};

export type TipGoalParams = ParamValues<typeof tipGoalParamFields>;

/** Parses the tip-goal widget's URL parameters (e.g. `location.search`). */
export function parseTipGoalParams(search: string | URLSearchParams): ParamResult<TipGoalParams> {
	return parseParams(tipGoalParamFields, search);
}

/** One row per parameter for the README. */
export const TIP_GOAL_PARAM_DOCS = paramDocs(tipGoalParamFields);

/** The theme part of the parameters, as the widget's markup consumes it. */
export const tipGoalTheme: (p: TipGoalParams) => WidgetTheme = themeOf;
