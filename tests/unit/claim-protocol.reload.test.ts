// The claim protocol as a table (claim-protocol.rows.ts): a page that reloads
// (docs/claim-protocol.md, reload and takeover; docs/upstream.md, open details).
import { describe, expect } from 'vitest';
import { fail, input as I } from './claim-harness.ts';
import { at, a, b, c, x, playing, table } from './claim-protocol.rows.ts';

describe('a page that reloads (docs/upstream.md, open details)', () => {
	table([
		{
			name: 'already_playing naming the remembered claim: it is released, started again and played from the beginning',
			steps: [
				at(0, I.remembered('a'), []),
				at(0, I.eligible(), []),
				// The snapshot was read before the old page's start landed.
				at(0, I.snapshot([a, b]), ['start a']),
				at(10, I.started('a', fail(409, 'already_playing', { currentOrderId: 'a' })), [
					'release a reload'
				]),
				at(20, I.releasedResult('a'), ['start a'], { has: ['remember a', 'start a'] }),
				at(30, I.started('a'), ['play a'])
			],
			after: (d) => {
				const play = d.all().find((e) => e.kind === 'play');
				expect(play).toMatchObject({ mode: 'normal', attempt: 1 });
			}
		},
		{
			name: 'a clear heard after the tip that followed it (events reordered) loses nothing: the queue is re-read',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([], { paused: true }), []),
				at(10, I.added(c), []),
				at(20, I.cleared(), [], { has: ['snapshot'] }),
				at(30, I.ready('c'), []),
				at(40, I.snapshot([c], { paused: false }), ['start c'])
			]
		},
		{
			name: 'a resume heard before its pause (events reordered) is corrected by the snapshot it asks for',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([], { paused: true }), []),
				at(10, I.paused(false), [], { has: ['snapshot'] }),
				at(20, I.paused(true), [], { has: ['snapshot'] }),
				at(30, I.added(c), []),
				at(40, I.snapshot([c], { paused: false }), ['start c'])
			]
		},
		{
			name: 'the end of a play is remembered before its finish is sent',
			steps: [
				...playing([a, b]),
				at(3_000, I.ended('a'), ['finish a'], { has: ['remember a played', 'finish a'] })
			]
		},
		{
			name: 'a claim that played to its end before the reload is finished, never played again',
			steps: [
				at(0, I.remembered('a', true), []),
				at(0, I.eligible(), []),
				at(0, I.snapshot([a, b], { current: 'a' }), ['finish a']),
				at(10, I.finished('a'), ['start b']),
				at(20, I.started('b'), ['play b'])
			],
			after: (d) => {
				expect(d.count('play a')).toBe(0);
				expect(d.count('release a reload')).toBe(0);
			}
		},
		{
			name: 'a played claim named by already_playing after the reload is finished too, even while paused',
			steps: [
				at(0, I.remembered('a', true), []),
				at(0, I.eligible(), []),
				at(0, I.snapshot([a, b]), ['start a']),
				at(10, I.started('a', fail(409, 'already_playing', { currentOrderId: 'a' })), ['finish a'])
			]
		},
		{
			name: 'a played claim is finished while the queue is paused',
			steps: [
				at(0, I.remembered('a', true), []),
				at(0, I.snapshot([a, b], { current: 'a', paused: true }), ['finish a']),
				at(10, I.finished('a'), [])
			],
			after: (d) => expect(d.count('play a')).toBe(0)
		},
		{
			name: 'a remembered claim that the first snapshot shows held is released and played again once',
			steps: [
				at(0, I.remembered('a'), []),
				at(0, I.eligible(), []),
				at(0, I.snapshot([a, b], { current: 'a' }), ['release a reload']),
				at(10, I.released('a'), []),
				at(20, I.releasedResult('a'), ['start a']),
				at(30, I.started('a'), ['play a']),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_010, I.finished('a'), ['start b'])
			],
			after: (d) => {
				expect(d.count('play a')).toBe(1);
				expect(d.count('release a reload')).toBe(1);
			}
		},
		{
			name: 'a hidden page still releases its remembered claim so that others can play it',
			steps: [
				at(0, I.remembered('a'), []),
				at(0, I.snapshot([a, b], { current: 'a' }), ['release a reload']),
				at(10, I.releasedResult('a'), [])
			]
		},
		{
			name: 'a remembered claim that is no longer held is forgotten and nothing is released',
			steps: [
				at(0, I.remembered('a'), []),
				at(0, I.eligible(), []),
				at(0, I.snapshot([b]), ['start b']),
				at(10, I.started('b'), ['play b'])
			],
			after: (d) => {
				expect(d.state.remembered).toBeNull();
				expect(d.all().filter((e) => e.kind === 'release')).toEqual([]);
			}
		},
		{
			name: 'a hidden page forgets a remembered claim no longer held, in its stored memory too',
			steps: [
				at(0, I.remembered('a'), []),
				at(0, I.snapshot([a, b]), [], { has: ['remember null'] }),
				// Another consumer claims it afterwards: that claim is not ours to release.
				at(1_000, I.claimed('a'), []),
				at(2_000, I.snapshot([a, b], { current: 'a' }), [])
			],
			after: (d) => expect(d.state.remembered).toBeNull()
		},
		{
			name: 'a remembered claim when another order holds the queue is forgotten, never released later',
			steps: [
				at(0, I.remembered('a'), []),
				at(0, I.eligible(), []),
				at(0, I.snapshot([a, b, x], { current: 'x' }), []),
				at(1_000, I.gone('x', 'finished'), ['start a']),
				// Someone else won the race for it.
				at(1_010, I.started('a', fail(409, 'already_playing', { currentOrderId: 'a' })), [])
			],
			after: (d) => expect(d.count('release a reload')).toBe(0)
		}
	]);
});
