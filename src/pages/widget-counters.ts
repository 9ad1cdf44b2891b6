// /widget/counters?key=K: one counter or all of them as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { startPage } from './start-page.ts';
import { connectWidgets } from '../client/widget-page.ts';
import Counters from '../../widgets/counters/Counters.svelte';
import { CountersState } from '../../widgets/counters/counters.svelte.ts';
import { parseCountersParams } from '../../widgets/counters/params.ts';
import { COUNTER_EVENTS, OVERLAY_EVENTS } from '../contract/events.ts';

startPage(
	parseCountersParams,
	(target, paramErrors) => mount(Counters, { target, props: { paramErrors } }),
	(params, api, events, target) => {
		const state = new CountersState({ api, events, params });
		state.start();
		const table = { ...COUNTER_EVENTS, ...OVERLAY_EVENTS };
		connectWidgets(api, events, [state], table, { counters: state });
		mount(Counters, { target, props: { model: state } });
	}
);
