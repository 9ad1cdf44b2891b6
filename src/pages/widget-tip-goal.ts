// /widget/tip-goal?key=K&overlay=o_...: one overlay's tip goal as an OBS browser source
// (transparent page). Reaching the goal dispatches `tok:celebrate` on window; the overlay page
// wires the same callback to its celebration widget.
import { mount } from 'svelte';
import { startSample } from './sample-page.ts';
import { mountView, startPage } from './start-page.ts';
import { connectWidgets } from '../client/widget-page.ts';
import type { TipGoal as TipGoalRecord } from '../contract/index.ts';
import TipGoal from '../../widgets/tip-goal/TipGoal.svelte';
import { parseTipGoalParams } from '../../widgets/tip-goal/params.ts';
import { sampleGoalView } from '../../widgets/tip-goal/sample.ts';
import { TipGoalTracker } from '../../widgets/tip-goal/tip-goal.svelte.ts';
import { OVERLAY_EVENTS, TTS_EVENTS } from '../contract/events.ts';

/** The detail of the `tok:celebrate` window event. */
export interface CelebrateDetail {
	overlayId: string;
	widgetId: string | null;
	goal: TipGoalRecord;
}

const showErrors = (target: HTMLElement, paramErrors: string[]) =>
	mount(TipGoal, {
		target,
		props: { view: { status: 'connecting', goal: null, currency: null, debug: null, paramErrors } }
	});

// sample=1: a goal 60 % raised, still: nothing connects or reads. It shows no overlay's goal, so
// its URL may leave `overlay` out.
const sample = startSample(
	(search) => parseTipGoalParams(withSampleOverlay(search)),
	showErrors,
	(params, target) => mount(TipGoal, { target, props: { view: sampleGoalView(), theme: params } })
);
if (!sample)
	startPage('tip-goal', parseTipGoalParams, showErrors, (params, api, events, target) => {
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
		mountView(TipGoal, target, goal);
		return goal;
	});

/** The URL's parameters, with a placeholder overlay id when it names none (sample=1 only). */
function withSampleOverlay(search: string): URLSearchParams {
	const q = new URLSearchParams(search);
	if (!q.get('overlay')?.trim()) q.set('overlay', 'o_00000000');
	return q;
}
