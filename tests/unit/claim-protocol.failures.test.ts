// The claim protocol as a table (claim-protocol.rows.ts): failed plays, rate limits, server
// errors and network errors.
import { describe, expect, it } from 'vitest';
import { Driver, fail, input as I } from './claim-harness.ts';
import { Shell, Upstream } from './claim-upstream.ts';
import { at, timer, a, b, c, boot, playing, table, x } from './claim-protocol.rows.ts';

describe('failed plays', () => {
	table([
		{
			name: 'a failed play is released, never finished, retried after a backoff, and after maxFailures the fallback plays',
			steps: [
				...playing([a, b]),
				at(100, I.failed('a'), ['release a failed']),
				// First retry after backoff(0) = 1 s (FAILURE_BACKOFF, equal jitter at 0).
				at(110, I.releasedResult('a'), [], { has: ['remember null', 'wakeAt 1110'] }),
				timer(['start a'], { when: 1_110 }),
				at(1_120, I.started('a'), ['play a']),
				at(1_200, I.failed('a'), ['release a failed']),
				at(1_210, I.releasedResult('a'), [], { has: ['wakeAt 3210'] }),
				timer(['start a'], { when: 3_210 }),
				at(3_220, I.started('a'), ['play a']),
				at(3_300, I.failed('a'), ['release a failed']),
				at(3_310, I.releasedResult('a'), ['start a']),
				at(3_320, I.started('a'), ['play a fallback']),
				at(5_000, I.ended('a'), ['finish a']),
				at(5_010, I.finished('a'), ['start b'])
			],
			after: (d) => {
				const attempts = d
					.all()
					.flatMap((e) => (e.kind === 'play' && e.orderId === 'a' ? [e.attempt] : []));
				expect(attempts).toEqual([1, 2, 3, 4]);
			}
		},
		{
			name: 'with the fallback disabled an item that keeps failing is given up and the queue moves on',
			config: { fallback: false },
			steps: [
				...playing([a, b, c]),
				at(100, I.failed('a'), ['release a failed']),
				at(110, I.releasedResult('a'), []),
				timer(['start a'], { when: 1_110 }),
				at(1_120, I.started('a'), ['play a']),
				at(1_200, I.failed('a'), ['release a failed']),
				at(1_210, I.releasedResult('a'), []),
				timer(['start a'], { when: 3_210 }),
				at(3_220, I.started('a'), ['play a']),
				at(3_300, I.failed('a'), ['release a failed']),
				at(3_310, I.releasedResult('a'), ['start b']),
				at(3_320, I.started('b'), ['play b']),
				at(6_000, I.ended('b'), ['finish b']),
				at(6_010, I.finished('b'), ['start c']),
				at(6_020, I.started('c'), ['play c']),
				at(9_000, I.ended('c'), ['finish c']),
				// It stays queued (the streamer can skip or remove it) and is not claimed again.
				at(9_010, I.finished('c'), []),
				at(9_020, I.snapshot([a]), [])
			],
			after: (d) => expect(d.count('play a fallback')).toBe(0)
		},
		{
			name: 'a failed play stops claiming it but the snapshot being re-read does not reset its failures',
			config: { maxFailures: 2 },
			steps: [
				...playing([a, b]),
				at(100, I.failed('a'), ['release a failed']),
				at(110, I.releasedResult('a'), []),
				at(120, I.snapshot([a, b]), []),
				timer(['start a']),
				at(1_120, I.started('a'), ['play a']),
				at(1_200, I.failed('a'), ['release a failed']),
				at(1_210, I.releasedResult('a'), ['start a']),
				at(1_220, I.started('a'), ['play a fallback'])
			]
		}
	]);

	it.each([true, false])(
		'a broken item (fallback %s) never holds the queue longer than one minute of simulated time',
		(fallback) => {
			const server = new Upstream([a, b]);
			const d = new Driver({ fallback });
			const shell = new Shell(d, server, {
				play: (e) => (e.orderId === 'a' ? 'failed' : 'ended'),
				playMs: 2_000
			});
			shell.feed(I.eligible(), 0);
			shell.feed(server.snapshot(), 0);
			shell.runUntil(180_000);
			const playB = shell.plays.find((p) => p.orderId === 'b');
			expect(playB, 'b is played').toBeDefined();
			expect(playB!.at).toBeLessThan(60_000);
			expect(shell.plays.filter((p) => p.orderId === 'a').length).toBeLessThanOrEqual(4);
			expect(d.count('finish a')).toBe(0);
			expect(server.history).toEqual(['b']);
			// It stays queued for the streamer to skip or remove.
			expect(server.items.map((i) => i.orderId)).toEqual(['a']);
			expect(d.steps.length).toBeLessThan(100);
		}
	);
});

describe('rate limits, server errors and network errors', () => {
	table([
		{
			name: '429 on start: no call before its retry-after, then the item is claimed again',
			steps: [
				...boot([a, b]),
				at(10, I.started('a', fail(429, undefined, { retryAfterMs: 5_000 })), [], {
					has: ['remember null', 'wakeAt 5010']
				}),
				at(3_000, I.added(c), []),
				at(4_000, I.wake(), []),
				timer(['start a'], { when: 5_010 })
			]
		},
		{
			name: '429 on start without a retry-after backs off exponentially',
			steps: [
				...boot([a]),
				at(10, I.started('a', fail(429)), [], { has: ['wakeAt 260'] }),
				timer(['start a'], { when: 260 }),
				at(270, I.started('a', fail(429)), [], { has: ['wakeAt 770'] }),
				timer(['start a'], { when: 770 })
			]
		},
		{
			name: '429 on finish: the finish is retried at the wakeAt time the retry-after gives',
			steps: [
				...playing([a, b]),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_010, I.finished('a', fail(429, undefined, { retryAfterMs: 2_000 })), [], {
					has: ['wakeAt 5010']
				}),
				at(4_000, I.wake(), []),
				timer(['finish a'], { when: 5_010 }),
				at(5_020, I.finished('a'), ['start b'])
			]
		},
		{
			name: '5xx on finish: the finish is retried after a backoff',
			steps: [
				...playing([a, b]),
				at(3_000, I.ended('a'), ['finish a']),
				at(3_010, I.finished('a', fail(503)), [], { has: ['wakeAt 3260'] }),
				timer(['finish a'], { when: 3_260 }),
				at(3_270, I.finished('a', fail(500)), [], { has: ['wakeAt 3770'] }),
				timer(['finish a'], { when: 3_770 }),
				at(3_780, I.finished('a'), ['start b'])
			]
		},
		{
			name: 'a 5xx on release: the queue is re-read; a snapshot that still shows the claim, with no event about it, sends the release again',
			steps: [
				...playing([a, b]),
				at(100, I.failed('a'), ['release a failed'], {
					has: ['remember null', 'release a failed']
				}),
				at(110, I.releasedResult('a', fail(502)), [], { has: ['snapshot'], lacks: ['wakeAt 360'] }),
				at(200, I.snapshot([a, b], { current: 'a' }), [], { has: ['wakeAt 450'] }),
				timer(['release a failed'], { when: 450 }),
				at(460, I.releasedResult('a'), [])
			],
			after: (d) => expect(d.count('finish a')).toBe(0)
		},
		{
			name: 'a network error on release whose release did land: its released event settles it, never sent again',
			steps: [
				...playing([a, b]),
				at(100, I.failed('a'), ['release a failed']),
				at(110, I.releasedResult('a', fail(0)), []),
				at(120, I.released('a'), []),
				at(200, I.snapshot([a, b], { current: 'a' }), []),
				at(5_000, I.wake(), [])
			],
			after: (d) => expect(d.count('release a failed')).toBe(1)
		},
		{
			name: 'a 5xx on release, then another consumer starts the item: never released from under it',
			steps: [
				...playing([a, b]),
				at(100, I.failed('a'), ['release a failed']),
				at(110, I.releasedResult('a', fail(503)), []),
				at(130, I.claimed('a'), []),
				at(200, I.snapshot([a, b], { current: 'a' }), []),
				at(5_000, I.wake(), [])
			],
			after: (d) => {
				expect(d.count('release a failed')).toBe(1);
				expect(d.state.current).toBe('a');
			}
		},
		{
			name: 'a 5xx on release and a snapshot without the claim: settled, the item is tried again after its backoff',
			steps: [
				...playing([a, b]),
				at(100, I.failed('a'), ['release a failed']),
				at(110, I.releasedResult('a', fail(500)), []),
				// Settled: a is tried again after its failure backoff, as after any failed play.
				at(200, I.snapshot([a, b]), [], { has: ['wakeAt 1200'] }),
				timer(['start a'], { when: 1_200 })
			],
			after: (d) => expect(d.count('release a failed')).toBe(1)
		},
		{
			name: 'a 429 on release is retried after its retry-after (a refused call did not land)',
			steps: [
				...playing([a, b]),
				at(100, I.failed('a'), ['release a failed']),
				at(110, I.releasedResult('a', fail(429, undefined, { retryAfterMs: 1_000 })), [], {
					has: ['wakeAt 1110']
				}),
				timer(['release a failed'], { when: 1_110 }),
				at(1_120, I.releasedResult('a'), [])
			],
			after: (d) => expect(d.count('finish a')).toBe(0)
		},
		{
			name: 'a 429 on a takeover release, then the item released and started by others: never released again, from under the new holder',
			steps: [
				at(0, I.eligible(), []),
				at(0, I.snapshot([x, a], { current: 'x' }), []),
				timer(['release x takeover'], { when: 90_000 }),
				at(90_010, I.releasedResult('x', fail(429, undefined, { retryAfterMs: 2_000 })), []),
				// Another consumer's takeover release lands, and a third consumer starts the item.
				at(90_500, I.released('x'), undefined),
				at(90_600, I.claimed('x'), []),
				at(95_000, I.wake(), [])
			],
			after: (d) => expect(d.count('release x takeover')).toBe(1)
		},
		{
			name: 'a 5xx on release, the queue re-read while the item is released and started again: never released from under the new holder',
			steps: [
				...playing([a, b]),
				at(100, I.failed('a'), ['release a failed']),
				at(110, I.releasedResult('a', fail(502)), [], { has: ['snapshot'] }),
				// The snapshot still shows a claim on a (a new one); the events arrive after it.
				at(200, I.snapshot([a, b], { current: 'a' }), []),
				at(210, I.released('a'), []),
				at(220, I.claimed('a'), []),
				at(5_000, I.wake(), [])
			],
			after: (d) => expect(d.count('release a failed')).toBe(1)
		},
		{
			name: 'a network error on start is never taken for our claim: a snapshot showing it held waits for the takeover rule, then plays it',
			steps: [
				...boot([a, b]),
				at(10, I.started('a', fail(0)), [], { has: ['remember null', 'snapshot', 'wakeAt 260'] }),
				at(50, I.snapshot([a, b], { current: 'a' }), []),
				timer([], { when: 260 }),
				timer(['release a takeover'], { when: 90_050 }),
				at(90_060, I.releasedResult('a'), ['start a']),
				at(90_070, I.started('a'), ['play a'])
			],
			after: (d) => expect(d.count('release a reload')).toBe(0)
		},
		{
			name: 'a network error on start: a snapshot showing no claim leads to a normal start',
			steps: [
				...boot([a, b]),
				at(10, I.started('a', fail(0)), [], { has: ['snapshot'] }),
				at(50, I.snapshot([a, b]), []),
				timer(['start a'], { when: 260 }),
				at(270, I.started('a'), ['play a'])
			],
			after: (d) => expect(d.all().filter((e) => e.kind === 'release')).toEqual([])
		},
		{
			name: "a 5xx on start and then already_playing naming the same item: another consumer's claim, waited for, never released at once",
			steps: [
				...boot([a, b]),
				at(10, I.started('a', fail(502)), []),
				at(50, I.snapshot([a, b]), []),
				timer(['start a'], { when: 260 }),
				at(270, I.started('a', fail(409, 'already_playing', { currentOrderId: 'a' })), [])
			],
			after: (d) => {
				expect(d.count('release a reload')).toBe(0);
				expect(d.state.current).toBe('a');
			}
		},
		{
			name: 'a 403 on start backs off instead of retrying at once',
			steps: [
				...boot([a]),
				at(10, I.started('a', fail(403, 'missing_scope')), [], {
					has: ['remember null', 'wakeAt 260']
				}),
				timer(['start a'], { when: 260 })
			]
		}
	]);

	it('a finish that keeps failing is retried with a capped backoff, never released, never a hot loop', () => {
		const server = new Upstream([a, b]);
		const d = new Driver();
		const shell = new Shell(d, server, {
			fault: (e) => (e.kind === 'finish' ? fail(500, 'internal') : null)
		});
		shell.feed(I.eligible(), 0);
		shell.feed(server.snapshot(), 0);
		// Playback ends at 3 s; then ten minutes of an upstream that refuses every finish.
		shell.runUntil(603_000);
		const finishes = d.steps.filter((s) => s.effects.some((e) => e.kind === 'finish'));
		const gaps = finishes.slice(1).map((s, n) => s.now - finishes[n].now);
		expect(gaps.slice(0, 7)).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 15_000]);
		expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000);
		expect(d.count('finish a')).toBeLessThanOrEqual(60); // at most one every 10 s on average
		expect(d.count('release a failed')).toBe(0);
		expect(d.count('play a')).toBe(1);
	});
});
