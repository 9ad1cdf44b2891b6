// Ducking fades a video's volume (widgets/media/adapters/fade.ts): the video goes down to the
// ducked level through intermediate volumes and lands exactly on it, comes back up the same way,
// and a destroyed session is never touched again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withVolumeFade } from '../../widgets/media/adapters/fade.ts';
import type { MediaSession } from '../../widgets/media/adapters/types.ts';

function fakeSession() {
	const volumes: number[] = [];
	const session: MediaSession = {
		done: new Promise(() => {}),
		pause: () => {},
		resume: () => {},
		setVolume: (v) => volumes.push(v),
		destroy: vi.fn()
	};
	return { session, volumes };
}

describe('ducking fade', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('goes down to the ducked volume gradually, then back up to the full volume', () => {
		const { session, volumes } = fakeSession();
		const faded = withVolumeFade(session, 0.8);
		faded.setVolume(0.2);
		vi.runAllTimers();
		expect(volumes.at(-1)).toBe(0.2);
		expect(volumes.length).toBeGreaterThan(2);
		expect(volumes).toEqual([...volumes].sort((a, b) => b - a)); // only ever down
		volumes.length = 0;
		faded.setVolume(0.8);
		vi.runAllTimers();
		expect(volumes.at(-1)).toBe(0.8);
		expect(volumes).toEqual([...volumes].sort((a, b) => a - b)); // only ever up
	});

	it('a new target mid-fade turns around from where the volume is', () => {
		const { session, volumes } = fakeSession();
		const faded = withVolumeFade(session, 1);
		faded.setVolume(0);
		vi.advanceTimersByTime(100);
		const reached = volumes.at(-1)!;
		expect(reached).toBeGreaterThan(0);
		expect(reached).toBeLessThan(1);
		faded.setVolume(1);
		vi.runAllTimers();
		expect(volumes.at(-1)).toBe(1);
		expect(Math.min(...volumes)).toBe(reached);
	});

	it('stops touching the video once it is destroyed, and leaves no timer behind', () => {
		const { session, volumes } = fakeSession();
		const faded = withVolumeFade(session, 1);
		faded.setVolume(0.3);
		faded.destroy();
		const count = volumes.length;
		vi.runAllTimers();
		expect(volumes).toHaveLength(count);
		expect(session.destroy).toHaveBeenCalledTimes(1);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('an unchanged volume is set at once, without a timer', () => {
		const { session, volumes } = fakeSession();
		withVolumeFade(session, 0.5).setVolume(0.5);
		expect(volumes).toEqual([0.5]);
		expect(vi.getTimerCount()).toBe(0);
	});
});
