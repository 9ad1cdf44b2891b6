// The counters widget's view model: what the markup shows, owned by CountersState.
import type { WidgetTheme } from '../shared/theme-params.ts';

export type CountersStatus = 'connecting' | 'ready' | 'unauthorized' | 'failing';

export interface CounterView {
	name: string;
	value: number;
	/** Grows by one on every counter.updated that changed the value: the bump animation's trigger. */
	bumps: number;
}

export type CountersTheme = WidgetTheme;
