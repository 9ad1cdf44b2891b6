// The Moderator when its store does not answer (src/server/deadline.ts, moderation/moderator.ts): a
// tip is decided within the deadline from the rules in memory and stored afterwards; a tip those
// rules hold is held, never played on a guess; without rules in memory nothing is decided; a
// decision known before (approved) is kept; one whose storing failed is stored again; once the
// store is known to be away a later call does not wait the deadline again.
import { describe, expect, it } from 'vitest';
import { ModerationRules, type QueueTip } from '../../src/contract/index.ts';
import { STORE_DEADLINE_MS } from '../../src/server/deadline.ts';
import { Moderator } from '../../src/server/moderation/moderator.ts';
import type { Decision, ModerationStore } from '../../src/server/moderation/store.ts';
import { moderationFile } from '../../src/server/moderation/store.ts';

const S = 'single';

/** A store in memory whose decisions' reads and writes wait while it is stalled. */
class StallingStore implements ModerationStore {
	readonly inner = moderationFile(null);
	readonly push = this.inner.push;
	#gate: Promise<void> | null = null;
	#open: () => void = () => {};

	stall(): void {
		this.#gate = new Promise((r) => (this.#open = r));
	}
	answer(): void {
		this.#gate = null;
		this.#open();
	}
	rules(_streamer: string) {
		return this.inner.rules(_streamer);
	}
	saveRules(streamer: string, rules: ModerationRules) {
		return this.inner.saveRules(streamer, rules);
	}
	async get(streamer: string, ids: readonly string[]) {
		await this.#gate;
		return this.inner.get(streamer, ids);
	}
	/** Decides that fail (after the stall) before the store works again. */
	failures = 0;
	async decide(streamer: string, proposals: readonly Decision[]) {
		await this.#gate;
		if (this.failures > 0) {
			this.failures -= 1;
			throw new Error('connection timeout');
		}
		return this.inner.decide(streamer, proposals);
	}
	async settle(streamer: string, orderId: string, to: Decision) {
		await this.#gate;
		return this.inner.settle(streamer, orderId, to);
	}
}

const tip = (id: string, amount: number): QueueTip =>
	({
		order_id: id,
		name: 'Viewer',
		amount,
		message: 'hello',
		tts_url: null,
		queued_at: new Date().toISOString()
	}) as QueueTip;

async function moderatorWithRules() {
	const store = new StallingStore();
	const logs: string[] = [];
	const moderator = new Moderator(store, (m) => logs.push(m));
	await moderator.saveRules(
		S,
		ModerationRules.parse({ fromAmount: { amount: 100, outcome: 'hold' } })
	);
	// A first tip decided while the store answers: the rules are compiled in memory.
	await moderator.decisions(S, [tip('warm', 5)]);
	return { store, moderator, logs };
}

async function timed<T>(work: Promise<T>) {
	const t0 = performance.now();
	const value = await work;
	return { value, ms: performance.now() - t0 };
}

describe('the Moderator past its store deadline', () => {
	it('decides from the rules in memory; holds what they hold; stores both afterwards', async () => {
		const { store, moderator } = await moderatorWithRules();
		store.stall();
		const { value, ms } = await timed(moderator.decisions(S, [tip('small', 5), tip('big', 500)]));
		expect(ms).toBeLessThan(STORE_DEADLINE_MS + 750);
		expect(value?.get('small')?.outcome).toBe('read');
		expect(value?.get('big')?.outcome).toBe('hold');
		expect((await store.inner.get(S, ['small', 'big'])).size).toBe(0);
		store.answer();
		await expect
			.poll(async () =>
				[...(await store.inner.get(S, ['small', 'big'])).values()].map((d) => d.outcome)
			)
			.toEqual(['read', 'hold']);
	});

	it('a decision made from memory whose storing failed is stored again later', async () => {
		const { store, moderator } = await moderatorWithRules();
		store.stall();
		store.failures = 1;
		const value = await moderator.decisions(S, [tip('retried', 5)]);
		expect(value?.get('retried')?.outcome).toBe('read');
		store.answer();
		await expect
			.poll(async () => (await store.inner.get(S, ['retried'])).get('retried')?.outcome, {
				timeout: 5_000
			})
			.toBe('read');
	});

	it('a tip whose removal is not stored is held, and nothing is deleted on a guess', async () => {
		const store = new StallingStore();
		const moderator = new Moderator(store, () => {});
		await moderator.saveRules(S, ModerationRules.parse({ everyTip: 'remove' }));
		await moderator.decisions(S, [tip('warm', 5)]);
		store.stall();
		const value = await moderator.decisions(S, [tip('gone', 5)]);
		expect(value?.get('gone')?.outcome).toBe('hold');
	});

	it('without rules in memory, a tip is not decided while the store does not answer', async () => {
		const store = new StallingStore();
		const moderator = new Moderator(store, () => {});
		store.stall();
		const value = await moderator.decisions(S, [tip('fresh', 5)]);
		expect(value?.has('fresh')).toBe(false);
	});

	it('a tip approved before keeps its decision; the store is not waited for twice', async () => {
		const { store, moderator } = await moderatorWithRules();
		const big = tip('approved', 500);
		expect((await moderator.decisions(S, [big]))?.get('approved')?.outcome).toBe('hold');
		const held = (await store.inner.get(S, ['approved'])).get('approved')!;
		await moderator.store.settle(S, 'approved', { ...held, outcome: 'read', by: 'approved' });
		store.stall();
		const first = await timed(moderator.decisions(S, [big]));
		expect(first.value?.get('approved')?.outcome).toBe('read');
		// The store is away (a call missed its deadline and has not settled): no wait at all.
		const again = await timed(moderator.decisions(S, [tip('next', 5)]));
		expect(again.ms).toBeLessThan(STORE_DEADLINE_MS);
		expect(again.value?.get('next')?.outcome).toBe('read');
		store.answer();
	});

	it('a decision made from memory that the store settled otherwise is logged', async () => {
		const { store, moderator, logs } = await moderatorWithRules();
		store.stall();
		// Stored meanwhile by another writer: the first writer wins.
		const other = (
			await store.inner.decide(S, [
				{
					orderId: 'raced',
					outcome: 'hold',
					rule: null,
					spans: [],
					by: 'rules',
					decidedAt: new Date().toISOString()
				}
			])
		).get('raced');
		expect(other?.outcome).toBe('hold');
		await store.inner.settle(S, 'raced', { ...other!, outcome: 'remove' });
		const value = await moderator.decisions(S, [tip('raced', 5)]);
		expect(value?.get('raced')?.outcome).toBe('read');
		store.answer();
		await expect.poll(() => logs.join('\n')).toContain('raced');
	});
});
