// URL parameters of the counters widget: the one place they are declared. The page parses them with
// parseCountersParams(location.search); README's table comes from COUNTERS_PARAM_DOCS.
import { keyField, themeFields, themeOf, type WidgetTheme } from '../shared/theme-params.ts';
import { debugField, overlayIdParam } from '../shared/widget-params.ts';
import { z } from 'zod/mini';
import { COUNTER_NAME } from '../../src/contract/index.ts';
import { identifier, oneOf, param, paramDocs, parseParams } from '../../src/client/params.ts';
import type { ParamResult, ParamValues } from '../../src/client/params.ts';
import { COUNT_FORMATS } from './format.ts';

/** A counter slug (CONTRACT.md, Counter); lower-cased so `Deaths` finds `deaths`. */
const counterName: z.ZodMiniType<string, string> = z.pipe(
	z.pipe(
		z.string().check(z.trim()),
		z.transform((s) => s.toLowerCase())
	),
	z.string().check(z.regex(COUNTER_NAME))
);

/** Streamer text shown as text: up to 64 characters, control characters refused. */
export const labelText: z.ZodMiniType<string, string> = z.string().check(
	z.trim(),
	z.refine((s) => Array.from(s).length <= 64 && !/\p{Cc}/u.test(s))
);

export const countersParamFields = {
	key: keyField,
	name: param(counterName, {
		defaultText: 'all counters',
		expects: 'a counter name (1 to 64 of a-z 0-9 _ -)',
		description:
			"the one counter to show; without it the overlay widget's `settings.name`, else every counter"
	}),
	label: param(labelText, {
		defaultText: "the counter's name",
		expects: 'text, up to 64 characters',
		description: 'the caption beside the number (with every counter: a heading above the list)'
	}),
	format: param(oneOf(COUNT_FORMATS), {
		default: 'grouped',
		expects: 'plain, grouped or compact',
		description: 'plain 12345, grouped 12,345 (the browser locale), compact 12.3K'
	}),
	overlay: param(overlayIdParam, {
		expects: 'an overlay id (o_ and 8 hex digits)',
		description:
			'the upstream overlay this widget belongs to (with `widget`: where its settings are)'
	}),
	widget: param(identifier(64), {
		expects: 'a widget id such as w_main_counters',
		description: "the overlay's counter widget whose `settings.name` picks the counter"
	}),
	debug: debugField('1 shows a diagnostics panel and a note when the named counter does not exist'),
	...themeFields({
		position: 'top-left',
		describe: {
			font: 'font of the counters, installed on the streaming PC',
			color: 'colour of the labels',
			accent: 'colour of the numbers',
			scale: 'size of the counters relative to the page width',
			position: 'where the counters sit on the page (or in their box of an overlay)'
		}
	})
};

export type CountersParams = ParamValues<typeof countersParamFields>;

/** Parses the counters widget's URL parameters (e.g. `location.search`). */
export function parseCountersParams(search: string | URLSearchParams): ParamResult<CountersParams> {
	return parseParams(countersParamFields, search);
}

/**
 * The parameters of a counter widget inside an overlay page: the page's own URL parameters (key,
 * theme, format...) with `overlay` and `widget` set to the widget's place.
 */
export function countersParamsForOverlay(
	search: string | URLSearchParams,
	overlayId: string,
	widgetId: string
): ParamResult<CountersParams> {
	return parseCountersParams(withPlace(search, overlayId, widgetId));
}

/** A copy of the query with `overlay` and `widget` set. */
export function withPlace(
	search: string | URLSearchParams,
	overlayId: string,
	widgetId: string
): URLSearchParams {
	const q = new URLSearchParams(search);
	q.set('overlay', overlayId);
	q.set('widget', widgetId);
	return q;
}

/** One row per parameter for the README. */
export const COUNTERS_PARAM_DOCS = paramDocs(countersParamFields);

/** The theme part of the parameters, as the markup consumes it. */
export const countersTheme: (p: CountersParams) => WidgetTheme = themeOf;
