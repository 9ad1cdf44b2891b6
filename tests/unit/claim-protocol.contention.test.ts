// The claim protocol as a table (claim-protocol.rows.ts): claims that meet another's: 409
// answers to start, the takeover of a claim held by nobody alive, and our claim dropped by
// someone else.
import { describe, expect } from 'vitest';
import { fail, input as I, tip, userVisible } from './claim-harness.ts';
import { at, timer, a, b, c, x, y, boot, playing, table } from './claim-protocol.rows.ts';

describe('409 answers to start', () => {
	table([
		{
			name: 'queue_paused: nothing is played, it waits, and claims again after resume',
			steps: [
				...boot([a, b]),
				at(10, I.started('a', fail(409, 'queue_paused')), [], { has: ['remember null'] }),
				at(1_000, I.added(c), []),
				at(2_000, I.wake(), []),
				at(3_000, I.paused(false), ['start a'])
			]
		},
		{
			name: 'already_playing for another order: never plays, waits, and claims once that claim finishes',
			steps: [
				...boot([a, b]),
				at(10, I.started('a', fail(409, 'already_playing', { currentOrderId: 'x' })), [], {
					has: ['remember null']
				}),
				at(1_000, I.added(c), []),
				at(2_000, I.gone('x', 'finished'), ['start a'])
			]
		},
		{
			name: 'already_playing for another order: a snapshot showing no claim lets it claim again',
			steps: [
				...boot([a, b]),
				at(10, I.started('a', fail(409, 'already_playing', { currentOrderId: 'x' })), []),
				at(2_000, I.snapshot([a, b]), ['start a'])
			]
		},
		{
			name: 'two consumers start the same head: the loser gets already_playing naming that same order and neither releases nor plays it',
			steps: [
				...boot([a, b]),
				// The winner's start fires queue.tts.started before our answer comes back.
				at(10, I.claimed('a'), []),
				at(20, I.started('a', fail(409, 'already_playing', { currentOrderId: 'a' })), [], {
					has: ['remember null']
				}),
				at(3_000, I.snapshot([a, b], { current: 'a' }), []),
				// The winner finishes it: the loser moves on to the next item.
				at(5_000, I.gone('a', 'finished'), ['start b'])
			],
			after: (d) => {
				expect(d.count('release a reload')).toBe(0);
				expect(d.count('play a')).toBe(0);
			}
		},
		{
			name: 'two consumers, the answer before the event: the loser still neither releases nor plays',
			steps: [
				...boot([a, b]),
				at(20, I.started('a', fail(409, 'already_playing', { currentOrderId: 'a' })), []),
				at(30, I.claimed('a'), []),
				at(40, I.wake(), [])
			],
			after: (d) => expect(userVisible(d.all())).toEqual(['start a'])
		},
		{
			name: '404 on start: the item is dropped, the snapshot re-read and the next item claimed',
			steps: [
				...boot([a, b]),
				at(10, I.started('a', fail(404, 'not_found')), ['start b'], {
					has: ['remember null', 'snapshot', 'remember b', 'start b']
				}),
				at(20, I.started('b'), ['play b']),
				// A late `added` for the dropped item does not bring it back.
				at(30, I.added(a), [])
			],
			after: (d) => expect(d.state.items.map((i) => i.orderId)).toEqual(['b'])
		},
		{
			name: '409 not_in_queue on start: the item is dropped, the snapshot re-read and the next item claimed',
			steps: [
				...boot([a, b]),
				at(10, I.started('a', fail(409, 'not_in_queue')), ['start b'], {
					has: ['remember null', 'snapshot', 'start b']
				})
			]
		},
		{
			name: '409 held (moderation): passed over at once for the next item, and claimed once a snapshot lists it again',
			steps: [
				...boot([a, b]),
				at(10, I.started('a', fail(409, 'held')), ['start b'], {
					has: ['remember null', 'snapshot', 'start b']
				}),
				at(20, I.started('b'), ['play b']),
				at(2_000, I.ended('b'), ['finish b']),
				at(2_010, I.finished('b'), []),
				at(5_000, I.snapshot([a]), ['start a'])
			]
		}
	]);
});

describe('takeover of a claim held by nobody alive', () => {
	table([
		{
			name: 'a foreign claim with no progress for takeoverMs is released with reason takeover and the queue moves on',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([x, a], { current: 'x' }), [], { has: ['wakeAt 90000'] }),
				at(60_000, I.wake(), []),
				timer(['release x takeover'], { when: 90_000 }),
				at(90_010, I.releasedResult('x'), ['start x']),
				at(90_020, I.started('x'), ['play x'])
			]
		},
		{
			name: 'a taken-over claim whose item the upstream already dropped from items: the next item is claimed',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([a], { current: 'x' }), []),
				timer(['release x takeover'], { when: 90_000 }),
				at(90_010, I.releasedResult('x'), ['start a'])
			]
		},
		{
			name: 'a takeover release answered 404 (no such order) does not hold the queue',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([a], { current: 'x' }), []),
				timer(['release x takeover'], { when: 90_000 }),
				at(90_010, I.releasedResult('x', fail(404, 'not_found')), ['start a'])
			]
		},
		{
			name: 'progress resets the takeover clock: another claim replaces the foreign one',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([x, y, a], { current: 'x' }), [], { has: ['wakeAt 90000'] }),
				at(50_000, I.claimed('y'), [], { has: ['wakeAt 140000'] }),
				at(50_001, I.gone('x', 'finished'), []),
				at(90_000, I.wake(), []),
				timer(['release y takeover'], { when: 140_000 })
			]
		},
		{
			name: 'progress resets the takeover clock: a snapshot naming a different claim',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([x, y, a], { current: 'x' }), []),
				at(70_000, I.snapshot([y, a], { current: 'y' }), [], { has: ['wakeAt 160000'] }),
				at(100_000, I.snapshot([y, a], { current: 'y' }), [], { lacks: ['wakeAt 190000'] }),
				timer(['release y takeover'], { when: 160_000 })
			]
		},
		{
			name: 'the foreign claim finishing lets it claim the next item at once',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([x, a], { current: 'x' }), []),
				at(20_000, I.gone('x', 'finished'), ['start a'])
			],
			after: (d) => expect(d.all().filter((e) => e.kind === 'release')).toEqual([])
		},
		{
			name: 'takeoverMsFor is honoured per item: a long video may hold its claim for minutes',
			config: {
				takeoverMsFor: (data) => ((data as { long?: boolean } | undefined)?.long ? 600_000 : 90_000)
			},
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([tip('v', true, { long: true }), a], { current: 'v' }), [], {
					has: ['wakeAt 600000']
				}),
				at(90_000, I.wake(), []),
				timer(['release v takeover'], { when: 600_000 })
			]
		},
		{
			name: 'a hidden page takes over nothing',
			steps: [
				at(0, I.snapshot([x, a], { current: 'x' }), [], { lacks: ['wakeAt 90000'] }),
				at(200_000, I.wake(), []),
				at(200_001, I.eligible(), ['release x takeover'])
			]
		}
	]);
});

describe('our claim dropped by someone else', () => {
	table([
		{
			name: "our start crosses another consumer's takeover release (started, released, started again while it is in flight): its success is not played",
			steps: [
				...boot([a, b]),
				// Our start lands (started), a late takeover release drops that claim (released),
				// a third consumer starts the item (started): both starts answer 200.
				at(10, I.claimed('a'), []),
				at(20, I.released('a'), []),
				at(30, I.claimed('a'), []),
				at(40, I.started('a'), [], { has: ['remember null', 'snapshot'], lacks: ['play a'] }),
				// The queue shows the claim: the other consumer's, until it finishes it.
				at(100, I.snapshot([a, b], { current: 'a' }), []),
				at(5_000, I.gone('a', 'finished'), ['start b'])
			],
			after: (d) => {
				expect(d.count('play a')).toBe(0);
				expect(d.count('release a takeover')).toBe(0);
			}
		},
		{
			name: 'released, then our own started, while our start is in flight: the claim is ours and played',
			steps: [
				...boot([a, b]),
				at(10, I.released('a'), []),
				at(20, I.claimed('a'), []),
				at(30, I.started('a'), ['play a'])
			]
		},
		{
			name: 'a claim that crossed a release and turns out to be ours is taken over, then played: late, never lost',
			steps: [
				...boot([a, b]),
				at(10, I.claimed('a'), []),
				at(20, I.released('a'), []),
				// Not played; the queue looks free, so it starts again, and finds the claim held.
				at(30, I.started('a'), ['start a'], { lacks: ['play a'] }),
				at(40, I.started('a', fail(409, 'already_playing', { currentOrderId: 'a' })), []),
				// Our own started event comes late; nobody plays the item: the takeover rule.
				at(50, I.claimed('a'), []),
				timer(['release a takeover'], { when: 90_050 }),
				at(90_060, I.releasedResult('a'), ['start a']),
				at(90_070, I.started('a'), ['play a'])
			]
		},
		{
			name: 'a started event for another order while we play means our claim was dropped: stop',
			steps: [
				...playing([a, b]),
				at(1_000, I.claimed('b'), ['stop a'], { has: ['stop a', 'remember null', 'snapshot'] }),
				at(1_010, I.ended('a'), [])
			],
			after: (d) => expect(d.count('finish a')).toBe(0)
		},
		{
			name: 'a released event for our playing item: stop, and never finish it',
			steps: [
				...playing([a, b]),
				// Whether it then claims the item again at once is left open: the stop is what counts.
				at(1_000, I.released('a'), undefined, { has: ['stop a'] }),
				at(1_010, I.ended('a'), [])
			],
			after: (d) => {
				expect(d.count('stop a')).toBe(1);
				expect(d.count('finish a')).toBe(0);
			}
		},
		{
			name: 'a snapshot that no longer shows our claim while we play: stop',
			steps: [...playing([a, b]), at(1_000, I.snapshot([b]), ['stop a', 'start b'])]
		},
		{
			name: 'a stale playEnded for an item no longer played finishes nothing',
			steps: [
				...playing([a, b]),
				at(1_000, I.gone('a', 'skipped'), ['stop a', 'start b']),
				at(1_001, I.ended('a'), []),
				at(1_002, I.failed('a'), [])
			]
		}
	]);
});
