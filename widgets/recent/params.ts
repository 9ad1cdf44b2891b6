// URL parameters of the recent-events widget: the one place they are declared.
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

export const recentParamFields = {
	key: keyField,
	limit: param(integerIn(1, 50), {
		default: 10,
		expects: 'a whole number from 1 to 50'
	}),
	...themeFields('top-left')
};

export type RecentParams = ParamValues<typeof recentParamFields>;

export function parseRecentParams(search: string | URLSearchParams): ParamResult<RecentParams> {
	return parseParams(recentParamFields, search);
}

export const RECENT_PARAM_DOCS = /*@__PURE__*/ paramDocs(recentParamFields, {
	key: KEY_DESCRIPTION,
	limit: 'how many of the latest tips and video requests are listed',
	font: 'font of the list, installed on the streaming PC (e.g. `Comic Neue, sans-serif`)',
	color: 'text colour of the list',
	accent: 'colour of the amounts and the kind labels',
	scale: 'size of the list relative to the page width',
	position: 'where the list sits on the page'
});

export function recentTheme(p: RecentParams): ListTheme {
	return { font: p.font, color: p.color, accent: p.accent, scale: p.scale, position: p.position };
}
