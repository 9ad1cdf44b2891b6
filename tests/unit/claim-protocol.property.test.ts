// Property tests of the claim protocol reducer (src/core/claim-protocol.ts): random sequences of
// inputs, with random server answers, against a model of the upstream queue that has one claim
// at a time (claim-protocol.world.ts). Invariants are checked after every step
// (claim-protocol.checker.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claimStep, initialClaimState } from '../../src/core/claim-protocol.ts';
import { type In, type Result, type Tip } from './claim-harness.ts';
import { MAX_EFFECTS_PER_STEP, type Fault } from './claim-protocol.checker.ts';
import { type WorldOptions, World } from './claim-protocol.world.ts';

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
