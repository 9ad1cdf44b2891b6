// /widget/tip-goal?key=K&overlay=o_...: one overlay's tip goal as an OBS browser source
// (transparent page). Reaching the goal dispatches `tok:celebrate` on window; the overlay page
// wires the same callback to its celebration widget.
import { mount } from 'svelte';
import { startPage } from './start-page.ts';
import { connectWidgets } from '../client/widget-page.ts';
import type { TipGoal as TipGoalRecord } from '../contract/index.ts';
import TipGoal from '../../widgets/tip-goal/TipGoal.svelte';
import { parseTipGoalParams } from '../../widgets/tip-goal/params.ts';
import { TipGoalTracker } from '../../widgets/tip-goal/tip-goal.svelte.ts';
import { OVERLAY_EVENTS, TTS_EVENTS } from '../contract/events.ts';

/** The detail of the `tok:celebrate` window event. */
export interface CelebrateDetail {
	overlayId: string;
	widgetId: string | null;
	goal: TipGoalRecord;
}

startPage(
	'tip-goal',
	parseTipGoalParams,
	(target, paramErrors) =>
		mount(TipGoal, {
			target,
			props: {
				view: { status: 'connecting', goal: null, currency: null, debug: null, paramErrors }
			}
		}),
	(params, api, events, target) => {
		const goal = new TipGoalTracker({
			api,
			events,
			overlayId: params.overlay,
			widgetId: params.widget,
			debug: params.debug,
			theme: params,
			onReached: (g) =>
				dispatchEvent(
					new CustomEvent<CelebrateDetail>('tok:celebrate', {
						detail: { overlayId: params.overlay, widgetId: params.widget ?? null, goal: g }
					})
				)
		}).start();
		connectWidgets(api, events, [goal], { ...TTS_EVENTS, ...OVERLAY_EVENTS }, { goal });
		// The theme through a getter: the markup follows the stored settings.
		mount(TipGoal, {
			target,
			props: {
				view: goal.view,
				get theme() {
					return goal.theme;
				}
			}
		});
		return goal;
	}
);
