// URL parameters of the top-supporters widget: the one place they are declared.
import { KEY_DESCRIPTION, keyField, themeFields } from '../shared/theme-params.ts';
import {
	integerIn,
	param,
	paramDocs,
	parseParams,
	type ParamResult,
	type ParamValues
} from '../../src/client/params.ts';
import type { WidgetTheme as ListTheme } from '../shared/theme-params.ts';

export const leaderboardParamFields = {
	key: keyField,
	limit: param(integerIn(1, 25), {
		default: 5,
		expects: 'a whole number from 1 to 25'
	}),
	...themeFields('top-right')
};

export type LeaderboardParams = ParamValues<typeof leaderboardParamFields>;

export function parseLeaderboardParams(
	search: string | URLSearchParams
): ParamResult<LeaderboardParams> {
	return parseParams(leaderboardParamFields, search);
}

export const LEADERBOARD_PARAM_DOCS = /*@__PURE__*/ paramDocs(leaderboardParamFields, {
	key: KEY_DESCRIPTION,
	limit: 'how many supporters are listed',
	font: 'font of the board, installed on the streaming PC (e.g. `Comic Neue, sans-serif`)',
	color: 'text colour of the board',
	accent: 'colour of the ranks and the totals',
	scale: 'size of the board relative to the page width',
	position: 'where the board sits on the page'
});

export function leaderboardTheme(p: LeaderboardParams): ListTheme {
	return { font: p.font, color: p.color, accent: p.accent, scale: p.scale, position: p.position };
}
