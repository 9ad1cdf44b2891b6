// URL parameters of the top-supporters widget: the one place they are declared.
import { parseParams } from '../../src/client/params.ts';
import { listParamDocs, listParamFields } from '../shared/list-params.ts';

export const leaderboardParamFields = /*@__PURE__*/ listParamFields(25, 5, 'top-right');

/** Parses the URL parameters (e.g. `location.search`). */
export const parseLeaderboardParams = (search: string | URLSearchParams) =>
	parseParams(leaderboardParamFields, search);

export const LEADERBOARD_PARAM_DOCS = /*@__PURE__*/ listParamDocs(
	leaderboardParamFields,
	'how many supporters are listed',
	'the board',
	'colour of the ranks and the totals'
);
