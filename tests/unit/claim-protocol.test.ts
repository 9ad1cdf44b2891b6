// The claim protocol reducer as a table (src/core/claim-protocol.ts; service-api.md, States and
// transitions; CONTRACT.md, TTS and media tables and "Details the document leaves open").
//
// Each row feeds inputs at explicit times. `fx` is the exact list of what a user notices in that
// step (start, play, finish, release, stop); `has` is an ordered subsequence of all its effects
// (remember, snapshot, wakeAt ...); `lacks` names effects that must not appear. A `timer` step
// fires the timer that the last `wakeAt` effect armed, at that time.
import { describe, expect, it } from 'vitest';
import { claimStep, initialClaimState, type ClaimConfig } from '../../src/core/claim-protocol.ts';
import {
	Driver,
	fail,
	input as I,
	ok,
	Shell,
	show,
	tip,
	Upstream,
	userVisible,
	type In
} from './claim-harness.ts';

interface Step {
	/** Simulated time of the input, or 'timer' for a `wake` at the armed time. */
	at: number | 'timer';
	in: In;
	fx?: string[];
	has?: string[];
	lacks?: string[];
	/** For timer steps: the time the timer must have been armed for. */
	when?: number;
}

interface Row {
	name: string;
	config?: Partial<ClaimConfig>;
	steps: Step[];
	/** Checks over the whole run. */
	after?: (d: Driver) => void;
}

type More = Pick<Step, 'has' | 'lacks' | 'when'>;
const at = (t: number, i: In, fx?: string[], more: More = {}): Step => ({
	at: t,
	in: i,
	fx,
	...more
});
const timer = (fx?: string[], more: More = {}): Step => ({
	at: 'timer',
	in: I.wake(),
	fx,
	...more
});

const a = tip('a');
const b = tip('b');
const c = tip('c');
const x = tip('x');
const y = tip('y');

/** Eligible, then the first snapshot: the head is claimed at `t`. */
const boot = (items = [a, b], t = 0): Step[] => [
	at(t, I.eligible(), []),
	at(t, I.snapshot(items), [`start ${items[0].orderId}`], {
		has: [`remember ${items[0].orderId}`, `start ${items[0].orderId}`]
	})
];

/** Boot, then the head's start succeeds at `t` and it plays. */
const playing = (items = [a, b], t = 10): Step[] => [
	...boot(items),
	at(t, I.started(items[0].orderId), [`play ${items[0].orderId}`])
];

function runRow(row: Row): Driver {
	const d = new Driver(row.config);
	row.steps.forEach((s, n) => {
		const label = `step ${n + 1} (${s.in.kind} at ${s.at})`;
		let effects;
		if (s.at === 'timer') {
			if (s.when !== undefined) expect(d.timer, `${label}: armed time`).toBe(s.when);
			effects = d.wake();
		} else effects = d.feed(s.in, s.at);
		const all = effects.map(show);
		if (s.fx) expect(userVisible(effects), `${label}: ${all.join(', ')}`).toEqual(s.fx);
		if (s.has) {
			let from = 0;
			for (const want of s.has) {
				const found = all.indexOf(want, from);
				expect(
					found,
					`${label}: expected "${want}" in order in [${all.join(', ')}]`
				).toBeGreaterThanOrEqual(0);
				from = found + 1;
			}
		}
		for (const not of s.lacks ?? [])
			expect(all, `${label}: must not contain "${not}"`).not.toContain(not);
	});
	row.after?.(d);
	return d;
}

const table = (rows: Row[]) =>
	it.each(rows.map((r) => [r.name, r] as const))('%s', (_, r) => {
		runRow(r);
	});

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
		}
	]);
});

describe('a page that reloads (CONTRACT.md, Details the document leaves open)', () => {
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
			name: "a network error or 5xx on release is not retried (it may have landed, and the item be someone else's by now): the queue is re-read",
			steps: [
				...playing([a, b]),
				at(100, I.failed('a'), ['release a failed'], {
					has: ['remember null', 'release a failed']
				}),
				at(110, I.releasedResult('a', fail(0)), [], { has: ['snapshot'] }),
				// The release did land and another consumer claimed a: never released from under it.
				at(200, I.snapshot([a, b], { current: 'a' }), []),
				at(5_000, I.wake(), [])
			],
			after: (d) => {
				expect(d.count('release a failed')).toBe(1);
				expect(d.count('finish a')).toBe(0);
			}
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

describe('our claim dropped by someone else', () => {
	table([
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
