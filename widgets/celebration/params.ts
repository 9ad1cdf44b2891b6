// URL parameters of the celebration widget: the one place they are declared. The page parses them
// with parseCelebrationParams(location.search); README's table comes from CELEBRATION_PARAM_DOCS.
import {
	identifier,
	numberIn,
	oneOf,
	param,
	paramDocs,
	parseParams
} from '../../src/client/params.ts';
import type { ParamResult, ParamValues } from '../../src/client/params.ts';
import { withPlace } from '../counters/params.ts';
import { keyField } from '../shared/theme-params.ts';
import { debugField, overlayIdParam } from '../shared/widget-params.ts';
import { CELEBRATION_STYLES } from './particles.ts';

export const celebrationParamFields = {
	key: keyField,
	overlay: param(overlayIdParam, {
		expects: 'an overlay id (o_ and 8 hex digits)',
		description:
			'the upstream overlay this widget belongs to: it also fires for celebrations of this overlay'
	}),
	widget: param(identifier(64), {
		expects: 'a widget id such as w_main_party',
		description: "this widget's id in the overlay: it also fires for celebrations of this widget"
	}),
	style: param(oneOf(CELEBRATION_STYLES), {
		default: 'confetti',
		expects: 'confetti or fireworks',
		description: 'what a celebration looks like'
	}),
	intensity: param(numberIn(0.1, 3), {
		default: 1,
		expects: 'a number from 0.1 to 3',
		description: 'how many particles (1 is about 120 pieces of confetti)'
	}),
	duration: param(numberIn(1, 15), {
		default: 4,
		expects: 'seconds from 1 to 15',
		description: 'how long one celebration lasts'
	}),
	debug: debugField('1 shows a diagnostics panel with a button that fires a test celebration')
};

export type CelebrationParams = ParamValues<typeof celebrationParamFields>;

/** Parses the celebration widget's URL parameters (e.g. `location.search`). */
export function parseCelebrationParams(
	search: string | URLSearchParams
): ParamResult<CelebrationParams> {
	return parseParams(celebrationParamFields, search);
}

/**
 * The parameters of a celebration widget inside an overlay page: the page's own URL parameters
 * (key, style, intensity...) with `overlay` and `widget` set to the widget's place.
 */
export function celebrationParamsForOverlay(
	search: string | URLSearchParams,
	overlayId: string,
	widgetId: string
): ParamResult<CelebrationParams> {
	return parseCelebrationParams(withPlace(search, overlayId, widgetId));
}

/** One row per parameter for the README. */
export const CELEBRATION_PARAM_DOCS = paramDocs(celebrationParamFields);
