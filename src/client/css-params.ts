// URL parameter schemas for values that end up in CSS custom properties (theme colours, fonts).
// A custom property accepts almost any token stream, so `red;background:url(x)` set through the
// CSSOM would at worst be an invalid value, but strict allowlists keep the theme predictable and
// rule out requests to other hosts (url(), image-set()) from a pasted URL.
import { z } from 'zod/mini';
import type { ParamSchema } from './params.ts';

/**
 * A colour name the browser knows: the CSS named colours, `transparent` and the system colours, as
 * `CSS.supports` answers (Chromium 103 and later know every name of CSS Color 4). The CSS-wide
 * keywords and `currentcolor` pass that check too but name no colour of their own. Outside a
 * browser (Node) there is no `CSS`, and no name is accepted.
 */
const isColourName = (s: string): boolean =>
	/^[a-z]+$/.test(s) &&
	!/^(inherit|initial|unset|revert|currentcolor)$/.test(s) &&
	(globalThis.CSS?.supports('color', s) ?? false);

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * A colour as CSS hex (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`) or a CSS colour name. The `#` may
 * be left out: typed raw into a URL it starts the fragment, so `color=#ff0000` arrives empty and
 * `%23ff0000` is awkward to write. Normalised to lower case with a leading `#`.
 */
export const cssColor: ParamSchema<string> = () =>
	z.pipe(
		z
			.pipe(
				z.string().check(z.trim()),
				z.transform((s) => s.toLowerCase())
			)
			.check(z.refine((s) => HEX.test(s) || isColourName(s))),
		z.transform((s) => (HEX.test(s) ? '#' + s.replace(/^#/, '') : s))
	);

/** Generic families are keywords in CSS and must not be quoted. */
const GENERIC_FAMILIES = [
	'serif',
	'sans-serif',
	'monospace',
	'cursive',
	'fantasy',
	'system-ui',
	'emoji',
	'math',
	'ui-serif',
	'ui-sans-serif',
	'ui-monospace',
	'ui-rounded'
];

// Letters of any script (font names are localised), digits, spaces, `-` and `_`: no quotes,
// backslashes, semicolons, braces or parentheses can reach the CSS.
const FAMILY = /^[\p{L}\p{N}][\p{L}\p{N} _-]{0,63}$/u;
const MAX_FAMILIES = 5;

/**
 * A comma-separated list of up to 5 font family names, e.g. `Comic Neue, sans-serif`. Emitted as
 * a CSS `font-family` value with each non-generic name quoted.
 */
export const fontFamilies: ParamSchema<string> = () =>
	z.pipe(
		z
			.pipe(
				z.string(),
				z.transform((s) =>
					s
						.split(',')
						.map((name) => name.trim().replace(/\s+/g, ' '))
						.filter((name) => name !== '')
				)
			)
			.check(
				z.refine(
					(names) =>
						names.length >= 1 && names.length <= MAX_FAMILIES && names.every((n) => FAMILY.test(n))
				)
			),
		z.transform((names) =>
			names
				.map((n) => (GENERIC_FAMILIES.includes(n.toLowerCase()) ? n.toLowerCase() : `"${n}"`))
				.join(', ')
		)
	);

/** What `fontFamilies` accepts, for error messages and the README. */
export const FONT_FAMILIES_EXPECTS =
	'up to 5 font names (letters, digits, spaces, - and _) separated by commas';

/** What `cssColor` accepts, for error messages and the README. */
export const CSS_COLOR_EXPECTS = 'a hex colour such as ff8800 or #ff8800, or a CSS colour name';
