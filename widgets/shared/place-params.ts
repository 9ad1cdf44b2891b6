// A widget's place in an upstream overlay (`overlay`, `widget`): the same parameters and rules for
// every widget that belongs to an overlay, and how an overlay page sets them for each of its
// widgets. Apart from widget-params.ts so that pages of widgets without a place do not load the
// contract's schemas for it.
import { z } from 'zod/mini';
import { OVERLAY_ID } from '../../src/contract/index.ts';
import { identifier, param } from '../../src/client/params.ts';

/** An upstream overlay id (o_ and 8 hex digits). */
export const overlayIdParam: z.ZodMiniType<string, string> = /*@__PURE__*/ z
	.string()
	.check(z.trim(), z.regex(OVERLAY_ID));

/**
 * `overlay` and `widget`: the place of a widget in an upstream overlay, both optional; `example` is
 * a widget id shown in the error (`w_main_counters`).
 */
export function placeFields(example: string) {
	return {
		overlay: param(overlayIdParam, {
			expects: 'an overlay id (o_ and 8 hex digits)'
		}),
		widget: param(identifier(64), {
			expects: `a widget id such as ${example}`
		})
	};
}

/** A copy of the query with `overlay` and `widget` set (a widget inside an overlay page). */
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
