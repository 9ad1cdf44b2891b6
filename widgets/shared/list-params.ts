// The URL parameters of a list widget (top supporters, recent events): the key, how many rows
// (`limit`) and the theme, the same rules for every list; each list names its own bounds, default
// position and README wording.
import { paramDocs } from '../../src/client/params.ts';
import {
	KEY_DESCRIPTION,
	keyField,
	themeFields,
	withThemeDocs,
	type Position
} from './theme-params.ts';
import { offFlag, wholeNumber } from './widget-params.ts';

export function listParamFields(maxLimit: number, limit: number, position: Position) {
	return {
		key: keyField,
		limit: wholeNumber(1, maxLimit, limit),
		sample: offFlag,
		...themeFields(position)
	};
}

type ListParamFields = ReturnType<typeof listParamFields>;

/**
 * A list widget's README rows: `limit` says what is listed, `what` names the list (`the board`),
 * `accent` what the accent colour paints. Call it marked pure, so that pages drop the text.
 */
export function listParamDocs(
	fields: ListParamFields,
	limit: string,
	what: string,
	accent: string
) {
	const sample = `1 shows ${what} with sample rows (the first \`limit\`) and nothing else (no connection): for placing and theming the widget`;
	return paramDocs(fields, withThemeDocs({ key: KEY_DESCRIPTION, limit, sample }, what, accent));
}
