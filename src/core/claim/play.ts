// The decision for each outcome of playing our claimed item (docs/claim-protocol.md): the end is
// reported with finish; a failed play is released, never finished.
import { release } from './effects.ts';
import type { Decision } from './types.ts';

/** Played to its end: finish it, and remember it as played until the finish lands. */
export const onPlayEnded: Decision<'playEnded'> = (s, { orderId }, _now, fx) => {
	if (s.mine?.orderId !== orderId || s.mine.stage !== 'playing') return;
	s.mine = { orderId, stage: 'finishing', callFailures: 0 };
	// Remembered as played: a reload before the finish lands finishes it, never replays it.
	fx.push({ kind: 'remember', orderId, played: true }, { kind: 'finish', orderId });
};

/**
 * The play failed: release it. A transient failure (audio locked) is not counted; a permanent one
 * counts as the last attempt, so the item goes to its fallback or is given up
 * (recovery.ts: settleRelease).
 */
export const onPlayFailed: Decision<'playFailed'> = (s, input, _now, fx) => {
	const { orderId, reason } = input;
	if (s.mine?.orderId !== orderId || s.mine.stage !== 'playing') return;
	if (input.transient) {
		fx.push({ kind: 'log', message: `play of ${orderId} could not start: ${reason}` });
		release(s, orderId, 'lost', fx);
		return;
	}
	let n = (s.failures[orderId] ?? 0) + 1;
	if (input.permanent) n = Math.max(n, s.config.maxFailures);
	s.failures[orderId] = n;
	fx.push({ kind: 'log', message: `play of ${orderId} failed (${n}): ${reason}` });
	release(s, orderId, 'failed', fx);
};
