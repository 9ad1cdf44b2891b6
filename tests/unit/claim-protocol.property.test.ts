// Property tests of the claim protocol reducer (src/core/claim-protocol.ts): random sequences of
// inputs, with random server answers, against a model of the upstream queue that has one claim at
// a time (service-api.md, States and transitions). Invariants are checked after every step.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	claimStep,
	initialClaimState,
	type ClaimConfig,
	type ClaimState
} from '../../src/core/claim-protocol.ts';
import {
	fail,
	input as I,
	show,
	tip,
	Upstream,
	type Fx,
	type In,
	type Result,
	type Tip
} from './claim-harness.ts';

/** More effects than this from one input would mean a list growing without bound. */
const MAX_EFFECTS_PER_STEP = 12;
/** The longest playback; well under takeoverMs, as a healthy item is. */
const MAX_PLAY_MS = 20_000;

type CallEffect = Extract<Fx, { kind: 'start' | 'finish' | 'release' }>;
type Fault = 'none' | '429' | '500' | 'lostBefore' | 'lostAfter';

/** Per page life: what its effects have shown so far, and the invariants over them. */
class Checker {
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

interface Delivery {
	input: In;
	event: boolean;
	/** Delivered once already (at-least-once delivery); not duplicated again. */
	duped?: boolean;
}

interface Page {
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

interface Request {
	who: number;
	life: number;
	/** null: a snapshot read. */
	call: CallEffect | null;
}

interface WorldOptions {
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
class World {
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
	 * 5xx or lost answer to a start leaves the claim ambiguous, and CONTRACT.md, Details, has a page
	 * release a claim it takes for its own).
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

type Action =
	| { t: 'serve'; pick: number; fault: Fault }
	| { t: 'deliver'; who: number; pick: number; dup: boolean }
	| { t: 'playback'; who: number; ok: boolean }
	| { t: 'tick'; ms: number }
	| { t: 'tip'; ready: boolean; broken: boolean }
	| { t: 'render'; pick: number }
	| { t: 'eligible'; who: number; on: boolean }
	| { t: 'reload'; who: number }
	| { t: 'reconnect'; who: number }
	| { t: 'crash'; who: number }
	| { t: 'skip' }
	| { t: 'remove'; pick: number }
	| { t: 'clear' }
	| { t: 'pause'; on: boolean }
	| { t: 'ghost'; op: 'start' | 'finish' | 'release' };

const fault: fc.Arbitrary<Fault> = fc.oneof(
	{ weight: 8, arbitrary: fc.constant('none' as const) },
	{ weight: 1, arbitrary: fc.constantFrom<Fault>('429', '500', 'lostBefore', 'lostAfter') }
);
const who = fc.nat(1);
const rarely = fc.nat(7).map((n) => n === 0);

function actions(o: { ghost: boolean; reconnect: boolean }): fc.Arbitrary<Action[]> {
	const act = <A extends Action>(weight: number, arbitrary: fc.Arbitrary<A>) => ({
		weight,
		arbitrary: arbitrary as fc.Arbitrary<Action>
	});
	const t = <K extends Action['t']>(k: K) => fc.constant(k);
	const often = fc.nat(3).map((n) => n > 0);
	const ms = fc.oneof(fc.integer({ min: 1, max: 3_000 }), fc.integer({ min: 3_000, max: 100_000 }));
	return fc.array(
		fc.oneof(
			act(30, fc.record({ t: t('serve'), pick: fc.nat(), fault })),
			act(30, fc.record({ t: t('deliver'), who, pick: fc.nat(), dup: rarely })),
			act(12, fc.record({ t: t('playback'), who, ok: often })),
			act(8, fc.record({ t: t('tick'), ms })),
			act(8, fc.record({ t: t('tip'), ready: often, broken: rarely })),
			act(2, fc.record({ t: t('render'), pick: fc.nat() })),
			act(2, fc.record({ t: t('eligible'), who, on: often })),
			act(1, fc.record({ t: t('reload'), who })),
			act(o.ghost ? 0 : 1, fc.record({ t: t('crash'), who })),
			act(1, fc.record({ t: t('skip') })),
			act(1, fc.record({ t: t('remove'), pick: fc.nat() })),
			act(2, fc.record({ t: t('pause'), on: fc.nat(2).map((n) => n === 0) })),
			act(1, fc.record({ t: t('clear') })),
			act(o.reconnect ? 1 : 0, fc.record({ t: t('reconnect'), who })),
			act(
				o.ghost ? 2 : 0,
				fc.record({ t: t('ghost'), op: fc.constantFrom('start', 'finish', 'release') })
			)
		),
		{ minLength: 10, maxLength: 200, size: 'max' }
	);
}

function perform(w: World, a: Action): void {
	const n = w.pages.length;
	switch (a.t) {
		case 'serve':
			return w.serve(a.pick, a.fault);
		case 'deliver':
			return w.deliver(a.who % n, a.pick, a.dup);
		case 'playback':
			return w.endPlay(a.who % n, a.ok);
		case 'tick':
			return w.tick(a.ms);
		case 'tip':
			return w.addTip(a.ready, a.broken);
		case 'render': {
			const waiting = w.server.items.filter((i) => !i.ready);
			if (waiting.length) w.change((s) => s.makeReady(waiting[a.pick % waiting.length].orderId));
			return;
		}
		case 'eligible':
			return w.setEligible(a.who % n, a.on);
		case 'reload':
			return w.boot(a.who % n);
		case 'reconnect':
			return w.reconnect(a.who % n);
		case 'crash':
			return w.crash(a.who % n);
		case 'skip':
			return w.change((s) => void s.skip());
		case 'remove': {
			const items = w.server.items;
			if (items.length) w.change((s) => s.remove(items[a.pick % items.length].orderId));
			return;
		}
		case 'clear':
			return w.change((s) => s.clear());
		case 'pause':
			return w.change((s) => s.pause(a.on));
		case 'ghost':
			return w.ghostAct(a.op);
	}
}

const configs = fc.record({
	takeoverMs: fc.constantFrom(90_000, 45_000),
	headWaitMs: fc.constantFrom(15_000, 2_000),
	maxFailures: fc.integer({ min: 1, max: 3 }),
	fallback: fc.boolean(),
	gapMs: fc.constantFrom(0, 500),
	random: fc.constantFrom(
		() => 0,
		() => 0.999
	)
});

/** The final state: each queued order finished at most once, and all of them unless given up. */
function expectAllFinishedOnce(w: World): void {
	const counts = new Map<string, number>();
	for (const id of w.server.history) counts.set(id, (counts.get(id) ?? 0) + 1);
	for (const [id, n] of counts) expect(n, `${id} finished ${n} times`).toBe(1);
	expect(w.server.current, 'a claim is still held at quiescence').toBeNull();
	const live = w.pages.filter((p) => !p.dead);
	// Left queued only if every live consumer gave it up (it keeps failing; the streamer may skip it).
	for (const item of w.server.items) {
		const givenUpByAll = live.every((p) => p.state.givenUp.includes(item.orderId));
		expect(givenUpByAll, `${item.orderId} is still queued although not given up`).toBe(true);
	}
	for (const p of live) {
		expect(p.playing).toBeNull();
		expect(p.state.mine).toBeNull();
	}
}

const RUNS = Number(process.env.CLAIM_RUNS ?? 300);

/** Random actions, then everything healthy until quiescence; invariants checked throughout. */
function runWorlds(options: Omit<WorldOptions, 'config'>, ghost: boolean): void {
	fc.assert(
		fc.property(
			configs,
			fc.nat(3),
			actions({ ghost, reconnect: !options.settle }),
			(config, initial, acts) => {
				const w = new World({ ...options, config });
				for (let n = 0; n < initial; n++) w.addTip(true);
				for (const a of acts) perform(w, a);
				w.quiesce();
				expectAllFinishedOnce(w);
			}
		),
		{ numRuns: RUNS }
	);
}

describe('the claim protocol against a model of the upstream queue', () => {
	it('one consumer beside a third one that may vanish holding its claim: every invariant holds after every step, and every item ends finished once', () => {
		runWorlds({ consumers: 1, settle: false, ordered: false }, true);
	}, 60_000);

	it('two consumers hearing answers and events in any order: every invariant holds after every step, and every item ends finished exactly once', () => {
		runWorlds({ consumers: 2, settle: true, ordered: false }, false);
	}, 60_000);

	it('two consumers each hearing the server in order never play the same order at once, never wait on a claim nobody holds, and finish every item exactly once', () => {
		runWorlds({ consumers: 2, settle: true, ordered: true }, false);
	}, 60_000);

	it('the reducer never throws on arbitrary inputs, however unlikely their order', () => {
		const orderId = fc.constantFrom('a', 'b', 'c', 'x');
		const result = fc.oneof(
			fc.constant<Result>({ ok: true }),
			fc.constant<Result>({ ok: true, data: { text: 'fresh' } }),
			fc.record({
				ok: fc.constant(false as const),
				status: fc.constantFrom(0, 400, 403, 404, 409, 429, 500, 503),
				code: fc.constantFrom(
					undefined,
					'queue_paused',
					'already_playing',
					'not_in_queue',
					'not_playing'
				),
				currentOrderId: fc.option(orderId, { nil: undefined }),
				retryAfterMs: fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: undefined })
			})
		);
		const item = fc.record({ orderId, ready: fc.boolean(), data: fc.constant({ text: 't' }) });
		const anyInput: fc.Arbitrary<In> = fc.oneof(
			fc.record({
				kind: fc.constant('snapshot' as const),
				paused: fc.boolean(),
				currentOrderId: fc.option(orderId, { nil: null }),
				items: fc.uniqueArray(item, { selector: (i) => i.orderId, maxLength: 4 })
			}),
			fc.record({ kind: fc.constant('added' as const), item }),
			fc.record({ kind: fc.constant('ready' as const), orderId }),
			fc.record({ kind: fc.constant('claimed' as const), orderId }),
			fc.record({
				kind: fc.constant('gone' as const),
				orderId,
				why: fc.constantFrom('finished' as const, 'skipped' as const, 'removed' as const)
			}),
			fc.record({ kind: fc.constant('released' as const), orderId }),
			fc.constant({ kind: 'cleared' as const }),
			fc.record({ kind: fc.constant('paused' as const), paused: fc.boolean() }),
			fc.record({ kind: fc.constant('eligible' as const), eligible: fc.boolean() }),
			fc.record({
				kind: fc.constant('remembered' as const),
				orderId: fc.option(orderId, { nil: null })
			}),
			fc.record({ kind: fc.constant('startResult' as const), orderId, result }),
			fc.record({ kind: fc.constant('finishResult' as const), orderId, result }),
			fc.record({ kind: fc.constant('releaseResult' as const), orderId, result }),
			fc.record({ kind: fc.constant('playEnded' as const), orderId }),
			fc.record({ kind: fc.constant('playFailed' as const), orderId, reason: fc.constant('x') }),
			fc.constant({ kind: 'wake' as const })
		);
		fc.assert(
			fc.property(
				configs,
				fc.array(fc.tuple(anyInput, fc.integer({ min: 0, max: 60_000 })), { maxLength: 80 }),
				(config, inputs) => {
					let state = initialClaimState<Tip>(config);
					let now = 0;
					for (const [i, dt] of inputs) {
						now += dt;
						const step = claimStep(state, i as In, now);
						expect(step.effects.length).toBeLessThanOrEqual(MAX_EFFECTS_PER_STEP);
						for (const e of step.effects)
							if (e.kind === 'wakeAt' && e.at !== null) expect(e.at).toBeGreaterThanOrEqual(now);
						state = step.state;
					}
				}
			),
			{ numRuns: 300 }
		);
	});
});
