// Hosted mode's moderation store on both databases hosted mode supports: the streamer's
// rules (defaults, saves numbered one after the other, an unreadable stored row), the decision of
// a tip made once (the first writer wins), a held tip settled once however many docks press at
// once, what a subscriber hears, pruning after 30 days, and each streamer's rules, decisions and
// changes kept apart from every other's. Across instances on one PostgreSQL:
// hosted-instances.moderation.test.ts.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { noVideoRules, type LiveMessage } from '../../src/contract/index.ts';
import type { Db } from '../../src/hosted/db.ts';
import type { HostedStore } from '../../src/hosted/store.ts';
import { decision, hear } from '../fixtures/hosted-moderation.ts';
import { grant, me, storeEngines, type OpenedStore } from '../fixtures/hosted-store.ts';
import { hostedModeration } from '../fixtures/hosted-moderation.ts';

const DAY = 24 * 3600_000;
const soon = { timeout: 5000, interval: 10 };

describe.each(storeEngines())('moderation store on %s', (_name, open) => {
	let opened: OpenedStore;
	let db: Db;
	let store: HostedStore;
	let moderation: ReturnType<typeof hostedModeration>;
	beforeAll(async () => {
		opened = await open();
		({ db, store } = opened);
		moderation = hostedModeration(db);
	}, 60_000);
	afterAll(async () => {
		await moderation?.close();
		await opened?.close();
	});

	let n = 200;
	/** A streamer signed in (their rows are the store's to keep). */
	const streamer = async () => (await store.signedIn(me(++n), grant(n))).streamer.id;

	it('rules are the defaults at version 0 until saved; each save is the next version', async () => {
		const s = await streamer();
		expect(await moderation.rules(s)).toEqual({
			rules: {
				words: [],
				names: [],
				links: null,
				minAmount: null,
				everyTip: null,
				fromAmount: null,
				onReject: 'no_voice',
				videos: noVideoRules()
			},
			version: 0
		});
		const rules = {
			...(await moderation.rules(s)).rules,
			words: [{ text: 'badword', outcome: 'hold' as const }]
		};
		expect(await moderation.saveRules(s, rules)).toEqual({ rules, version: 1 });
		expect(await moderation.rules(s)).toEqual({ rules, version: 1 });
		// Two saves at once: two versions, the later one kept.
		const other = { ...rules, links: 'no_voice' as const };
		const saved = await Promise.all([
			moderation.saveRules(s, rules),
			moderation.saveRules(s, other)
		]);
		expect(saved.map((r) => r.version).sort()).toEqual([2, 3]);
		const last = saved.find((r) => r.version === 3)!;
		expect(await moderation.rules(s)).toEqual(last);
	});

	it('rules saved through another store on the database are read by this one (no stale copy)', async () => {
		const s = await streamer();
		const there = hostedModeration(db);
		try {
			const before = await moderation.rules(s);
			const changed = { ...before.rules, everyTip: 'hold' as const };
			await there.saveRules(s, changed);
			await vi.waitFor(
				async () => expect(await moderation.rules(s)).toEqual({ rules: changed, version: 1 }),
				soon
			);
		} finally {
			await there.close();
		}
	});

	it('unreadable stored rules are no rule (and logged), never an error; the next save repairs them', async () => {
		const s = await streamer();
		await moderation.saveRules(s, { ...(await moderation.rules(s)).rules, links: 'remove' });
		await sql`update kept_meta set value = ${'{"rules": {"words": 5, "links": "maybe"}, "version": 1}'}::jsonb
			where streamer_id = ${s} and kind = 'moderation'`.execute(db);
		const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
		const fresh = hostedModeration(db);
		try {
			const read = await fresh.rules(s);
			expect(read.version).toBe(1);
			expect(read.rules).toEqual((await fresh.rules('s_nobody')).rules);
			expect(errors.mock.calls.flat().join(' ')).toContain('rules.words, rules.links');
			expect((await fresh.saveRules(s, read.rules)).version).toBe(2);
		} finally {
			errors.mockRestore();
			await fresh.close();
		}
	});

	it('the first decision stored for a tip is the one every later proposal gets', async () => {
		const s = await streamer();
		const held = decision('tip_1_a', 'hold');
		const read = decision('tip_1_a', 'read');
		// Two instances' reads decide the same tip at once, under different rules.
		const [one, two] = await Promise.all([
			moderation.decide(s, [held]),
			moderation.decide(s, [read])
		]);
		const stored = one.get('tip_1_a')!;
		expect([held, read]).toContainEqual(stored);
		expect(two.get('tip_1_a')).toEqual(stored);
		// Later proposals for it change nothing; a new tip in the same call is stored.
		const next = decision('tip_2_b', 'no_voice');
		const again = await moderation.decide(s, [
			decision('tip_1_a', 'remove'),
			next,
			decision('tip_2_b', 'read')
		]);
		expect(again).toEqual(
			new Map([
				['tip_1_a', stored],
				['tip_2_b', next]
			])
		);
		expect(await moderation.get(s, ['tip_1_a', 'tip_2_b', 'tip_3_c'])).toEqual(again);
		expect(await moderation.get(s, [])).toEqual(new Map());
	});

	it('a held tip is settled once when two docks press at once; a subscriber hears it once', async () => {
		const s = await streamer();
		await moderation.decide(s, [decision('tip_5_a', 'hold'), decision('tip_6_b', 'read')]);
		const { messages, stop } = hear(moderation, s);
		const approve = decision('tip_5_a', 'read', { by: 'approved', rule: null, spans: [] });
		const reject = decision('tip_5_a', 'no_voice', { by: 'rejected' });
		const results = await Promise.all([
			moderation.settle(s, 'tip_5_a', approve),
			moderation.settle(s, 'tip_5_a', reject)
		]);
		const won = results.filter((r) => r !== null);
		expect(won).toHaveLength(1);
		expect([approve, reject]).toContainEqual(won[0]);
		expect((await moderation.get(s, ['tip_5_a'])).get('tip_5_a')).toEqual(won[0]);
		// Not held (any more, or ever): nothing changes.
		expect(await moderation.settle(s, 'tip_5_a', reject)).toBeNull();
		expect(await moderation.settle(s, 'tip_6_b', reject)).toBeNull();
		expect(await moderation.settle(s, 'tip_never', reject)).toBeNull();
		// A save after it: once it is heard, everything before it was heard too.
		await moderation.saveRules(s, (await moderation.rules(s)).rules);
		await vi.waitFor(() => expect(messages.at(-1)).toEqual({ type: 'rules', version: 1 }), soon);
		expect(messages).toEqual([
			{ type: 'decision', order_id: 'tip_5_a' },
			{ type: 'rules', version: 1 }
		]);
		// Unsubscribed, it hears nothing more; a subscriber beside it hears the next saves.
		stop();
		const marker = hear(moderation, s);
		for (let i = 0; i < 2; i++) await moderation.saveRules(s, (await moderation.rules(s)).rules);
		await vi.waitFor(
			() =>
				expect(marker.messages).toEqual([
					{ type: 'rules', version: 2 },
					{ type: 'rules', version: 3 }
				]),
			soon
		);
		expect(messages).toHaveLength(2);
		marker.stop();
	});

	it('one streamer’s rules, decisions and changes never reach another', async () => {
		const a = await streamer();
		const b = await streamer();
		const heardA = hear(moderation, a);
		const heardB = hear(moderation, b);
		const alsoB = hear(moderation, b);
		await moderation.saveRules(a, { ...(await moderation.rules(a)).rules, everyTip: 'hold' });
		await moderation.decide(a, [decision('tip_9_x', 'hold')]);
		await moderation.settle(a, 'tip_9_x', decision('tip_9_x', 'read', { by: 'approved' }));
		// B sees none of it, and decides the same order id of its own.
		expect((await moderation.rules(b)).version).toBe(0);
		expect(await moderation.get(b, ['tip_9_x'])).toEqual(new Map());
		const mine = decision('tip_9_x', 'no_voice');
		expect((await moderation.decide(b, [mine])).get('tip_9_x')).toEqual(mine);
		expect(await moderation.settle(b, 'tip_9_x', decision('tip_9_x', 'read'))).toBeNull();
		expect((await moderation.get(a, ['tip_9_x'])).get('tip_9_x')?.by).toBe('approved');
		// B's save, heard last: B's subscribers heard B's changes only, A's only A's.
		await moderation.saveRules(b, (await moderation.rules(b)).rules);
		const bOnly: LiveMessage[] = [{ type: 'rules', version: 1 }];
		await vi.waitFor(() => expect(heardB.messages).toEqual(bOnly), soon);
		await vi.waitFor(() => expect(alsoB.messages).toEqual(bOnly), soon);
		expect(heardA.messages).toEqual([
			{ type: 'rules', version: 1 },
			{ type: 'decision', order_id: 'tip_9_x' }
		]);
		for (const h of [heardA, heardB, alsoB]) h.stop();
	});

	it('decisions are pruned 30 days after they were made; newer ones stay', async () => {
		const s = await streamer();
		// An instance whose clock says the last prune was over an hour ago: its first decide prunes.
		const later = hostedModeration(db, { now: () => Date.now() + 2 * 3600_000 });
		try {
			const old = decision('tip_old', 'read', {
				decidedAt: new Date(Date.now() - 31 * DAY).toISOString()
			});
			const recent = decision('tip_recent', 'hold', {
				decidedAt: new Date(Date.now() - 29 * DAY).toISOString()
			});
			await moderation.decide(s, [old, recent]);
			await later.decide(s, [decision('tip_new', 'read')]);
			await vi.waitFor(
				async () =>
					expect(
						[...(await moderation.get(s, ['tip_old', 'tip_recent', 'tip_new'])).keys()].sort()
					).toEqual(['tip_new', 'tip_recent']),
				soon
			);
		} finally {
			await later.close();
		}
	});
});
