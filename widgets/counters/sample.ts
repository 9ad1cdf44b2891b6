// The counters' still sample (`sample=1`): the named counter, or a few, in the widget's own state
// (the label, the format and the theme of the URL apply as they do live). The state never starts:
// it reads nothing and hears no event.
import { ApiClient } from '../../src/client/api.ts';
import { EventHub } from '../../src/client/event-hub.ts';
import { CountersState } from './counters.svelte.ts';
import type { CountersParams } from './params.ts';
import type { CounterView } from './view.ts';

const counter = (name: string, value: number): CounterView => ({ name, value, bumps: 0 });

/** The counters shown: the one the URL names (12345, to show its format), else a few. */
export function sampleCounters(name: string | undefined): CounterView[] {
	return name === undefined
		? [counter('deaths', 7), counter('wins', 128), counter('hype', 12345)]
		: [counter(name, 12345)];
}

export function sampleCountersModel(params: CountersParams): CountersState {
	// The client is never asked: a sample does not start.
	const model = new CountersState({ api: new ApiClient({}), events: new EventHub(), params });
	// Without `name` the live widget may ask the overlay which counter to show; a sample shows all.
	model.selected = params.name ?? null;
	model.counters = sampleCounters(params.name);
	model.loaded = true;
	model.setConnection('open', '');
	return model;
}
