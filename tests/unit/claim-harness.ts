// Test harness for the claim-protocol reducer (src/core/claim-protocol.ts): readable summaries
// of effects, a driver that feeds inputs at explicit times, and the input and result
// constructors. A model of the upstream queue and a shell running a consumer against it are in
// claim-upstream.ts.
import {
	claimStep,
	initialClaimState,
	type CallResult,
	type ClaimConfig,
	type ClaimEffect,
	type ClaimInput,
	type ClaimItem,
	type ClaimState
} from '../../src/core/claim-protocol.ts';

export interface Tip {
	text: string;
	/** A long video: claimed for minutes by a healthy consumer. */
	long?: boolean;
	/** Its playback always fails, the fallback's too (a broken file, say). */
	broken?: boolean;
}
export type Fx = ClaimEffect<Tip>;
export type In = ClaimInput<Tip>;
export type Result = CallResult<Tip>;

export function tip(id: string, ready = true, extra: Partial<Tip> = {}): ClaimItem<Tip> {
	return { orderId: id, ready, data: { text: `tip ${id}`, ...extra } };
}

/** Deterministic jitter: `equal` jitter with 0 gives exactly half of each backoff cap. */
export const TEST_CONFIG: Partial<ClaimConfig> = { random: () => 0 };

/** One effect as a short sentence fragment, e.g. `start a`, `play a fallback`, `wakeAt 1500`. */
export function show(e: Fx): string {
	switch (e.kind) {
		case 'start':
		case 'finish':
		case 'stop':
		case 'preload':
			return `${e.kind} ${e.orderId}`;
		case 'release':
			return `release ${e.orderId} ${e.reason}`;
		case 'play':
			return e.mode === 'fallback' ? `play ${e.orderId} fallback` : `play ${e.orderId}`;
		case 'remember':
			return `remember ${e.orderId ?? 'null'}${e.played ? ' played' : ''}`;
		case 'wakeAt':
			return `wakeAt ${e.at ?? 'null'}`;
		case 'snapshot':
		case 'log':
			return e.kind;
	}
}

/** The effects a user notices: what is started, played, finished, released and stopped. */
export const USER_KINDS: ReadonlySet<Fx['kind']> = new Set([
	'start',
	'play',
	'finish',
	'release',
	'stop'
]);
export const userVisible = (fx: Fx[]) => fx.filter((e) => USER_KINDS.has(e.kind)).map(show);

/** Feeds inputs at explicit times and keeps every step; tracks the shell's one timer. */
export class Driver {
	state: ClaimState<Tip>;
	now = 0;
	/** The shell's timer as armed by the last `wakeAt` effect. */
	timer: number | null = null;
	readonly steps: { now: number; input: In; effects: Fx[] }[] = [];

	constructor(config: Partial<ClaimConfig> = {}) {
		this.state = initialClaimState<Tip>({ ...TEST_CONFIG, ...config });
	}

	feed(input: In, now = this.now): Fx[] {
		if (now < this.now) throw new Error(`time runs backwards: ${now} < ${this.now}`);
		this.now = now;
		const step = claimStep(this.state, input, now);
		this.state = step.state;
		for (const e of step.effects) if (e.kind === 'wakeAt') this.timer = e.at;
		this.steps.push({ now, input, effects: step.effects });
		return step.effects;
	}

	/** The shell's timer fires: `wake` at the armed time. */
	wake(): Fx[] {
		if (this.timer === null) throw new Error('wake without an armed timer');
		const at = Math.max(this.timer, this.now);
		this.timer = null;
		return this.feed({ kind: 'wake' }, at);
	}

	all(): Fx[] {
		return this.steps.flatMap((s) => s.effects);
	}

	count(summary: string): number {
		return this.all().filter((e) => show(e) === summary).length;
	}
}

// ---------------------------------------------------------------------------------------------
// Input and result constructors.

export const input = {
	eligible: (eligible = true): In => ({ kind: 'eligible', eligible }),
	remembered: (orderId: string | null, played = false): In => ({
		kind: 'remembered',
		orderId,
		played
	}),
	snapshot: (
		items: ClaimItem<Tip>[],
		o: { current?: string | null; paused?: boolean } = {}
	): In => ({
		kind: 'snapshot',
		paused: o.paused ?? false,
		currentOrderId: o.current ?? null,
		items
	}),
	added: (item: ClaimItem<Tip>): In => ({ kind: 'added', item }),
	ready: (orderId: string): In => ({ kind: 'ready', orderId }),
	claimed: (orderId: string): In => ({ kind: 'claimed', orderId }),
	gone: (orderId: string, why: 'finished' | 'skipped' | 'removed' = 'finished'): In => ({
		kind: 'gone',
		orderId,
		why
	}),
	released: (orderId: string): In => ({ kind: 'released', orderId }),
	cleared: (): In => ({ kind: 'cleared' }),
	paused: (paused: boolean): In => ({ kind: 'paused', paused }),
	started: (orderId: string, result: Result = ok()): In => ({
		kind: 'startResult',
		orderId,
		result
	}),
	finished: (orderId: string, result: Result = ok()): In => ({
		kind: 'finishResult',
		orderId,
		result
	}),
	releasedResult: (orderId: string, result: Result = ok()): In => ({
		kind: 'releaseResult',
		orderId,
		result
	}),
	ended: (orderId: string): In => ({ kind: 'playEnded', orderId }),
	failed: (orderId: string, reason = 'decode error'): In => ({
		kind: 'playFailed',
		orderId,
		reason
	}),
	wake: (): In => ({ kind: 'wake' })
};

export function ok(data?: Tip): Result {
	return data === undefined ? { ok: true } : { ok: true, data };
}

export function fail(
	status: number,
	code?: string,
	extra: { currentOrderId?: string; retryAfterMs?: number } = {}
): Result {
	return { ok: false, status, ...(code === undefined ? {} : { code }), ...extra };
}
