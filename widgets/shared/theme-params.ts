// The theme parameters every positioned widget takes (font, color, accent, scale, position): one
// declaration, with each widget's own wording for the README and its own default position.
import {
	CSS_COLOR_EXPECTS,
	FONT_FAMILIES_EXPECTS,
	cssColor,
	fontFamilies
} from '../../src/client/css-params.ts';
import { numberIn, oneOf, param } from '../../src/client/params.ts';

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

export function themeFields(o: {
	position: Position;
	/** What each parameter does for this widget (README wording). */
	describe: { font: string; color: string; accent: string; scale: string; position: string };
}) {
	return {
		font: param(fontFamilies, {
			defaultText: 'system font',
			expects: FONT_FAMILIES_EXPECTS,
			description: o.describe.font
		}),
		color: param(cssColor, {
			defaultText: 'white',
			expects: CSS_COLOR_EXPECTS,
			description: o.describe.color
		}),
		accent: param(cssColor, {
			defaultText: 'gold',
			expects: CSS_COLOR_EXPECTS,
			description: o.describe.accent
		}),
		scale: param(numberIn(0.25, 4), {
			default: 1,
			expects: 'a number from 0.25 to 4',
			description: o.describe.scale
		}),
		position: param(oneOf(POSITIONS), {
			default: o.position,
			expects: `one of ${POSITIONS.join(', ')}`,
			description: o.describe.position
		})
	};
}
