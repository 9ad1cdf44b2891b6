// What every video session keeps (widgets/media/adapters/session.ts), whatever the player: a
// video that never shows a frame, or stops moving, fails with a reason the dock shows; a video
// held by the streamer is never failed for standing still; the widget is told once that the
// video started; a session ends once, and a closed one stops its player and settles nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionCore } from '../../widgets/media/adapters/session.ts';
import {
	MediaPlayError,
	START_TIMEOUT_MS,
	STALL_TIMEOUT_MS
} from '../../widgets/media/adapters/types.ts';

function open() {
	const onStarted = vi.fn();
	const stop = vi.fn();
	const core = sessionCore(
		'video',
		{ startAt: 0, volume: 1, onStarted, onProgress: () => {} },
		stop
	);
	const outcome: { value?: 'ended' | string } = {};
	core.done.then(
		() => (outcome.value = 'ended'),
		(e: MediaPlayError) => (outcome.value = e.message)
	);
	return { core, onStarted, stop, outcome };
}

describe('a video session', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('fails with its reason when no frame shows in time, and stops its player', async () => {
		const { stop, outcome } = open();
		await vi.advanceTimersByTimeAsync(START_TIMEOUT_MS + 1);
		expect(outcome.value).toBe(`the video did not start within ${START_TIMEOUT_MS / 1000} s`);
		expect(stop).toHaveBeenCalledTimes(1);
	});

	it('tells the widget once that it started, then fails when it stops moving', async () => {
		const { core, onStarted, outcome } = open();
		core.playing();
		core.playing();
		expect(onStarted).toHaveBeenCalledTimes(1);
		await vi.advanceTimersByTimeAsync(STALL_TIMEOUT_MS - 1000);
		core.moved();
		await vi.advanceTimersByTimeAsync(STALL_TIMEOUT_MS - 1000);
		expect(outcome.value).toBeUndefined();
		await vi.advanceTimersByTimeAsync(1001);
		expect(outcome.value).toBe(`the video stopped moving for ${STALL_TIMEOUT_MS / 1000} s`);
	});

	it('is never failed while held, and watches again once it plays on', async () => {
		const { core, outcome } = open();
		core.playing();
		expect(core.hold()).toBe(true);
		expect(core.hold()).toBe(false);
		core.moved(); // a last progress report while held starts no timer
		await vi.advanceTimersByTimeAsync(10 * STALL_TIMEOUT_MS);
		expect(outcome.value).toBeUndefined();
		expect(core.release()).toBe(true);
		expect(core.release()).toBe(false);
		await vi.advanceTimersByTimeAsync(STALL_TIMEOUT_MS + 1);
		expect(outcome.value).toMatch(/stopped moving/);
	});

	it('ends once: a failure after the end changes nothing, and the player stops once', async () => {
		const { core, stop, outcome } = open();
		core.playing();
		core.end();
		core.end(new MediaPlayError('too late'));
		await vi.advanceTimersByTimeAsync(10 * STALL_TIMEOUT_MS);
		expect(outcome.value).toBe('ended');
		expect(stop).toHaveBeenCalledTimes(1);
		expect(core.hold()).toBe(false);
	});

	it('closed by the widget, it stops its player and never settles', async () => {
		const { core, stop, outcome } = open();
		core.close();
		core.close();
		await vi.advanceTimersByTimeAsync(10 * STALL_TIMEOUT_MS);
		expect(stop).toHaveBeenCalledTimes(1);
		expect(outcome.value).toBeUndefined();
	});
});
