// The claim runner (src/client/claim-runner.ts) around the reducer: what it does with the player's
// outcomes. A play that was stopped can settle late, after the same item was claimed and played
// again; its end must not be taken for the new play's end (which would finish the item before
// the new play has played it).
import { describe, expect, it, vi } from 'vitest';
import { VolatileClaimMemory } from '../../src/client/claim-memory.ts';
import { ClaimRunner, type PlayerPort, type QueuePort } from '../../src/client/claim-runner.ts';
import type { CallResult } from '../../src/core/claim-protocol.ts';

const settle = () => new Promise((r) => setTimeout(r, 5));

describe('claim runner', () => {
	it('a stopped play that settles after the same item plays again does not finish the new play', async () => {
		const calls: string[] = [];
		// One item; the upstream's one claim.
		let current: string | null = null;
		const call = async (kind: string, id: string): Promise<CallResult<string>> => {
			calls.push(`${kind} ${id}`);
			current = kind === 'start' ? id : null;
			return { ok: true, data: id };
		};
		const queue: QueuePort<string> = {
			snapshot: async () => ({
				ok: true,
				value: {
					paused: false,
					currentOrderId: current,
					items: [{ orderId: 'a', ready: true, data: 'a' }]
				}
			}),
			start: (id) => call('start', id),
			finish: (id) => call('finish', id),
			release: (id) => call('release', id)
		};
		// Each play ends when the test says so, whatever stop() does (a player still loading).
		const plays: { id: string; end: () => void }[] = [];
		const player: PlayerPort<string> = {
			play: (id) => new Promise<void>((end) => plays.push({ id, end })),
			stop: () => {},
			preload: () => {}
		};
		const runner = new ClaimRunner<string>({
			queue,
			player,
			memory: new VolatileClaimMemory(),
			config: { gapMs: 0 },
			snapshotDebounceMs: 0
		});
		runner.dispatch({ kind: 'eligible', eligible: true });
		runner.start();
		runner.requestSnapshot(0);
		await settle();
		expect(plays.map((p) => p.id)).toEqual(['a']);

		// Someone else's release drops our claim while the first play is still loading: it is
		// stopped; the item is free and claimed again, and a second play begins.
		current = null;
		runner.dispatch({ kind: 'released', orderId: 'a' });
		await settle();
		expect(plays.map((p) => p.id)).toEqual(['a', 'a']);

		// The first play settles now: nothing is finished.
		plays[0].end();
		await settle();
		expect(calls.filter((c) => c.startsWith('finish'))).toEqual([]);

		// The second play's end finishes the item, once.
		plays[1].end();
		await settle();
		expect(calls.filter((c) => c.startsWith('finish'))).toEqual(['finish a']);
		runner.close();
	});

	it('a snapshot refused for the key is not read again; one limited by 429 is, after its wait', async () => {
		vi.useFakeTimers();
		try {
			const reads = { refused: 0, limited: 0 };
			const runner = (snapshot: QueuePort<string>['snapshot']) => {
				const none = async (): Promise<CallResult<string>> => ({ ok: true });
				const r = new ClaimRunner<string>({
					queue: { snapshot, start: none, finish: none, release: none },
					player: { play: async () => {}, stop: () => {}, preload: () => {} },
					memory: new VolatileClaimMemory(),
					snapshotDebounceMs: 0
				});
				r.dispatch({ kind: 'eligible', eligible: true });
				r.start();
				r.requestSnapshot(0);
				return r;
			};
			const refused = runner(async () => (reads.refused++, { ok: false, refused: true }));
			const limited = runner(async () => (reads.limited++, { ok: false, retryAfterMs: 5000 }));
			await vi.advanceTimersByTimeAsync(10);
			expect(reads).toEqual({ refused: 1, limited: 1 });
			await vi.advanceTimersByTimeAsync(5000);
			expect(reads).toEqual({ refused: 1, limited: 2 });
			await vi.advanceTimersByTimeAsync(120_000);
			expect(reads.refused).toBe(1);
			refused.close();
			limited.close();
		} finally {
			vi.useRealTimers();
		}
	});
});
