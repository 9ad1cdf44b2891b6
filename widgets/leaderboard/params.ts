// URL parameters of the top-supporters widget: the one place they are declared.
import { KEY_DESCRIPTION, keyField, themeFields, withThemeDocs } from '../shared/theme-params.ts';
import {
	integerIn,
	param,
	paramDocs,
	parseParams,
	type ParamValues
} from '../../src/client/params.ts';

export const leaderboardParamFields = {
	key: keyField,
	limit: param(integerIn(1, 25), { default: 5, expects: 'a whole number from 1 to 25' }),
	...themeFields('top-right')
};

export type LeaderboardParams = ParamValues<typeof leaderboardParamFields>;

/** Parses the URL parameters (e.g. `location.search`). */
export const parseLeaderboardParams = (search: string | URLSearchParams) =>
	parseParams(leaderboardParamFields, search);

export const LEADERBOARD_PARAM_DOCS = /*@__PURE__*/ paramDocs(
	leaderboardParamFields,
	/*@__PURE__*/ withThemeDocs(
		{
			key: KEY_DESCRIPTION,
			limit: 'how many supporters are listed'
		},
		'the board',
		'colour of the ranks and the totals'
	)
);
