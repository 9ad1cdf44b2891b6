// Test harness for the claim-protocol reducer (src/core/claim-protocol.ts): readable summaries of
// effects, a driver that feeds inputs at explicit times, a small model of one upstream queue with
// one claim at a time (service-api.md, States and transitions; CONTRACT.md, TTS table), and a
// shell that carries out effects against that model in simulated time.
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

// ---------------------------------------------------------------------------------------------
// A model of one upstream queue: one claim at a time (service-api.md, States and transitions),
// the TTS call table of CONTRACT.md, and the events a consumer would hear, as reducer inputs.

export type Disposition = 'queued' | 'finished' | 'skipped' | 'removed' | 'cleared';

export class Upstream {
	items: ClaimItem<Tip>[] = [];
	current: string | null = null;
	paused = false;
	readonly seen = new Map<string, Disposition>();
	/** Order ids in the order they were finished (the played history, oldest first). */
	readonly history: string[] = [];
	/** Events not yet taken by `drain`. */
	private pending: In[] = [];

	constructor(items: ClaimItem<Tip>[] = []) {
		for (const i of items) this.add(i, false);
	}

	drain(): In[] {
		const out = this.pending;
		this.pending = [];
		return out;
	}

	snapshot(): In {
		return input.snapshot(
			this.items.map((i) => ({ ...i })),
			{ current: this.current, paused: this.paused }
		);
	}

	add(item: ClaimItem<Tip>, announce = true): void {
		this.items.push({ ...item });
		this.seen.set(item.orderId, 'queued');
		if (announce) this.pending.push(input.added({ ...item }));
	}

	makeReady(orderId: string): void {
		const item = this.items.find((i) => i.orderId === orderId);
		if (!item || item.ready) return;
		item.ready = true;
		this.pending.push(input.ready(orderId));
	}

	start(orderId: string): Result {
		const item = this.queued(orderId);
		if (!item.ok) return item.result;
		if (this.paused) return fail(409, 'queue_paused');
		if (this.current !== null)
			return fail(409, 'already_playing', { currentOrderId: this.current });
		this.current = orderId;
		this.pending.push(input.claimed(orderId));
		return ok(item.item.data);
	}

	finish(orderId: string): Result {
		const item = this.queued(orderId);
		if (!item.ok) return item.result;
		if (this.current !== orderId) return fail(409, 'not_playing');
		this.drop(orderId, 'finished');
		this.history.push(orderId);
		this.pending.push(input.gone(orderId, 'finished'));
		return ok(item.item.data);
	}

	/** Drops the claim only when it points at this order id; otherwise the safe no-op. */
	release(orderId: string): Result {
		if (!this.seen.has(orderId)) return fail(404, 'not_found');
		if (this.current !== orderId) return ok();
		this.current = null;
		this.pending.push(input.released(orderId));
		return ok();
	}

	/** Skips the claimed item, else the head. */
	skip(): string | null {
		const target = this.current ?? this.items[0]?.orderId ?? null;
		if (target !== null) {
			this.drop(target, 'skipped');
			this.pending.push(input.gone(target, 'skipped'));
		}
		return target;
	}

	remove(orderId: string): void {
		if (!this.items.some((i) => i.orderId === orderId)) return;
		this.drop(orderId, 'removed');
		this.pending.push(input.gone(orderId, 'removed'));
	}

	clear(): void {
		for (const i of this.items) this.seen.set(i.orderId, 'cleared');
		this.items = [];
		this.current = null;
		this.pending.push(input.cleared());
	}

	pause(paused: boolean): void {
		this.paused = paused;
		this.pending.push(input.paused(paused));
	}

	/** What a call on this order id answers when the order is not queued. */
	private queued(
		orderId: string
	): { ok: true; item: ClaimItem<Tip> } | { ok: false; result: Result } {
		const item = this.items.find((i) => i.orderId === orderId);
		if (item) return { ok: true, item };
		if (!this.seen.has(orderId)) return { ok: false, result: fail(404, 'not_found') };
		return { ok: false, result: fail(409, 'not_in_queue') };
	}

	private drop(orderId: string, why: Disposition): void {
		this.items = this.items.filter((i) => i.orderId !== orderId);
		if (this.current === orderId) this.current = null;
		this.seen.set(orderId, why);
	}
}

// ---------------------------------------------------------------------------------------------
// A shell that carries out one consumer's effects against an Upstream in simulated time: calls
// are answered at once (or by an injected fault), playback takes `playMs`, the one timer fires
// `wake`. Every step is counted so that a hot loop shows up as an error, not a hang.

type CallEffect = Extract<Fx, { kind: 'start' | 'finish' | 'release' }>;
type PlayEffect = Extract<Fx, { kind: 'play' }>;

export interface ShellOptions {
	playMs?: number;
	/** How a play ends; default: it ends normally. */
	play?: (e: PlayEffect) => 'ended' | 'failed';
	/** An answer that replaces the server's (the call is then not applied), or null. */
	fault?: (e: CallEffect, now: number) => Result | null;
	/** Error out after this many steps: the reducer is looping. */
	maxSteps?: number;
}

interface Task {
	at: number;
	seq: number;
	run: () => void;
	/** The one timer, or a playback (cancelled by `stop`). */
	tag?: string;
}

export class Shell {
	private tasks: Task[] = [];
	private seq = 0;
	readonly plays: { at: number; orderId: string; mode: string }[] = [];

	constructor(
		readonly driver: Driver,
		readonly server: Upstream,
		readonly options: ShellOptions = {}
	) {}

	/** Feed an input now and carry out what it asks for. */
	feed(i: In, now = this.driver.now): void {
		this.carry(this.driver.feed(i, now));
	}

	/** Change the server (as the streamer or another consumer would) and deliver its events. */
	act(change: (server: Upstream) => void): void {
		change(this.server);
		this.deliverEvents();
	}

	/** Run tasks in time order up to `until` (simulated ms). */
	runUntil(until: number): void {
		const max = this.options.maxSteps ?? 2_000;
		while (this.tasks.length) {
			this.tasks.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.tasks[0];
			if (next.at > until) break;
			this.tasks.shift();
			if (this.driver.steps.length > max)
				throw new Error(`more than ${max} steps by ${this.driver.now} ms: a hot loop`);
			this.driver.now = Math.max(this.driver.now, next.at);
			next.run();
		}
		this.driver.now = Math.max(this.driver.now, until);
	}

	private schedule(at: number, run: () => void, tag?: string): void {
		this.tasks.push({ at, seq: this.seq++, run, tag });
	}

	private deliverEvents(): void {
		for (const e of this.server.drain()) this.feed(e);
	}

	private carry(effects: Fx[]): void {
		const now = this.driver.now;
		for (const e of effects) {
			switch (e.kind) {
				case 'start':
				case 'finish':
				case 'release':
					this.schedule(now, () => this.call(e));
					break;
				case 'snapshot':
					this.schedule(now, () => this.feed(this.server.snapshot()));
					break;
				case 'play': {
					this.plays.push({ at: now, orderId: e.orderId, mode: e.mode });
					const outcome = this.options.play?.(e) ?? 'ended';
					const kind = outcome === 'ended' ? 'playEnded' : 'playFailed';
					this.schedule(
						now + (this.options.playMs ?? 3_000),
						() =>
							this.feed(
								kind === 'playEnded'
									? input.ended(e.orderId)
									: input.failed(e.orderId, 'simulated failure')
							),
						`play ${e.orderId}`
					);
					break;
				}
				case 'stop':
					this.tasks = this.tasks.filter((t) => t.tag !== `play ${e.orderId}`);
					break;
				case 'wakeAt':
					this.tasks = this.tasks.filter((t) => t.tag !== 'timer');
					if (e.at !== null) this.schedule(e.at, () => this.feed(input.wake()), 'timer');
					break;
				default:
					break;
			}
		}
	}

	private call(e: CallEffect): void {
		const faulty = this.options.fault?.(e, this.driver.now) ?? null;
		const result =
			faulty ??
			(e.kind === 'start'
				? this.server.start(e.orderId)
				: e.kind === 'finish'
					? this.server.finish(e.orderId)
					: this.server.release(e.orderId));
		const kind =
			e.kind === 'start' ? 'started' : e.kind === 'finish' ? 'finished' : 'releasedResult';
		this.feed(input[kind](e.orderId, result));
		this.deliverEvents();
	}
}
