// URL parameters of the counters widget: the one place they are declared. The page parses them with
// parseCountersParams(location.search); README's table comes from COUNTERS_PARAM_DOCS.
import { KEY_DESCRIPTION, keyField, themeFields } from '../shared/theme-params.ts';
import { choice, offFlag } from '../shared/widget-params.ts';
import { placeFields } from '../shared/place-params.ts';
import { z } from 'zod/mini';
import { COUNTER_NAME } from '../../src/contract/index.ts';
import { param, paramDocs, parseParams, type ParamValues } from '../../src/client/params.ts';
import { COUNT_FORMATS } from './format.ts';

/** A counter slug (docs/upstream.md, counter); lower-cased so `Deaths` finds `deaths`. */
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
	// The same key format as every widget (src/server/config.ts).
	key: keyField,
	name: param(counterName, {
		defaultText: 'all counters',
		expects: 'a counter name (1 to 64 of a-z 0-9 _ -)'
	}),
	label: param(labelText, {
		defaultText: "the counter's name",
		expects: 'text, up to 64 characters'
	}),
	format: choice(COUNT_FORMATS, 'grouped'),
	...placeFields('w_main_counters'),
	debug: offFlag,
	sample: offFlag,
	...themeFields('top-left')
};

export type CountersParams = ParamValues<typeof countersParamFields>;

/** Parses the counters widget's URL parameters (e.g. `location.search`). */
export const parseCountersParams = (search: string | URLSearchParams) =>
	parseParams(countersParamFields, search);

/** One row per parameter for the README. */
export const COUNTERS_PARAM_DOCS = /*@__PURE__*/ paramDocs(countersParamFields, {
	key: KEY_DESCRIPTION,
	name: "the one counter to show; without it the overlay widget's `settings.name`, else every counter",
	label: 'the caption beside the number (with every counter: a heading above the list)',
	format: 'plain 12345, grouped 12,345 (the browser locale), compact 12.3K',
	overlay: 'the upstream overlay this widget belongs to (with `widget`: where its settings are)',
	widget: "the overlay's counter widget whose `settings.name` picks the counter",
	debug: '1 shows a diagnostics panel and a note when the named counter does not exist',
	sample:
		'1 shows sample counters (the named one, or a few) and nothing else (no connection): for placing and theming the widget',
	font: 'font of the counters, installed on the streaming PC',
	color: 'colour of the labels',
	accent: 'colour of the numbers',
	scale: 'size of the counters relative to the page width',
	position: 'where the counters sit on the page (or in their box of an overlay)'
});
