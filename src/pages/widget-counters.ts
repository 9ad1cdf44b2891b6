// /widget/counters?key=K: one counter or all of them as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { ApiClient } from '../client/api.ts';
import { EventHub } from '../client/event-hub.ts';
import { connectWidgets } from '../client/widget-page.ts';
import Counters from '../../widgets/counters/Counters.svelte';
import { CountersState } from '../../widgets/counters/counters.svelte.ts';
import { parseCountersParams } from '../../widgets/counters/params.ts';
import { COUNTER_EVENTS, OVERLAY_EVENTS } from '../contract/events.ts';

const target = document.getElementById('app')!;
const parsed = parseCountersParams(location.search);

if (!parsed.ok) {
	mount(Counters, { target, props: { paramErrors: parsed.errors } });
} else {
	const params = parsed.value;
	const api = new ApiClient({ overlayKey: params.key });
	const events = new EventHub();
	const state = new CountersState({ api, events, params });
	state.start();
	connectWidgets(
		api,
		events,
		[state],
		{ ...COUNTER_EVENTS, ...OVERLAY_EVENTS },
		{ counters: state }
	);
	mount(Counters, { target, props: { model: state } });
}
