// The short chaos run of `npm test` (the long one: `npm run chaos`): 25 s of tips and video
// requests with random faults, page reloads, consumers appearing and vanishing and a streamer who
// pauses, skips, removes and clears; then a drain and the ledger check (tests/chaos/ledger.ts).
// The seed is fixed, so the same faults are drawn; their timing still varies with the machine.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHAOS, runChaos } from '../chaos/run.ts';

describe('chaos', () => {
	it('every queued tip and video is played once, or stopped by the streamer, or left queued as unplayable, whatever faults fire', async () => {
		const report = await runChaos({
			...DEFAULT_CHAOS,
			seed: 20261123,
			durationMs: 25_000,
			drainMs: 45_000
		});
		const { ledger, faults } = report;
		// The run must have been a real one: items played on both queues, faults of many kinds.
		expect(ledger.summary.tts.finished).toBeGreaterThan(10);
		expect(ledger.summary.media.finished).toBeGreaterThan(2);
		expect(Object.keys(faults).length).toBeGreaterThanOrEqual(6);
		expect(ledger.violations).toEqual([]);
		expect(ledger.ok).toBe(true);
	}, 120_000);
});
