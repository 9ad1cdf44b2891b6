// URL parameters of the recent-events widget: the one place they are declared.
import { parseParams } from '../../src/client/params.ts';
import { listParamDocs, listParamFields } from '../shared/list-params.ts';

export const recentParamFields = /*@__PURE__*/ listParamFields(50, 10, 'top-left');

/** Parses the URL parameters (e.g. `location.search`). */
export const parseRecentParams = (search: string | URLSearchParams) =>
	parseParams(recentParamFields, search);

export const RECENT_PARAM_DOCS = /*@__PURE__*/ listParamDocs(
	recentParamFields,
	'how many of the latest tips and video requests are listed',
	'the list',
	'colour of the amounts and the kind labels'
);
