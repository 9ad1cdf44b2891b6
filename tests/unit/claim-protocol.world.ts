// The world of the claim protocol's property tests (claim-protocol.property.test.ts): pages
// running the reducer against a model of the upstream queue that has one claim at a time
// (docs/claim-protocol.md, the upstream's protocol), with faults, delivery orders and a clock.
import {
	claimStep,
	initialClaimState,
	type ClaimConfig,
	type ClaimState
} from '../../src/core/claim-protocol.ts';
import { fail, input as I, tip, type In, type Result, type Tip } from './claim-harness.ts';
import { Upstream } from './claim-upstream.ts';
import { MAX_PLAY_MS, type CallEffect, type Fault, Checker } from './claim-protocol.checker.ts';

export interface Delivery {
	input: In;
	event: boolean;
	/** Delivered once already (at-least-once delivery); not duplicated again. */
	duped?: boolean;
}

export interface Page {
	state: ClaimState<Tip>;
	/** Bumped by a reload: answers to the old page's calls are lost with it. */
	life: number;
	eligible: boolean;
	/** The page's stored memory of its claim (the `remember` effects), kept across reloads. */
	stored: string | null;
	timer: number | null;
	/** What the shell is playing, and since when. */
	playing: { orderId: string; since: number } | null;
	inbox: Delivery[];
	check: Checker;
	/** Crashed or frozen: hears nothing, does nothing, until it reloads. */
	dead: boolean;
}

export interface Request {
	who: number;
	life: number;
	/** null: a snapshot read. */
	call: CallEffect | null;
}

export interface WorldOptions {
	consumers: number;
	config: Partial<ClaimConfig>;
	/**
	 * Before time moves on, every request is answered and every answer and event delivered
	 * (network latency below the clock's resolution): what "never the same order at once" needs.
	 */
	settle: boolean;
	/**
	 * Each page hears everything (answers to its calls, snapshots, events) in the order the server
	 * produced it, as over one connection; pages, and the server's handling of requests, still
	 * interleave at random. Without it, a start answer may reach a page after the `released` event
	 * of a later release of that claim, and the page plays a claim that is no longer its own.
	 */
	ordered: boolean;
}

/** Consumers (pages) and one upstream queue. */
export class World {
	now = 0;
	readonly server = new Upstream();
	readonly pages: Page[] = [];
	requests: Request[] = [];
	/** Every order id ever queued. */
	readonly orders: string[] = [];
	/** The order a crashed or slow third consumer holds (single-consumer runs). */
	ghost: string | null = null;
	private nextId = 1;
	private healthy = false;

	readonly config: Partial<ClaimConfig>;

	constructor(readonly options: WorldOptions) {
		this.config = options.config;
		for (let n = 0; n < options.consumers; n++) {
			this.pages.push({
				state: initialClaimState<Tip>(this.config),
				life: 0,
				eligible: true,
				stored: null,
				timer: null,
				playing: null,
				inbox: [],
				check: new Checker(),
				dead: false
			});
			this.boot(n);
		}
	}

	// -- the server side -------------------------------------------------------------------

	addTip(ready: boolean, broken = false): void {
		const id = `t${this.nextId++}`;
		this.orders.push(id);
		this.server.add(tip(id, ready, broken ? { broken } : {}));
		this.publish();
	}

	change(f: (s: Upstream) => void): void {
		f(this.server);
		this.publish();
	}

	/** A third consumer that acts on the server directly and may vanish holding its claim. */
	ghostAct(op: 'start' | 'finish' | 'release'): void {
		if (op === 'start') {
			const head = this.server.items.find((i) => i.ready);
			if (head && this.server.start(head.orderId).ok) this.ghost = head.orderId;
		} else if (this.ghost !== null) {
			if (op === 'finish') this.server.finish(this.ghost);
			else this.server.release(this.ghost);
			this.ghost = null;
		}
		this.publish();
	}

	serve(pick: number, fault: Fault): void {
		if (!this.requests.length) return;
		const [r] = this.requests.splice(pick % this.requests.length, 1);
		const page = this.pages[r.who];
		let answer: In;
		if (r.call === null) answer = this.server.snapshot();
		else {
			const { kind, orderId } = r.call;
			const f = this.healthy ? 'none' : fault;
			let result: Result = fail(0);
			if (f === 'none' || f === 'lostAfter')
				result =
					kind === 'start'
						? this.server.start(orderId)
						: kind === 'finish'
							? this.server.finish(orderId)
							: this.server.release(orderId);
			if (f === '429')
				result = fail(429, undefined, orderId.length % 2 ? { retryAfterMs: 2_000 } : {});
			if (f === '500') result = fail(500, 'internal');
			if (f === 'lostBefore' || f === 'lostAfter') result = fail(0);
			answer =
				kind === 'start'
					? I.started(orderId, result)
					: kind === 'finish'
						? I.finished(orderId, result)
						: I.releasedResult(orderId, result);
		}
		this.publish();
		if (page.life === r.life) page.inbox.push({ input: answer, event: false });
	}

	private publish(): void {
		for (const e of this.server.drain())
			for (const p of this.pages) if (!p.dead) p.inbox.push({ input: e, event: true });
	}

	// -- the page side ---------------------------------------------------------------------

	boot(who: number): void {
		const p = this.pages[who];
		p.life += 1;
		p.dead = false;
		p.state = initialClaimState<Tip>(this.config);
		p.check = new Checker();
		p.inbox = [];
		p.timer = null;
		p.playing = null;
		this.feed(who, I.remembered(p.stored));
		this.feed(who, I.eligible(p.eligible));
		this.requestSnapshot(who);
	}

	feed(who: number, i: In): void {
		const p = this.pages[who];
		const step = claimStep(p.state, i, this.now);
		p.state = step.state;
		p.check.step(i, step.effects, step.state);
		for (const e of step.effects) {
			switch (e.kind) {
				case 'start':
				case 'finish':
				case 'release':
					this.requests.push({ who, life: p.life, call: e });
					break;
				case 'snapshot':
					this.requestSnapshot(who);
					break;
				case 'play':
					p.playing = { orderId: e.orderId, since: this.now };
					break;
				case 'stop':
					if (p.playing?.orderId === e.orderId) p.playing = null;
					break;
				case 'wakeAt':
					p.timer = e.at;
					break;
				case 'remember':
					p.stored = e.orderId;
					break;
				default:
					break;
			}
		}
	}

	/** The shell debounces: one snapshot read in flight per page. */
	private requestSnapshot(who: number): void {
		const life = this.pages[who].life;
		if (!this.requests.some((r) => r.who === who && r.life === life && r.call === null))
			this.requests.push({ who, life, call: null });
	}

	deliver(who: number, pick: number, dup: boolean): void {
		const p = this.pages[who];
		if (p.dead || !p.inbox.length) return;
		const at = this.options.ordered ? 0 : pick % p.inbox.length;
		const d = p.inbox[at];
		if (dup && d.event && !d.duped) d.duped = true;
		else p.inbox.splice(at, 1);
		this.feed(who, d.input);
	}

	/** The playback ends, or fails (a broken item always fails). */
	endPlay(who: number, ok: boolean): void {
		const p = this.pages[who];
		if (!p.playing) return;
		const { orderId } = p.playing;
		p.playing = null;
		if (p.state.items.find((i) => i.orderId === orderId)?.data.broken) ok = false;
		this.feed(who, ok ? I.ended(orderId) : I.failed(orderId, 'simulated'));
	}

	setEligible(who: number, eligible: boolean): void {
		this.pages[who].eligible = eligible;
		if (!this.pages[who].dead) this.feed(who, I.eligible(eligible));
	}

	/** The page freezes or its browser dies: its claim, if any, stays behind on the server. */
	crash(who: number): void {
		const p = this.pages[who];
		p.dead = true;
		p.life += 1;
		p.inbox = [];
		p.timer = null;
		p.playing = null;
	}

	/** The realtime socket reconnects: events in transit are lost, the snapshot is re-read. */
	reconnect(who: number): void {
		const p = this.pages[who];
		if (p.dead) return;
		p.inbox = p.inbox.filter((d) => !d.event);
		this.requestSnapshot(who);
	}

	// -- time ------------------------------------------------------------------------------

	/** Move the clock on, firing timers and ending playbacks that reach MAX_PLAY_MS in order. */
	tick(ms: number): void {
		const target = this.now + ms;
		for (let guard = 0; ; guard++) {
			if (guard > 10_000) throw new Error('tick does not settle');
			if (this.options.settle) this.flush();
			let next: { at: number; run: () => void } | null = null;
			this.pages.forEach((p, who) => {
				if (p.timer !== null && p.timer <= target && (!next || p.timer < next.at))
					next = {
						at: p.timer,
						run: () => {
							p.timer = null;
							this.feed(who, I.wake());
						}
					};
				const end = p.playing ? p.playing.since + MAX_PLAY_MS : Infinity;
				if (end <= target && (!next || end < next.at))
					next = { at: end, run: () => this.endPlay(who, true) };
			});
			if (!next) break;
			const { at, run } = next as { at: number; run: () => void };
			this.now = Math.max(this.now, at);
			run();
		}
		this.now = Math.max(this.now, target);
	}

	/** Answer every request and deliver everything, in order, until nothing is in transit. */
	flush(): void {
		for (let guard = 0; ; guard++) {
			if (guard > 10_000) throw new Error('flush does not settle: a hot loop');
			if (this.requests.length) this.serve(0, 'none');
			else {
				const who = this.pages.findIndex((p) => p.inbox.length);
				if (who < 0) return this.checkSettled();
				this.deliver(who, 0, false);
			}
		}
	}

	/** Everything healthy from now on: run until nothing is left to do. */
	quiesce(): void {
		this.healthy = true;
		this.ghost = null;
		this.flush();
		this.change((s) => {
			if (s.paused) s.pause(false);
			for (const i of s.items) s.makeReady(i.orderId);
		});
		if (this.pages.every((p) => p.dead)) this.boot(0);
		this.pages.forEach((p, who) => {
			if (p.dead) return;
			if (!p.eligible) this.setEligible(who, true);
			this.reconnect(who);
		});
		for (let guard = 0; ; guard++) {
			if (guard > 5_000) throw new Error(`no quiescence by ${this.now} ms`);
			this.flush();
			const who = this.pages.findIndex((p) => p.playing);
			if (who >= 0) {
				this.now += 1_000;
				this.endPlay(who, true);
				continue;
			}
			const timers = this.pages.map((p) => p.timer).filter((t): t is number => t !== null);
			if (!timers.length) return;
			this.tick(Math.max(0, Math.min(...timers) - this.now));
		}
	}

	/**
	 * With in-order delivery, whenever nothing is in transit: never the same order played by two
	 * pages at once, and an idle page's view of the claim is the server's (it never waits for a
	 * takeover of a claim nobody holds). Not checked at every step: a page learns that its claim was
	 * dropped from an event, so a play may overlap another page's by that event's delivery time (a
	 * 5xx or lost answer to a start leaves the claim ambiguous, and docs/upstream.md, open details,
	 * has a page release a claim it takes for its own).
	 */
	private checkSettled(): void {
		if (!this.options.ordered) return;
		const playing = this.pages.flatMap((p) => (p.playing ? [p.playing.orderId] : []));
		if (new Set(playing).size !== playing.length)
			throw new Error(`two consumers play ${playing.join(' and ')} at once at ${this.now} ms`);
		this.pages.forEach((p, who) => {
			const { synced, mine, current } = p.state;
			if (!p.dead && synced && !mine && current !== this.server.current)
				throw new Error(
					`page ${who} takes ${current} for the claim, the server has ${this.server.current} at ${this.now} ms`
				);
		});
	}
}

// -- actions ---------------------------------------------------------------------------------
