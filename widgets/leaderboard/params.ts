// URL parameters of the top-supporters widget: the one place they are declared.
import { keyField, themeFields, themeOf, type WidgetTheme } from '../shared/theme-params.ts';
import { integerIn, param, paramDocs, parseParams } from '../../src/client/params.ts';
import type { ParamResult, ParamValues } from '../../src/client/params.ts';

export const leaderboardParamFields = {
	key: keyField,
	limit: param(integerIn(1, 25), {
		default: 5,
		expects: 'a whole number from 1 to 25',
		description: 'how many supporters are listed'
	}),
	...themeFields({
		position: 'top-right',
		describe: {
			font: 'font of the board, installed on the streaming PC (e.g. `Comic Neue, sans-serif`)',
			color: 'text colour of the board',
			accent: 'colour of the ranks and the totals',
			scale: 'size of the board relative to the page width',
			position: 'where the board sits on the page'
		}
	})
};

export type LeaderboardParams = ParamValues<typeof leaderboardParamFields>;

export function parseLeaderboardParams(
	search: string | URLSearchParams
): ParamResult<LeaderboardParams> {
	return parseParams(leaderboardParamFields, search);
}

export const LEADERBOARD_PARAM_DOCS = paramDocs(leaderboardParamFields);

/** The theme part of the parameters, as the markup consumes it. */
export const leaderboardTheme: (p: LeaderboardParams) => WidgetTheme = themeOf;
