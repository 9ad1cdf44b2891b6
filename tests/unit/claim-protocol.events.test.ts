// The claim protocol as a table (claim-protocol.rows.ts): events out of order, duplicated, or
// about orders never seen.
import { describe, expect, it } from 'vitest';
import { Driver, fail, input as I, show, tip, userVisible, type In } from './claim-harness.ts';
import { at, timer, a, b, c, x, boot, playing, table } from './claim-protocol.rows.ts';

describe('events out of order, duplicated, or about orders never seen', () => {
	const unseen: [string, In][] = [
		['tts_ready', I.ready('zz')],
		['started', I.claimed('zz')],
		['finished', I.gone('zz', 'finished')],
		['skipped', I.gone('zz', 'skipped')],
		['released', I.released('zz')]
	];
	it.each(unseen)('a %s event for an order never seen asks for a snapshot', (_, event) => {
		const d = new Driver();
		d.feed(I.snapshot([a, b]), 0);
		const fx = d.feed(event, 10);
		expect(fx.map(show)).toContain('snapshot');
		expect(userVisible(fx)).toEqual([]);
	});

	const events: [string, In][] = [
		['added', I.added(tip('c'))],
		['tts_ready', I.ready('p')],
		['started', I.claimed('y')],
		['removed', I.gone('b', 'removed')],
		['released', I.released('x')],
		['paused', I.paused(true)],
		['cleared', I.cleared()]
	];
	it.each(events)('a duplicate %s event changes nothing', (_, event) => {
		const d = new Driver();
		d.feed(I.snapshot([a, tip('p', false), b, x], { current: 'x' }), 0);
		d.feed(event, 10);
		const once = d.state;
		const fx = d.feed(event, 10);
		expect(d.state).toEqual(once);
		expect(fx.map(show).filter((s) => s !== 'log')).toEqual([]);
	});

	it('duplicate events while playing change nothing', () => {
		const d = new Driver();
		d.feed(I.eligible(), 0);
		d.feed(I.snapshot([a, b]), 0);
		d.feed(I.claimed('a'), 5);
		d.feed(I.started('a'), 10);
		const before = d.state;
		const fx = [I.claimed('a'), I.added(a), I.added(b)].flatMap((e) => d.feed(e, 20));
		expect(userVisible(fx)).toEqual([]);
		expect(d.state.mine).toEqual(before.mine);
		expect(d.feed(I.ended('a'), 3_000).map(show)).toContain('finish a');
	});

	table([
		{
			name: 'tts_ready before added: the re-read it asks for shows the item ready and it is played',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([]), []),
				at(10, I.ready('a'), [], { has: ['snapshot'] }),
				at(20, I.added(tip('a', false)), []),
				at(30, I.snapshot([a]), ['start a'])
			]
		},
		{
			name: 'finished before started (another consumer): the late started event does not hold the queue',
			steps: [
				at(0, I.snapshot([a, b]), []),
				at(10, I.gone('a', 'finished'), []),
				at(20, I.claimed('a'), []),
				at(30, I.eligible(), ['start b'])
			]
		},
		{
			name: 'our own started event arriving after our finish does not hold the queue',
			steps: [
				...playing([a]),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_010, I.finished('a'), []),
				at(3_020, I.gone('a', 'finished'), []),
				at(3_030, I.claimed('a'), []),
				at(4_000, I.added(b), ['start b'])
			]
		},
		{
			name: 'an already_playing answer that arrives after its holder finished: a short backoff and a re-read, not a takeover wait',
			steps: [
				...boot([a, b]),
				at(5, I.claimed('x'), []),
				at(6, I.gone('x', 'finished'), []),
				at(10, I.started('a', fail(409, 'already_playing', { currentOrderId: 'x' })), [], {
					has: ['snapshot', 'wakeAt 260']
				}),
				at(100, I.snapshot([a, b]), []),
				timer(['start a'], { when: 260 })
			]
		},
		{
			name: 'a released event for an order we never saw keeps playback as it is',
			steps: [
				...playing([a, b]),
				at(100, I.released('zz'), [], { has: ['snapshot'] }),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_010, I.finished('a'), ['start b'])
			]
		},
		{
			name: 'removed before added: the late added event does not bring the item back',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([x], { current: 'x' }), []),
				at(10, I.gone('c', 'removed'), []),
				at(20, I.added(c), []),
				at(30, I.gone('x', 'finished'), [])
			],
			after: (d) => expect(d.state.items).toEqual([])
		},
		{
			name: 'a gone event for our own item while its finish is in flight: the finish answer settles it',
			steps: [
				...playing([a, b]),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_005, I.gone('a', 'finished'), []),
				at(3_010, I.finished('a'), ['start b'])
			]
		}
	]);
});
