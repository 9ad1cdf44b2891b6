// The counters widget's view model: what the markup shows, owned by CountersState.
import type { TtsPosition } from '../tts/params.ts';

export type CountersStatus = 'connecting' | 'ready' | 'unauthorized' | 'failing';

export interface CounterView {
	name: string;
	value: number;
	/** Grows by one on every counter.updated that changed the value: the bump animation's trigger. */
	bumps: number;
}

/** Theme from the URL parameters; unset values keep the stylesheet's defaults. */
export interface CountersTheme {
	font?: string;
	color?: string;
	accent?: string;
	scale: number;
	position: TtsPosition;
}
