// URL parameters of the recent-events widget: the one place they are declared.
import { KEY_DESCRIPTION, keyField, themeFields, withThemeDocs } from '../shared/theme-params.ts';
import {
	integerIn,
	param,
	paramDocs,
	parseParams,
	type ParamValues
} from '../../src/client/params.ts';

export const recentParamFields = {
	key: keyField,
	limit: param(integerIn(1, 50), { default: 10, expects: 'a whole number from 1 to 50' }),
	...themeFields('top-left')
};

export type RecentParams = ParamValues<typeof recentParamFields>;

/** Parses the URL parameters (e.g. `location.search`). */
export const parseRecentParams = (search: string | URLSearchParams) =>
	parseParams(recentParamFields, search);

export const RECENT_PARAM_DOCS = /*@__PURE__*/ paramDocs(
	recentParamFields,
	/*@__PURE__*/ withThemeDocs(
		{
			key: KEY_DESCRIPTION,
			limit: 'how many of the latest tips and video requests are listed'
		},
		'the list',
		'colour of the amounts and the kind labels'
	)
);
