// /widget/counters?key=K: one counter or all of them as an OBS browser source (transparent page).
import { mount } from 'svelte';
import { startSample } from './sample-page.ts';
import { startModelPage } from './start-page.ts';
import Counters from '../../widgets/counters/Counters.svelte';
import { CountersState } from '../../widgets/counters/counters.svelte.ts';
import { parseCountersParams } from '../../widgets/counters/params.ts';
import { sampleCountersModel } from '../../widgets/counters/sample.ts';
import { COUNTER_EVENTS } from '../contract/events.ts';

// sample=1: sample counters, still: nothing connects or reads.
if (
	!startSample(
		parseCountersParams,
		(target, paramErrors) => mount(Counters, { target, props: { paramErrors } }),
		(params, target) => mount(Counters, { target, props: { model: sampleCountersModel(params) } })
	)
)
	startModelPage(
		parseCountersParams,
		Counters,
		(params, api, events) => new CountersState({ api, events, params }),
		// The counters read counter events only: an overlay event is ignored unparsed.
		COUNTER_EVENTS,
		'counters'
	);
