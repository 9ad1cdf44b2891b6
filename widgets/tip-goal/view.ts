// The tip-goal widget's view model: everything the markup shows, computed by the rune class
// (tip-goal.svelte.ts). The component holds no state of its own beyond the bar's animation.
import type { CurrencyInfo } from '../shared/currency.ts';
import type { GoalState } from '../../src/core/goal.ts';
import type { WidgetTheme } from '../shared/theme-params.ts';

export type TipGoalStatus = 'connecting' | 'ready' | 'unauthorized' | 'failing' | 'unavailable';

export interface GoalView {
	title: string;
	current: number;
	amount: number;
	/** May pass 100. */
	percent: number;
	/** 0 to 1: the bar's fill. */
	fraction: number;
	state: Exclude<GoalState, 'disabled'>;
	/** `3h 04m`, `45s`; null when the goal has no end or is not running. */
	countdown: string | null;
}

export interface TipGoalViewModel {
	status: TipGoalStatus;
	/** Why: a refusal or failure in a sentence (error card, debug panel). */
	statusDetail?: string;
	/** Null: nothing to show (not read yet, or the goal is disabled). */
	goal: GoalView | null;
	/** The tenant's currency (GET /me); null formats plain numbers. */
	currency: CurrencyInfo | null;
	/** Rows of the debug panel (`debug=1`), shown as text. */
	debug: ReadonlyArray<readonly [label: string, value: string]> | null;
	/** Non-null: the URL parameters are wrong and nothing else runs. */
	paramErrors: string[] | null;
}

export type TipGoalTheme = WidgetTheme;
