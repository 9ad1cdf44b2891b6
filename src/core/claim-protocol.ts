// The claim protocol of one queue (TTS or media) as a pure reducer:
// (state, input) -> { state, effects }. The shell (src/client/claim-runner.ts) carries out the
// effects (API calls, playback, one timer, local memory of the claim) and feeds their outcomes back
// as inputs. The rules, each with the function that carries it, are in docs/claim-protocol.md;
// the code is in src/core/claim/: types, one decision per input kind (events, calls, play),
// recovery (reload, takeover, doubtful release), decide (what next), effects (shared steps).
import { onFinishResult, onReleaseResult, onStartResult } from './claim/calls.ts';
import { decide, nextWake } from './claim/decide.ts';
import {
	onAdded,
	onClaimed,
	onCleared,
	onEligible,
	onGone,
	onPaused,
	onReady,
	onReleased,
	onRemembered,
	onSnapshot
} from './claim/events.ts';
import { onPlayEnded, onPlayFailed } from './claim/play.ts';
import type { ClaimEffect, ClaimInput, ClaimState, Decision, Step } from './claim/types.ts';

export * from './claim/types.ts';

/** Apply one input at time `now` (ms); returns the new state and the effects to carry out. */
export function claimStep<T>(prev: ClaimState<T>, input: ClaimInput<T>, now: number): Step<T> {
	const s: ClaimState<T> = {
		...prev,
		items: prev.items.slice(),
		mine: prev.mine ? { ...prev.mine } : null,
		failures: { ...prev.failures },
		retryAt: { ...prev.retryAt },
		waitingSince: { ...prev.waitingSince },
		givenUp: prev.givenUp.slice(),
		lookedAgain: prev.lookedAgain.slice(),
		gone: prev.gone.slice()
	};
	const fx: ClaimEffect<T>[] = [];
	apply(s, input, now, fx);
	decide(s, now, fx);
	const at = nextWake(s, now);
	// A timer that fired is no longer armed. Node's timers may fire a millisecond before Date.now()
	// reaches the deadline; then the same time is still due and must be armed again, or nothing
	// ever wakes this consumer (a stalled queue until the next event).
	if (at !== s.wakeAt || (input.kind === 'wake' && at !== null)) {
		s.wakeAt = at;
		fx.push({ kind: 'wakeAt', at });
	}
	return { state: s, effects: fx };
}

/** The decision for each input kind: one function per kind (docs/claim-protocol.md). */
const DECISIONS: { [K in ClaimInput<unknown>['kind']]: Decision<K> } = {
	snapshot: onSnapshot,
	added: onAdded,
	ready: onReady,
	claimed: onClaimed,
	gone: onGone,
	released: onReleased,
	cleared: onCleared,
	paused: onPaused,
	eligible: onEligible,
	remembered: onRemembered,
	startResult: onStartResult,
	finishResult: onFinishResult,
	releaseResult: onReleaseResult,
	playEnded: onPlayEnded,
	playFailed: onPlayFailed,
	// Only `decide` runs: a backoff, head wait or takeover time has come.
	wake: () => {}
};

function apply<T>(s: ClaimState<T>, input: ClaimInput<T>, now: number, fx: ClaimEffect<T>[]): void {
	// TypeScript cannot tie the table's entry to the input's kind; the table's type does.
	const decision = DECISIONS[input.kind] as Decision<ClaimInput<T>['kind']>;
	decision(s, input, now, fx);
}
