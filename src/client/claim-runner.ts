// The shell around the pure claim reducer (src/core/claim-protocol.ts): it carries out the effects
// (API calls on one serial lane, playback, one timer, the claim memory) and feeds outcomes back.
// Serialising the calls keeps a snapshot from racing a start of this same consumer.
import {
	claimStep,
	initialClaimState,
	type CallResult,
	type ClaimConfig,
	type ClaimEffect,
	type ClaimInput,
	type ClaimItem,
	type ClaimState
} from '../core/claim-protocol.ts';
import type { ClaimMemory } from './claim-memory.ts';

/** Inputs that come from realtime events (as opposed to call results, playback and timers). */
const EVENT_INPUTS = new Set<ClaimInput<unknown>['kind']>([
	'added',
	'ready',
	'claimed',
	'gone',
	'released',
	'cleared',
	'paused'
]);

export interface QueueSnapshot<T> {
	paused: boolean;
	currentOrderId: string | null;
	items: ClaimItem<T>[];
}

/** The upstream calls of one queue, already mapped to the reducer's vocabulary. */
export interface QueuePort<T> {
	snapshot(): Promise<
		| { ok: true; value: QueueSnapshot<T> }
		/** `refused`: the page's key was refused, nothing is retried. */
		| { ok: false; retryAfterMs?: number; refused?: boolean }
	>;
	start(orderId: string): Promise<CallResult<T>>;
	finish(orderId: string): Promise<CallResult<T>>;
	release(orderId: string): Promise<CallResult<T>>;
}

/**
 * Plays one item; resolves when it ended, rejects when it failed. An error with `transient: true`
 * is not the item's fault (audio locked) and does not count toward its failures; one with
 * `permanent: true` cannot succeed on a retry (an unsupported video) and counts as the last attempt.
 */
export interface PlayerPort<T> {
	play(orderId: string, data: T, mode: 'normal' | 'fallback', attempt: number): Promise<void>;
	stop(orderId: string, why: string): void;
	preload(orderId: string, data: T): void;
}

export interface RunnerOptions<T> {
	queue: QueuePort<T>;
	player: PlayerPort<T>;
	memory: ClaimMemory;
	config?: Partial<ClaimConfig>;
	now?: () => number;
	log?: (message: string) => void;
	/** Coalesces snapshot requests that arrive together (events in a burst). */
	snapshotDebounceMs?: number;
}

export class ClaimRunner<T> {
	#state: ClaimState<T>;
	readonly #now: () => number;
	#lane: Promise<unknown> = Promise.resolve();
	/** Plays begun so far: the number of the latest (`play`). */
	#plays = 0;
	#timer: ReturnType<typeof setTimeout> | null = null;
	#snapshotTimer: ReturnType<typeof setTimeout> | null = null;
	#snapshotQueued = false;
	#snapshotRetry = 0;
	#closed = false;
	/**
	 * Event inputs applied while a snapshot request is in flight. The snapshot may have been taken
	 * before them, so they are applied again on top of it (each is idempotent).
	 */
	#sinceSnapshot: ClaimInput<T>[] | null = null;
	readonly #listeners = new Set<(s: ClaimState<T>) => void>();
	/**
	 * Calls made, per kind, and reads refused 429 (the server's or the upstream's rate limit, waited
	 * out): for the debug panel and the bench's API economy.
	 */
	readonly calls = { snapshot: 0, start: 0, finish: 0, release: 0, '429': 0 };

	readonly #opts: RunnerOptions<T>;

	constructor(opts: RunnerOptions<T>) {
		this.#opts = opts;
		this.#state = initialClaimState<T>(opts.config);
		this.#now = opts.now ?? Date.now;
	}

	get snapshot(): Readonly<ClaimState<T>> {
		return this.#state;
	}

	/**
	 * Begin: recover a remembered claim. The first snapshot is read when the realtime connection is
	 * ready (`requestSnapshot` on resync), so that no event between the two can be missed.
	 */
	start(): void {
		const { memory } = this.#opts;
		const orderId = memory.load();
		this.dispatch({ kind: 'remembered', orderId, played: orderId !== null && memory.played() });
	}

	/**
	 * New settings (the stored settings changed): the reducer decides with them from its next input
	 * on; a claim in flight keeps its course.
	 */
	configure(config: Partial<ClaimConfig>): void {
		this.#state = { ...this.#state, config: { ...this.#state.config, ...config } };
	}

	subscribe(cb: (s: ClaimState<T>) => void): () => void {
		this.#listeners.add(cb);
		return () => this.#listeners.delete(cb);
	}

	dispatch(input: ClaimInput<T>): void {
		if (this.#closed) return;
		if (this.#sinceSnapshot && EVENT_INPUTS.has(input.kind)) this.#sinceSnapshot.push(input);
		const { state, effects } = claimStep(this.#state, input, this.#now());
		this.#state = state;
		for (const e of effects) this.#run(e);
		for (const cb of this.#listeners) cb(this.#state);
	}

	/** After a (re)connect or a doubt: re-read the snapshot (debounced). */
	requestSnapshot(delayMs = this.#opts.snapshotDebounceMs ?? 150): void {
		if (this.#closed || this.#snapshotTimer) return;
		this.#snapshotTimer = setTimeout(() => {
			this.#snapshotTimer = null;
			this.#enqueueSnapshot();
		}, delayMs);
	}

	close(): void {
		this.#closed = true;
		if (this.#timer) clearTimeout(this.#timer);
		if (this.#snapshotTimer) clearTimeout(this.#snapshotTimer);
		this.#timer = this.#snapshotTimer = null;
		const mine = this.#state.mine;
		if (mine?.stage === 'playing') this.#opts.player.stop(mine.orderId, 'the widget closed');
		this.#listeners.clear();
	}

	#run(e: ClaimEffect<T>): void {
		const { player, memory } = this.#opts;
		switch (e.kind) {
			case 'start':
			case 'finish':
			case 'release':
				return this.#call(e.kind, e.orderId);
			case 'play': {
				// Only the latest play reports: a stopped play that settles after the same item was
				// claimed and played again must not end (finish) the new play.
				const play = ++this.#plays;
				player.play(e.orderId, e.data, e.mode, e.attempt).then(
					() => play === this.#plays && this.dispatch({ kind: 'playEnded', orderId: e.orderId }),
					(err: unknown) =>
						play === this.#plays &&
						this.dispatch({
							kind: 'playFailed',
							orderId: e.orderId,
							reason: err instanceof Error ? err.message : String(err),
							transient: (err as { transient?: unknown } | null)?.transient === true,
							permanent: (err as { permanent?: unknown } | null)?.permanent === true
						})
				);
				return;
			}
			case 'stop':
				return player.stop(e.orderId, e.why);
			case 'preload':
				return player.preload(e.orderId, e.data);
			case 'snapshot':
				return this.requestSnapshot();
			case 'remember':
				return memory.save(e.orderId, e.played === true);
			case 'wakeAt':
				if (this.#timer) clearTimeout(this.#timer);
				this.#timer = null;
				if (e.at !== null)
					this.#timer = setTimeout(
						() => {
							this.#timer = null;
							this.dispatch({ kind: 'wake' });
						},
						Math.max(0, e.at - this.#now())
					);
				return;
			case 'log':
				this.#opts.log?.(e.message);
				return;
		}
	}

	/**
	 * One call at a time, in order; its answer comes back as `startResult` and so on. The lane moves
	 * on as soon as the call is answered, before the answer is applied: a call that the answer leads
	 * to (the next start after a finish) goes out at once, ahead of the re-render the answer causes.
	 */
	#call(kind: 'start' | 'finish' | 'release', orderId: string): void {
		const answered = this.#lane.then(async (): Promise<CallResult<T> | null> => {
			if (this.#closed) return null;
			this.calls[kind] += 1;
			try {
				return await this.#opts.queue[kind](orderId);
			} catch (err) {
				return { ok: false, status: 0, code: err instanceof Error ? err.message : 'error' };
			}
		});
		this.#lane = answered.then(() => {});
		void answered.then((result) => {
			if (result) this.dispatch({ kind: `${kind}Result`, orderId, result });
		});
	}

	#enqueueSnapshot(): void {
		if (this.#snapshotQueued) return;
		this.#snapshotQueued = true;
		this.#lane = this.#lane.then(async () => {
			this.#snapshotQueued = false;
			if (this.#closed) return;
			this.calls.snapshot += 1;
			this.#sinceSnapshot = [];
			const r = await this.#opts.queue.snapshot().catch(() => ({ ok: false as const }));
			const replay = this.#sinceSnapshot;
			this.#sinceSnapshot = null;
			if (r.ok) {
				this.#snapshotRetry = 0;
				this.dispatch({ kind: 'snapshot', ...r.value });
				for (const input of replay) this.dispatch(input);
				return;
			}
			// Without a snapshot nothing is claimed; try again with a capped backoff, or after the wait
			// a 429 asked for; never with a refused key (the page has stopped).
			if ('refused' in r && r.refused) return;
			const limited = 'retryAfterMs' in r && r.retryAfterMs;
			if (limited) this.calls['429'] += 1;
			const wait = limited || Math.min(30_000, 1000 * 2 ** Math.min(this.#snapshotRetry, 5));
			this.#snapshotRetry += 1;
			this.requestSnapshot(wait);
		});
	}
}
