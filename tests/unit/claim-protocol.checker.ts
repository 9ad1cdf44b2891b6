// The invariants the claim protocol's property tests (claim-protocol.property.test.ts) check
// over one page's effects after every step.
import { type ClaimState } from '../../src/core/claim-protocol.ts';
import { show, type Fx, type In, type Tip } from './claim-harness.ts';

/** More effects than this from one input would mean a list growing without bound. */
export const MAX_EFFECTS_PER_STEP = 12;
/** The longest playback; well under takeoverMs, as a healthy item is. */
export const MAX_PLAY_MS = 20_000;

export type CallEffect = Extract<Fx, { kind: 'start' | 'finish' | 'release' }>;
export type Fault = 'none' | '429' | '500' | 'lostBefore' | 'lostAfter';

/** Per page life: what its effects have shown so far, and the invariants over them. */
export class Checker {
	/** The order being played, per the effects (play, stop) and the shell's reports. */
	playing: string | null = null;
	/** playEnded seen since its last play: a finish is allowed. */
	private mayFinish = new Set<string>();
	/** A finish answered ok: never finish it again. */
	private finished = new Set<string>();
	/** playFailed seen since its last play: a release with reason `failed` is allowed. */
	private failedPlay = new Set<string>();
	/** Calls sent and not answered yet. */
	inFlight = 0;
	/** A snapshot was asked for and has not come yet. */
	private rereading = false;

	step(i: In, effects: Fx[], state: ClaimState<Tip>): void {
		const where = `after ${JSON.stringify(i)} -> [${effects.map(show).join(', ')}]`;
		if (effects.length > MAX_EFFECTS_PER_STEP) throw new Error(`too many effects ${where}`);
		switch (i.kind) {
			case 'playEnded':
				if (this.playing === i.orderId) {
					this.playing = null;
					this.mayFinish.add(i.orderId);
				}
				break;
			case 'playFailed':
				if (this.playing === i.orderId) this.playing = null;
				this.mayFinish.delete(i.orderId);
				this.failedPlay.add(i.orderId);
				break;
			case 'finishResult':
				if (i.result.ok) this.finished.add(i.orderId);
				if (i.result.ok || i.result.status === 404 || i.result.status === 409)
					this.mayFinish.delete(i.orderId);
				break;
			default:
				break;
		}
		if (i.kind === 'startResult' || i.kind === 'finishResult' || i.kind === 'releaseResult')
			this.inFlight -= 1;
		for (const e of effects) {
			switch (e.kind) {
				case 'play': {
					const started =
						i.kind === 'startResult' && i.orderId === e.orderId && i.result.ok === true;
					if (!started) throw new Error(`play without a successful start of it ${where}`);
					if (this.playing !== null)
						throw new Error(`play of ${e.orderId} while ${this.playing} plays ${where}`);
					this.playing = e.orderId;
					this.mayFinish.delete(e.orderId);
					this.failedPlay.delete(e.orderId);
					break;
				}
				case 'stop':
					if (this.playing === e.orderId) this.playing = null;
					break;
				case 'finish':
					if (!this.mayFinish.has(e.orderId))
						throw new Error(`finish of ${e.orderId} without its playEnded ${where}`);
					if (this.finished.has(e.orderId))
						throw new Error(`finish of ${e.orderId}, already finished ${where}`);
					break;
				case 'release':
					if (e.reason === 'failed' && !this.failedPlay.has(e.orderId))
						throw new Error(`release of ${e.orderId} as failed without a failed play ${where}`);
					break;
				default:
					break;
			}
			if (e.kind === 'start' || e.kind === 'finish' || e.kind === 'release') {
				this.inFlight += 1;
				if (this.inFlight > 1) throw new Error(`two calls in flight at once ${where}`);
			}
		}
		if (effects.filter((e) => e.kind === 'wakeAt').length > 1)
			throw new Error(`two wakeAt effects in one step ${where}`);
		// Idle while taking for the claim an order it itself knows to be finished, skipped or
		// removed, with no re-read coming to set it right: it would wait a whole takeover for nothing.
		if (i.kind === 'snapshot') this.rereading = false;
		if (effects.some((e) => e.kind === 'snapshot')) this.rereading = true;
		const { current, gone, items, mine } = state;
		if (!mine && !this.rereading && current !== null && gone.includes(current))
			if (!items.some((it) => it.orderId === current))
				throw new Error(`idle, waiting on ${current}, which it knows is gone ${where}`);
	}
}
