// Node has no CSS.supports, and the widgets' colour parameters ask it whether a word names a colour
// (src/client/css-params.ts): without it every colour name would be refused. The token endpoint
// checks stored settings with those very schemas (widgets/settings/schemas.ts, handed in by
// src/main.ts), so it answers as a browser does for the CSS named colours (CSS Color 4, which
// Chromium 103 and later know) and `transparent`. System colours are left out: the server refuses
// them rather than store a word some engine might not take.

/** The CSS named colours (CSS Color 4) and `transparent`. */
export const CSS_COLOUR_NAMES = new Set(
	(
		'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue ' +
		'blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk ' +
		'crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki ' +
		'darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen ' +
		'darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue ' +
		'dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite ' +
		'gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki ' +
		'lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan ' +
		'lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen ' +
		'lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen ' +
		'magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen ' +
		'mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream ' +
		'mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid ' +
		'palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum ' +
		'powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown ' +
		'seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen ' +
		'steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow ' +
		'yellowgreen transparent'
	).split(' ')
);

/** Installs a CSS.supports that knows the named colours, unless the runtime has its own. */
export function installCssColourNames(): void {
	const supports = (property: string, value?: string): boolean =>
		property === 'color' && value !== undefined && CSS_COLOUR_NAMES.has(value.toLowerCase());
	(globalThis as { CSS?: unknown }).CSS ??= { supports };
}
