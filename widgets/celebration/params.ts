// URL parameters of the celebration widget: the one place they are declared. The page parses them
// with parseCelebrationParams(location.search); README's table comes from CELEBRATION_PARAM_DOCS.
import { paramDocs, parseParams, type ParamValues } from '../../src/client/params.ts';
import { KEY_DESCRIPTION, keyField } from '../shared/theme-params.ts';
import { choice, numberField, offFlag, seconds } from '../shared/widget-params.ts';
import { placeFields } from '../shared/place-params.ts';
import { CELEBRATION_STYLES } from './particles.ts';

export const celebrationParamFields = {
	// The same key format as every widget (src/server/config.ts).
	key: keyField,
	...placeFields('w_main_party'),
	style: choice(CELEBRATION_STYLES, 'confetti'),
	intensity: numberField(0.1, 3, 1),
	duration: seconds(1, 15, 4),
	debug: offFlag,
	sample: offFlag
};

export type CelebrationParams = ParamValues<typeof celebrationParamFields>;

/** Parses the celebration widget's URL parameters (e.g. `location.search`). */
export const parseCelebrationParams = (search: string | URLSearchParams) =>
	parseParams(celebrationParamFields, search);

/** One row per parameter for the README. */
export const CELEBRATION_PARAM_DOCS = /*@__PURE__*/ paramDocs(celebrationParamFields, {
	key: KEY_DESCRIPTION,
	overlay:
		'the upstream overlay this widget belongs to: it also fires for celebrations of this overlay',
	widget: "this widget's id in the overlay: it also fires for celebrations of this widget",
	style: 'what a celebration looks like',
	intensity: 'how many particles (1 is about 120 pieces of confetti)',
	duration: 'how long one celebration lasts',
	debug: '1 shows a diagnostics panel with a button that fires a test celebration',
	sample:
		'1 fires a sample celebration when the page loads, and again when the page that frames it (the settings editor) posts `fire`; nothing else (no connection)'
});
