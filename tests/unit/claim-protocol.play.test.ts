// The claim protocol as a table (claim-protocol.rows.ts): what may be claimed, the happy path,
// skip/remove/clear, pause, audio not rendered yet, late duplicates and early timers.
import { describe, expect, it } from 'vitest';
import { claimStep, initialClaimState } from '../../src/core/claim-protocol.ts';
import { fail, input as I, ok, tip } from './claim-harness.ts';
import { at, timer, a, b, c, boot, playing, table } from './claim-protocol.rows.ts';

describe('when nothing may be claimed', () => {
	table([
		{
			name: 'nothing is claimed before the first snapshot',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.added(a), []),
				at(100, I.paused(false), []),
				at(200, I.wake(), []),
				at(300, I.snapshot([a]), ['start a'])
			]
		},
		{
			name: 'nothing is claimed while the page is hidden or its audio is locked',
			steps: [
				at(0, I.snapshot([a, b]), []),
				at(5_000, I.added(c), []),
				at(6_000, I.wake(), []),
				at(7_000, I.eligible(), ['start a']),
				at(7_010, I.started('a'), ['play a'])
			]
		},
		{
			name: 'nothing is claimed while the queue is paused, and the head is claimed on resume',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([a], { paused: true }), []),
				at(10, I.added(b), []),
				at(20, I.paused(false), ['start a'])
			]
		},
		{
			name: 'a pause event on an idle consumer stops new claims until resume',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([]), []),
				at(10, I.paused(true), []),
				at(20, I.added(a), []),
				at(30, I.paused(false), ['start a'])
			]
		}
	]);
});

describe('the happy path', () => {
	table([
		{
			name: 'the oldest ready item is started, played, finished, and then the next one',
			steps: [
				...boot([a, b]),
				at(10, I.started('a'), ['play a'], { has: ['play a', 'preload b'] }),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_010, I.finished('a'), ['start b'], {
					has: ['remember null', 'remember b', 'start b']
				}),
				at(3_020, I.started('b'), ['play b']),
				at(6_000, I.ended('b'), ['finish b']),
				at(6_010, I.finished('b'), [], { has: ['remember null'] })
			],
			after: (d) => expect(d.state.mine).toBeNull()
		},
		{
			name: 'the start answer carries the tip, and the play uses it',
			steps: [...boot([a]), at(10, I.started('a', ok({ text: 'fresh text' })), ['play a'])],
			after: (d) => {
				const play = d.all().find((e) => e.kind === 'play');
				expect(play).toMatchObject({ data: { text: 'fresh text' }, mode: 'normal', attempt: 1 });
			}
		},
		{
			name: 'the claim gap keeps the next start back for gapMs after a finish',
			config: { gapMs: 800 },
			steps: [
				...playing([a, b]),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_010, I.finished('a'), [], { has: ['wakeAt 3810'] }),
				timer(['start b'], { when: 3_810 })
			]
		}
	]);
});

describe('skip, remove and clear', () => {
	table([
		{
			name: 'skip of the item being played stops it at once; it is never finished',
			steps: [
				...playing([a, b]),
				at(1_000, I.gone('a', 'skipped'), ['stop a', 'start b'], {
					has: ['stop a', 'remember null']
				}),
				at(1_010, I.ended('a'), [])
			],
			after: (d) => expect(d.count('finish a')).toBe(0)
		},
		{
			name: 'remove of the item being played stops it at once; it is never finished',
			steps: [
				...playing([a, b]),
				at(1_000, I.gone('a', 'removed'), ['stop a', 'start b']),
				at(1_010, I.ended('a'), [])
			],
			after: (d) => expect(d.count('finish a')).toBe(0)
		},
		{
			name: 'clear of the queue while playing stops the item at once; nothing is finished',
			steps: [
				...playing([a, b]),
				at(1_000, I.cleared(), ['stop a']),
				at(1_010, I.ended('a'), []),
				at(2_000, I.added(c), ['start c'])
			],
			after: (d) => expect(d.count('finish a')).toBe(0)
		},
		{
			name: 'a skip arriving while the start is in flight: nothing plays when the start succeeds and the next item is claimed',
			steps: [
				...boot([a, b]),
				at(5, I.gone('a', 'skipped'), []),
				at(10, I.started('a'), ['start b']),
				at(20, I.started('b'), ['play b'])
			],
			after: (d) => expect(d.count('play a')).toBe(0)
		},
		{
			name: 'a clear arriving while the start is in flight: nothing plays, and a new tip is claimed at once',
			steps: [
				...boot([a, b]),
				at(5, I.cleared(), []),
				at(10, I.started('a'), []),
				at(20, I.added(c), ['start c'])
			],
			after: (d) => expect(d.count('play a')).toBe(0)
		},
		{
			name: 'a skip of the item while its finish is in flight: the finish answer settles it',
			steps: [
				...playing([a, b]),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_005, I.gone('a', 'skipped'), []),
				at(3_010, I.finished('a', fail(409, 'not_in_queue')), ['start b'])
			]
		}
	]);
});

describe('pause and eligibility while playing', () => {
	table([
		{
			name: 'pause while playing: the item plays to its end and is finished; nothing new until resume',
			steps: [
				...playing([a, b]),
				at(1_000, I.paused(true), []),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_010, I.finished('a'), []),
				at(4_000, I.added(c), []),
				at(5_000, I.wake(), []),
				at(6_000, I.paused(false), ['start b'])
			]
		},
		{
			name: 'a snapshot showing the queue paused while playing does not stop the item',
			steps: [
				...playing([a, b]),
				at(1_000, I.snapshot([a, b], { current: 'a', paused: true }), []),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_010, I.finished('a'), [])
			]
		},
		{
			name: 'not eligible while playing: the item is finished and nothing more is claimed',
			steps: [
				...playing([a, b]),
				at(1_000, I.eligible(false), []),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_010, I.finished('a'), []),
				at(9_000, I.eligible(true), ['start b'])
			]
		}
	]);
});

describe('audio not rendered yet (tts_url null)', () => {
	table([
		{
			name: 'a head whose audio is not ready is waited for and played once its tts_ready arrives',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([tip('a', false), b]), [], { has: ['wakeAt 15000'] }),
				at(5_000, I.ready('a'), ['start a'], { has: ['wakeAt null'] }),
				at(5_010, I.started('a'), ['play a'])
			]
		},
		{
			name: 'a head that never becomes ready lets later ready items go first after headWaitMs, and the queue is re-read once',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([tip('a', false), b, c]), [], { has: ['wakeAt 15000'] }),
				at(3_000, I.added(tip('d')), [], { lacks: ['wakeAt 15000'] }),
				timer(['start b'], { when: 15_000, has: ['snapshot'] }),
				at(15_010, I.started('b'), ['play b']),
				at(15_020, I.snapshot([tip('a', false), b, c, tip('d')], { current: 'b' }), []),
				at(18_000, I.ended('b'), ['finish b']),
				at(18_010, I.finished('b'), ['start c'], { lacks: ['snapshot'] }),
				at(18_020, I.started('c'), ['play c']),
				// It becomes ready at last: it is next, ahead of d.
				at(20_000, I.ready('a'), []),
				at(21_000, I.ended('c'), ['finish c']),
				at(21_010, I.finished('c'), ['start a'])
			],
			after: (d) => expect(d.count('snapshot')).toBe(1)
		},
		{
			name: 'the head wait is armed as exactly one timer and cancelled when nothing waits any more',
			config: { headWaitMs: 4_000 },
			steps: [
				at(0, I.eligible(), []),
				at(1_000, I.snapshot([tip('a', false)]), [], { has: ['wakeAt 5000'] }),
				at(2_000, I.added(tip('b', false)), [], { lacks: ['wakeAt 5000'] }),
				// a's wait is over; b's own wait starts now and ends at 9000.
				timer([], { when: 5_000, has: ['snapshot', 'wakeAt 9000'] }),
				timer([], { when: 9_000, has: ['wakeAt null'] }),
				at(9_500, I.ready('b'), ['start b'])
			]
		}
	]);
});

describe('late duplicates', () => {
	it('a late tip.created for an item already known ready keeps its audio URL', () => {
		let s = initialClaimState<{ url: string | null }>();
		const fresh = { orderId: 'a', ready: false, data: { url: null } };
		s = claimStep(s, { kind: 'added', item: fresh }, 0).state;
		s = claimStep(s, { kind: 'ready', orderId: 'a', data: { url: 'http://x/a.wav' } }, 1).state;
		s = claimStep(s, { kind: 'added', item: fresh }, 2).state;
		expect(s.items).toEqual([{ orderId: 'a', ready: true, data: { url: 'http://x/a.wav' } }]);
	});
});

describe('timers that fire early', () => {
	it('a wake a moment before the deadline arms the timer again instead of stalling', () => {
		type D = { url: string };
		let s = initialClaimState<D>();
		const item = { orderId: 'a', ready: true, data: { url: 'u' } };
		s = claimStep(s, { kind: 'eligible', eligible: true }, 0).state;
		s = claimStep(
			s,
			{ kind: 'snapshot', paused: false, currentOrderId: null, items: [item] },
			0
		).state;
		const refused = claimStep(
			s,
			{ kind: 'startResult', orderId: 'a', result: { ok: false, status: 429, retryAfterMs: 1000 } },
			10
		);
		expect(refused.effects).toContainEqual({ kind: 'wakeAt', at: 1010 });
		// Node timers may fire a millisecond early: the deadline must be armed again.
		const early = claimStep(refused.state, { kind: 'wake' }, 1009);
		expect(early.effects).toContainEqual({ kind: 'wakeAt', at: 1010 });
		const onTime = claimStep(early.state, { kind: 'wake' }, 1010);
		expect(onTime.effects).toContainEqual({ kind: 'start', orderId: 'a' });
	});
});
