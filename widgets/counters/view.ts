// The counters widget's view model: what the markup shows, owned by CountersState.

export type CountersStatus = 'connecting' | 'ready' | 'unauthorized' | 'failing';

export interface CounterView {
	name: string;
	value: number;
	/** Grows by one on every counter.updated that changed the value: the bump animation's trigger. */
	bumps: number;
}
