// A widget of an overlay page, placed in its box and bound to its state (whose theme follows the
// stored settings).
import type { CelebrationState } from '../celebration/celebration.svelte.ts';
import type { CountersState } from '../counters/counters.svelte.ts';
import type MediaWidget from '../media/MediaWidget.svelte';
import type { MediaPlayer } from '../media/media-player.svelte.ts';
import type { TipGoalTracker } from '../tip-goal/tip-goal.svelte.ts';
import type { TtsPlayer } from '../tts/tts-player.svelte.ts';
import type { Box } from './layout.ts';

export type Placed = { id: string; box: Box } & (
	| { kind: 'tts'; player: TtsPlayer }
	| { kind: 'counter'; state: CountersState }
	| { kind: 'celebration'; state: CelebrationState }
	| { kind: 'tip_goal'; tracker: TipGoalTracker }
	/** The component comes with the player: the media chunk is loaded only when needed. */
	| { kind: 'media'; player: MediaPlayer; component: typeof MediaWidget }
);
