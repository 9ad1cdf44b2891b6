// The live view against the simulator's model: after a random run of operations (tips, videos,
// claims, skips, pauses, counters, goals, tipping), with reads of random parts in flight while
// events come (a read answered at one step lands at a later one), some events delivered twice and
// late (up to LAG_MS after they were emitted, in order, as one socket delivers them), the view fed
// the events and the reads' answers equals a fresh read of every part. Overlays deleted are left out: the upstream announces no deletion
// (docs/upstream.md), so no view can follow one without a read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventEnvelope, RouteName } from '../../src/contract/index.ts';
import { answerFromView } from '../../src/core/view/answers.ts';
import { partSnapshot } from '../../src/core/view/shared.ts';
import { LiveView, type LiveViewOptions } from '../../src/core/view/live-view.ts';
import { VIEW_PARTS, type Snapshots, type ViewPart } from '../../src/core/view/parts.ts';
import { SimModel } from '../../src/sim/model/model.ts';

const NAMES = ['Ann', 'Bo', 'Cy'];
/**
 * Each step of a run is this long; the socket delivers an event at most LAG_MS after it (less than
 * the view's doubt of a second), a read lands at most READ_MS after it was sent.
 */
const STEP_MS = 200;
const LAG_MS = 600;
const READ_MS = 1000;

/** A part as the upstream's read answers it (src/sim/handlers.ts), copied as the wire copies it. */
function read(model: SimModel, part: ViewPart, o: { depth: number; board: number }) {
	const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
	const bodies: { [P in ViewPart]: () => Snapshots[P] } = {
		tts: () => ({
			is_paused: model.tts.paused,
			currently_playing: model.tts.current !== null,
			current_order_id: model.tts.current,
			items: model.tts.items
		}),
		media: () => ({
			is_paused: model.media.paused,
			visible: model.mediaVisible,
			currently_playing: model.media.current !== null,
			current_order_id: model.media.current,
			items: model.media.items
		}),
		ttsHistory: () => {
			const page = model.tts.page(o.depth);
			return { tips: page.rows, has_more: page.has_more, next_cursor: page.next_cursor };
		},
		mediaHistory: () => {
			const page = model.media.page(o.depth);
			return { media: page.rows, has_more: page.has_more, next_cursor: page.next_cursor };
		},
		counters: () => ({ counters: [...model.counters.values()] }),
		goals: () => Object.fromEntries(model.overlayList().map((ov) => [ov.id, model.tipGoal(ov.id)])),
		tipping: () => ({ accepting: model.accepting }),
		leaderboard: () => ({ supporters: model.leaderboard(o.board) })
	};
	return wire(bodies[part]());
}

/** Ties in any order: the upstream's order among equal totals is not the view's to know. */
function byTotal<T extends { total: number; name: string; platform_user_id: string | null }>(
	rows: T[]
): T[] {
	const key = (r: T) => `${r.platform_user_id ?? ''}:${r.name}`;
	return [...rows].sort((a, b) => b.total - a.total || (key(a) < key(b) ? -1 : 1));
}

/** What the view answers to the page read of each part (answers.ts), as the upstream would. */
function answer(view: LiveView, part: ViewPart, o: { depth: number; board: number }): unknown {
	const read = (name: RouteName, params = {}, limit?: number) =>
		answerFromView(view, name, params, { limit });
	switch (part) {
		case 'tts':
			return read('ttsQueue');
		case 'media':
			return read('mediaQueue');
		case 'ttsHistory':
		case 'mediaHistory':
			return read(part, {}, o.depth);
		case 'counters':
			return read('countersList');
		case 'goals':
			return Object.fromEntries(
				[...view.goals.keys()].map((overlayId) => [
					overlayId,
					(read('tipGoalRead', { overlayId }) as { tip_goal: unknown } | null)?.tip_goal
				])
			);
		case 'tipping':
			return read('tipping');
		case 'leaderboard': {
			const board = read('leaderboard', {}, o.board) as Snapshots['leaderboard'] | null;
			return board && { supporters: byTotal(board.supporters) };
		}
	}
}

/**
 * Another instance's copy of `view` (src/hosted/shared-view.ts): each part as partSnapshot gives
 * it, through JSON as the database keeps it; a part the view is not sure of stays unsure.
 */
function copyOf(view: LiveView, options: LiveViewOptions): LiveView {
	const copy = new LiveView(options);
	copy.gap();
	for (const part of VIEW_PARTS) {
		const body = JSON.parse(JSON.stringify(partSnapshot(view, part))) as Snapshots[ViewPart] | null;
		if (body) copy.applySnapshot(part, body, 0);
	}
	return copy;
}

/** The copy answers every part's page read as the view itself does, or not at all where it is unsure. */
function expectSameAnswers(view: LiveView, copy: LiveView, o: { depth: number; board: number }) {
	for (const part of VIEW_PARTS) {
		expect(copy.sure(part), part).toBe(view.sure(part));
		if (view.sure(part)) expect(answer(copy, part, o), part).toEqual(answer(view, part, o));
	}
}

type Op = { kind: string; a: number; b: number; c: boolean };

/** One random operation on the model; a refusal (409, 404) changes nothing and emits nothing. */
function operate(model: SimModel, op: Op): void {
	const pick = <T>(xs: readonly T[]): T | undefined => xs[op.a % Math.max(1, xs.length)];
	const q = op.c ? 'tts' : 'media';
	const queued = model[q].items.map((i) => i.order_id);
	const steps: Record<string, () => unknown> = {
		tip: () =>
			model.createTip({
				name: NAMES[op.a % NAMES.length],
				// Whole amounts and some cents: supporters' totals often tie.
				amount: op.b % 4 === 0 ? null : op.b % 3 ? ((op.b >> 2) % 4) + 1 : (op.b % 2000) / 100,
				paid: op.c || op.b % 3 === 0,
				platform: op.a % 2 ? 'twitch' : null,
				platform_user_id: op.a % 2 ? String(op.a % 4) : null,
				media: op.b % 5 === 0 ? { url: `https://youtu.be/v${op.b}` } : undefined
			}),
		video: () => model.enqueueMedia({ url: `https://youtu.be/x${op.b}` }, NAMES[op.a % 3]),
		ready: () => pick(model.tts.items.map((t) => t.order_id)),
		start: () => model.start(q, pick(queued) ?? 'none'),
		finish: () => model.finish(q, model[q].current ?? pick(queued) ?? 'none'),
		release: () => model.release(q, model[q].current ?? pick(queued) ?? 'none'),
		pause: () => model.setPaused(q, op.b % 2 === 0),
		skip: () => model.skip(q),
		remove: () => model.remove(q, pick(queued) ?? 'none'),
		clear: () => (op.b % 4 === 0 ? model.ttsClear() : null),
		replay: () => model.ttsReplay(pick(model.tts.history.map((h) => h.order_id)) ?? 'none'),
		visible: () => model.mediaSetVisible(op.c),
		counter: () => counterOp(model, op),
		goal: () => goalOp(model, op),
		tipping: () => model.setAccepting(op.c)
	};
	if (op.kind === 'ready') {
		const id = pick(model.tts.items.map((t) => t.order_id));
		if (id) model.audioReady(id);
		return;
	}
	try {
		steps[op.kind]();
	} catch (err) {
		if (!(err instanceof Error && 'status' in err)) throw err;
	}
}

function counterOp(model: SimModel, op: Op): void {
	const name = ['deaths', 'wins', 'fresh'][op.a % 3];
	if (op.b % 4 === 0) model.deleteCounter(name);
	else if (op.b % 4 === 1) model.createCounter(name, op.b % 10);
	else if (op.b % 4 === 2) model.setCounter(name, op.b % 50);
	else model.incrementCounter(name, op.c ? 1 : -2);
}

function goalOp(model: SimModel, op: Op): void {
	const id = model.overlayList()[op.a % 3].id;
	const now = model.iso();
	if (op.b % 3 === 0) model.addToTipGoal(id, (op.b % 500) / 100);
	else if (op.b % 3 === 1) model.updateTipGoal(id, { starts_at: op.c ? now : null });
	else model.updateTipGoal(id, { enabled: op.c, amount: op.b % 300 });
}

const opArb = fc.record({
	kind: fc.constantFrom(
		'tip',
		'tip',
		'tip',
		'video',
		'ready',
		'start',
		'start',
		'finish',
		'finish',
		'release',
		'pause',
		'skip',
		'remove',
		'clear',
		'replay',
		'visible',
		'counter',
		'goal',
		'tipping'
	),
	a: fc.nat(1000),
	b: fc.nat(10_000),
	c: fc.boolean()
});
/** Between operations: deliver an event (once or twice), send a read, or land a read. */
const stepArb = fc.oneof(
	{ weight: 6, arbitrary: opArb.map((op) => ({ step: 'op' as const, op })) },
	{ weight: 4, arbitrary: fc.boolean().map((twice) => ({ step: 'deliver' as const, twice })) },
	{
		weight: 1,
		arbitrary: fc.constantFrom(...VIEW_PARTS).map((part) => ({ step: 'send' as const, part }))
	},
	{ weight: 1, arbitrary: fc.nat(7).map((n) => ({ step: 'land' as const, n })) },
	{ weight: 1, arbitrary: fc.nat(7).map((n) => ({ step: 'answer' as const, n })) }
);

describe('the live view against the upstream', () => {
	it('after a random run of events and racing reads, the view equals a fresh read of every part', () => {
		fc.assert(
			fc.property(
				fc.array(stepArb, { maxLength: 150, size: 'max' }),
				fc.constantFrom(2, 50),
				fc.constantFrom(1, 2, 25),
				fc.constantFrom(0, 2),
				(steps, depth, servedRows, margin) => {
					let clock = Date.parse('2026-11-29T12:00:00Z');
					const wire: { at: number; event: EventEnvelope }[] = [];
					const model = new SimModel({
						now: () => new Date(clock),
						sink: (e) =>
							wire.push({ at: clock, event: JSON.parse(JSON.stringify(e)) as EventEnvelope }),
						audioUrl: (id) => `http://sim.test/audio/${id}.mp3`
					});
					const o = { depth, board: servedRows + margin };
					const options = {
						historyDepth: depth,
						leaderboardLimit: servedRows,
						leaderboardDepth: servedRows + margin
					};
					const view = new LiveView(options);
					/** Reads sent: the part, and its answer once the upstream gave it (not yet landed). */
					const reads: { part: ViewPart; body: unknown; sentAt: number }[] = [];
					const wanted = new Set<ViewPart>(VIEW_PARTS);
					const send = (part: ViewPart) => {
						if (reads.some((r) => r.part === part)) return;
						view.beginRead(part, clock);
						reads.push({ part, body: undefined, sentAt: clock });
					};
					const land = (at: number) => {
						const [r] = reads.splice(at, 1);
						r.body ??= read(model, r.part, o);
						for (const p of view.applySnapshot(r.part, r.body as never, clock)) wanted.add(p);
					};
					const deliver = (twice: boolean) => {
						const e = wire.shift()?.event;
						if (!e) return;
						for (const p of view.apply(e, clock).reread) wanted.add(p);
						if (twice) expect(view.apply(e, clock).outcome).toBe('duplicate');
					};
					const settle = () => {
						for (const part of wanted) send(part);
						wanted.clear();
					};
					settle();
					for (const s of steps) {
						clock += STEP_MS;
						while (wire.length && wire[0].at + LAG_MS <= clock) deliver(false);
						for (let at; (at = reads.findIndex((r) => r.sentAt + READ_MS <= clock)) >= 0;) land(at);
						if (s.step === 'op') operate(model, s.op);
						if (s.step === 'deliver') deliver(s.twice);
						if (s.step === 'send') send(s.part);
						// The upstream answers a read now; it lands later.
						if (s.step === 'answer' && reads.length)
							reads[s.n % reads.length].body ??= read(model, reads[s.n % reads.length].part, o);
						if (s.step === 'land' && reads.length) land(s.n % reads.length);
						settle();
						expectSameAnswers(view, copyOf(view, options), { ...o, board: servedRows });
					}
					// Everything delivered, every read landed, every re-read asked for made.
					for (let round = 0; wire.length || reads.length; round++) {
						expect(round).toBeLessThan(100);
						clock += STEP_MS;
						while (wire.length) deliver(false);
						while (reads.length) land(0);
						settle();
					}
					for (const part of VIEW_PARTS) {
						expect(view.sure(part), part).toBe(true);
						const served = part === 'leaderboard' ? { ...o, board: servedRows } : o;
						const fresh = read(model, part, served);
						if (part === 'leaderboard') {
							const board = fresh as Snapshots['leaderboard'];
							expect(answer(view, part, served)).toEqual({ supporters: byTotal(board.supporters) });
						} else expect(answer(view, part, served), part).toEqual(fresh);
					}
					expectSameAnswers(view, copyOf(view, options), { ...o, board: servedRows });
				}
			),
			{ numRuns: 300 }
		);
	});
});
