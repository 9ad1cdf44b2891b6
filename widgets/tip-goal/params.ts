// URL parameters of the tip-goal widget: the one place they are declared. The page parses them
// with parseTipGoalParams(location.search); README's table comes from TIP_GOAL_PARAM_DOCS.
import { KEY_DESCRIPTION, keyField, withThemeDocs, themeFields } from '../shared/theme-params.ts';
import { offFlag } from '../shared/widget-params.ts';
import { overlayIdParam } from '../shared/place-params.ts';
import {
	identifier,
	param,
	paramDocs,
	parseParams,
	requiredParam
} from '../../src/client/params.ts';

export const tipGoalParamFields = {
	// The same overlay key as every widget page (one schema, so the pages cannot disagree).
	key: keyField,
	overlay: requiredParam(overlayIdParam, {
		expects: 'an overlay id: o_ followed by 8 hex characters (e.g. o_1a2b3c4d)'
	}),
	widget: param(identifier(64), {
		defaultText: 'unset',
		expects: 'a widget id such as w_main_goal (A-Z a-z 0-9 _ -, up to 64)'
	}),
	debug: offFlag,
	sample: offFlag,
	...themeFields('bottom')
};

/** Parses the tip-goal widget's URL parameters (e.g. `location.search`). */
export const parseTipGoalParams = (search: string | URLSearchParams) =>
	parseParams(tipGoalParamFields, search);

/** One row per parameter for the README. */
export const TIP_GOAL_PARAM_DOCS = /*@__PURE__*/ paramDocs(
	tipGoalParamFields,
	/*@__PURE__*/ withThemeDocs(
		{
			key: KEY_DESCRIPTION,
			overlay:
				'the upstream overlay whose tip goal is shown (the goal lives on an overlay); not needed with sample=1',
			widget: 'the tip_goal widget of that overlay this page stands for (diagnostics)',
			debug: '1 shows a diagnostics panel (connection, last event, reads)',
			sample:
				'1 shows a sample goal, 60 % raised with time left, and nothing else (no connection): for placing and theming the widget'
		},
		'the goal',
		'colour of the progress bar and the percentage'
	)
);
