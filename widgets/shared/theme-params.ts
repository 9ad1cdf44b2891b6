// The parameters every widget takes: the overlay key, and the theme of every positioned widget
// (font, color, accent, scale, position): one declaration, with each widget's own default position
// (and its own README wording, in its paramDocs call).
import {
	CSS_COLOR_EXPECTS,
	FONT_FAMILIES_EXPECTS,
	cssColor,
	fontFamilies
} from '../../src/client/css-params.ts';
import { oneOf, param, requiredParam, type ParamSchema } from '../../src/client/params.ts';
import { KEY_FORMAT } from '../../src/contract/keys.ts';
import { numberField } from './widget-params.ts';
import { z } from 'zod/mini';

// The token endpoint's overlay key format (src/server/config.ts); a malformed key is reported here
// instead of costing a refused request (and a rate-limit strike) at the server.
const overlayKey: ParamSchema<string> = () => z.string().check(z.trim(), z.regex(KEY_FORMAT));

/** `key`: the overlay key every widget URL carries. */
export const keyField = requiredParam(overlayKey, {
	expects: 'the overlay key (16 to 128 characters of A-Z a-z 0-9 _ -)'
});
/** `key` in every widget's README table. */
export const KEY_DESCRIPTION = 'the overlay key that `npm start` prints in every overlay URL';

/**
 * A widget's README lines with those of its theme parameters, for a widget that is one thing on
 * its page (`the board`); `accent` says what the accent colour paints. Call it marked pure, as
 * paramDocs, so that pages drop the text.
 */
export function withThemeDocs<D extends Record<string, string>>(
	own: D,
	what: string,
	accent: string
) {
	return {
		...own,
		font: `font of ${what}, installed on the streaming PC (e.g. \`Comic Neue, sans-serif\`)`,
		color: `text colour of ${what}`,
		accent,
		scale: `size of ${what} relative to the page width`,
		position: `where ${what} sits on the page`
	};
}

/** Where a widget sits on its page (or in its box on an overlay). */
export const POSITIONS = [
	'top-left',
	'top',
	'top-right',
	'center',
	'bottom-left',
	'bottom',
	'bottom-right'
] as const;
export type Position = (typeof POSITIONS)[number];

/** The theme part of a widget's parameters, as its markup consumes it; unset values keep the
 * stylesheet's defaults. */
export interface WidgetTheme {
	font?: string;
	color?: string;
	accent?: string;
	scale: number;
	position: Position;
}

/**
 * What a widget's shell and debug panel show of its state: the status (`ready`, `unauthorized` …),
 * why in a sentence, and the URL's parameter errors (then nothing connects).
 */
export interface ShellView {
	status: string;
	statusDetail?: string;
	paramErrors?: readonly string[] | null;
}

/** The props of a widget drawn from its model (celebration, counters). */
export interface ModelProps<M> {
	/** Absent when the URL parameters are wrong (then `paramErrors` says why). */
	model?: M;
	paramErrors?: readonly string[] | null;
}

/** Rows of a widget's debug=1 panel (label, value), shown as text. */
export type DebugRows = ReadonlyArray<readonly [label: string, value: string]>;

export function themeFields(position: Position) {
	return {
		font: param(fontFamilies, {
			defaultText: 'system font',
			expects: FONT_FAMILIES_EXPECTS
		}),
		color: param(cssColor, {
			defaultText: 'white',
			expects: CSS_COLOR_EXPECTS
		}),
		accent: param(cssColor, {
			defaultText: 'gold',
			expects: CSS_COLOR_EXPECTS
		}),
		scale: numberField(0.25, 4, 1),
		position: param(oneOf(POSITIONS), {
			default: position,
			expects: `one of ${POSITIONS.join(', ')}`
		})
	};
}
