// /widget/counters?key=K: one counter or all of them as an OBS browser source (transparent page).
import { startModelPage } from './start-page.ts';
import Counters from '../../widgets/counters/Counters.svelte';
import { CountersState } from '../../widgets/counters/counters.svelte.ts';
import { parseCountersParams } from '../../widgets/counters/params.ts';
import { COUNTER_EVENTS } from '../contract/events.ts';

startModelPage(
	'counters',
	parseCountersParams,
	Counters,
	(params, api, events) => new CountersState({ api, events, params }),
	// The counters read counter events only: an overlay event is ignored unparsed.
	COUNTER_EVENTS
);
