// The tip goal's still sample (`sample=1`): a goal 60 % raised, running, with time left.
import { SAMPLE_CURRENCY } from '../shared/sample.ts';
import type { TipGoalViewModel } from './view.ts';

export const sampleGoalView = (): TipGoalViewModel => ({
	status: 'ready',
	goal: {
		title: 'New microphone',
		current: 150,
		amount: 250,
		percent: 60,
		fraction: 0.6,
		state: 'running',
		// As formatCountdown (src/core/goal.ts) writes it; still: a sample has no clock.
		countdown: '2h 15m'
	},
	currency: SAMPLE_CURRENCY,
	debug: null,
	paramErrors: null
});
