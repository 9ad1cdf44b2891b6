// The claim reducer's rules that the media queue relies on (src/core/claim-protocol.ts): a video
// that cannot play is released and, after its attempts, left for the streamer while the queue
// moves on; a permanent failure is not retried; a pause or a hidden player does not count toward
// taking over another consumer's claim.
import { describe, expect, it } from 'vitest';
import { Driver, input as I, show, tip } from './claim-harness.ts';

const media = { maxFailures: 2, fallback: false, gapMs: 0 };
const user = (fx: ReturnType<Driver['feed']>) =>
	fx.filter((e) => ['start', 'play', 'finish', 'release', 'stop'].includes(e.kind)).map(show);

function ready(d: Driver, ids: string[]): void {
	d.feed(I.eligible(true), 0);
	d.feed(I.snapshot(ids.map((id) => tip(id))), 0);
}

describe('media claim rules', () => {
	it('a permanent failure is released once, never retried, and the next video is started', () => {
		const d = new Driver(media);
		ready(d, ['a', 'b']);
		expect(d.count('start a')).toBe(1);
		d.feed(I.started('a'), 10);
		const failed = d.feed(
			{ kind: 'playFailed', orderId: 'a', reason: 'unsupported', permanent: true },
			20
		);
		expect(user(failed)).toEqual(['release a failed']);
		expect(user(d.feed(I.releasedResult('a'), 30))).toEqual(['start b']);
		expect(d.state.givenUp).toContain('a');
		d.feed(I.started('b'), 40);
		d.feed(I.ended('b'), 5_000);
		d.feed(I.finished('b'), 5_010);
		// Nothing left that this consumer will try: no start of a again, no timer for it.
		expect(d.count('start a')).toBe(1);
		expect(d.count('finish a')).toBe(0);
		expect(d.timer).toBeNull();
	});

	it('a failure that may pass is retried once after a pause, then left queued for the next one', () => {
		const d = new Driver(media);
		ready(d, ['a', 'b']);
		d.feed(I.started('a'), 10);
		d.feed(I.failed('a', 'network'), 20);
		expect(user(d.feed(I.releasedResult('a'), 30))).toEqual([]);
		// The retry waits for its backoff, and keeps the order: b does not jump ahead meanwhile.
		expect(d.timer).not.toBeNull();
		expect(user(d.wake())).toEqual(['start a']);
		d.feed(I.started('a'), d.now + 10);
		d.feed(I.failed('a', 'network'), d.now + 10);
		expect(user(d.feed(I.releasedResult('a'), d.now + 10))).toEqual(['start b']);
		expect(d.count('start a')).toBe(2);
		expect(d.count('release a failed')).toBe(2);
		expect(d.count('finish a')).toBe(0);
		// Both attempts and the pause between them took well under a minute.
		expect(d.now).toBeLessThan(10_000);
	});

	it('time while the queue is paused does not count toward taking over a foreign claim', () => {
		const d = new Driver({ ...media, takeoverMs: 90_000, pauseStopsTakeoverClock: true });
		d.feed(I.eligible(true), 0);
		d.feed(I.snapshot([tip('a'), tip('b')], { current: 'a' }), 0);
		d.feed(I.paused(true), 10_000);
		// Resumed long after the takeover time: the rival's clock starts again now.
		expect(user(d.feed(I.paused(false), 200_000))).toEqual([]);
		expect(d.timer).toBe(290_000);
		expect(user(d.wake())).toEqual(['release a takeover']);
	});

	it('time while this consumer may not claim (player hidden) does not count either', () => {
		const d = new Driver({ ...media, takeoverMs: 90_000, pauseStopsTakeoverClock: true });
		d.feed(I.eligible(true), 0);
		d.feed(I.snapshot([tip('a')], { current: 'a' }), 0);
		d.feed(I.eligible(false), 5_000);
		expect(user(d.feed(I.eligible(true), 300_000))).toEqual([]);
		expect(d.timer).toBe(390_000);
	});

	it('without the option a resumed queue takes over a claim that has been held too long', () => {
		const d = new Driver({ ...media, takeoverMs: 90_000 });
		d.feed(I.eligible(true), 0);
		d.feed(I.snapshot([tip('a')], { current: 'a' }), 0);
		d.feed(I.paused(true), 10_000);
		expect(user(d.feed(I.paused(false), 200_000))).toEqual(['release a takeover']);
	});
});
