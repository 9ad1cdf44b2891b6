// URL parameters of the recent-events widget: the one place they are declared.
import { keyField, themeFields, themeOf, type WidgetTheme } from '../shared/theme-params.ts';
import { integerIn, param, paramDocs, parseParams } from '../../src/client/params.ts';
import type { ParamResult, ParamValues } from '../../src/client/params.ts';

export const recentParamFields = {
	key: keyField,
	limit: param(integerIn(1, 50), {
		default: 10,
		expects: 'a whole number from 1 to 50',
		description: 'how many of the latest tips and video requests are listed'
	}),
	...themeFields({
		position: 'top-left',
		describe: {
			font: 'font of the list, installed on the streaming PC (e.g. `Comic Neue, sans-serif`)',
			color: 'text colour of the list',
			accent: 'colour of the amounts and the kind labels',
			scale: 'size of the list relative to the page width',
			position: 'where the list sits on the page'
		}
	})
};

export type RecentParams = ParamValues<typeof recentParamFields>;

export function parseRecentParams(search: string | URLSearchParams): ParamResult<RecentParams> {
	return parseParams(recentParamFields, search);
}

export const RECENT_PARAM_DOCS = paramDocs(recentParamFields);

/** The theme part of the parameters, as the markup consumes it. */
export const recentTheme: (p: RecentParams) => WidgetTheme = themeOf;
