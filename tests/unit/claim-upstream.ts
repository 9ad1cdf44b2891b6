// A model of one upstream queue with one claim at a time (docs/claim-protocol.md, the
// upstream's protocol; docs/upstream.md, the TTS calls), and a shell that carries out a
// claim-protocol consumer's effects against that model in simulated time (the claim-protocol tests'
// harness is claim-harness.ts).
import { type ClaimItem } from '../../src/core/claim-protocol.ts';
import {
	type Tip,
	type Fx,
	type In,
	type Result,
	Driver,
	input,
	ok,
	fail
} from './claim-harness.ts';

// ---------------------------------------------------------------------------------------------
// A model of one upstream queue: one claim at a time (docs/claim-protocol.md),
// the TTS call table of docs/upstream.md, and the events a consumer would hear, as reducer inputs.

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

export type CallEffect = Extract<Fx, { kind: 'start' | 'finish' | 'release' }>;
export type PlayEffect = Extract<Fx, { kind: 'play' }>;

export interface ShellOptions {
	playMs?: number;
	/** How a play ends; default: it ends normally. */
	play?: (e: PlayEffect) => 'ended' | 'failed';
	/** An answer that replaces the server's (the call is then not applied), or null. */
	fault?: (e: CallEffect, now: number) => Result | null;
	/** Error out after this many steps: the reducer is looping. */
	maxSteps?: number;
}

export interface Task {
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
