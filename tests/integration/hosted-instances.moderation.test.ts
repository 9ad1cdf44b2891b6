// Moderation on several hosted instances sharing one PostgreSQL: each instance is a
// database handle of its own with its moderation store, and so its own LISTEN connection. A change
// made on one instance (rules saved, a held tip approved) reaches the subscribers of that streamer
// on another, and only theirs; when an instance's LISTEN connection is lost, its subscribers are
// told to read everything again (resync) once it is back, and changes reach them again; closing
// a store ends its LISTEN connection. One database handle, PGlite too:
// hosted-store.moderation.test.ts.
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SecretBox } from '../../src/hosted/crypto.ts';
import { openDatabase, type Db } from '../../src/hosted/db.ts';
import { migrate } from '../../src/hosted/migrations.ts';
import { LISTEN_APPLICATION_NAME } from '../../src/hosted/push-channel.ts';
import { HostedStore } from '../../src/hosted/store.ts';
import {
	freshDatabase,
	missing,
	pg,
	SECRET,
	useDeployments
} from '../fixtures/hosted-instances.ts';
import { decision, hear } from '../fixtures/hosted-moderation.ts';
import { grant, me } from '../fixtures/hosted-store.ts';
import { hostedModeration } from '../fixtures/hosted-moderation.ts';

useDeployments();
/** A change on one instance is heard on another within this (the issue asks for a second). */
const arrives = { timeout: 5000, interval: 10 };

/** The test's stores, closed after it (before the fixture lets its database go), and handles. */
const opened: { moderation: ReturnType<typeof hostedModeration>; db?: Db }[] = [];
afterEach(async () => {
	for (const { db, moderation } of opened.splice(0)) {
		await moderation.close();
		await db?.destroy();
	}
});

/** Two instances on one fresh database, and two streamers signed in. */
async function twoInstances() {
	const first = await freshDatabase();
	await migrate(first);
	const second = await openDatabase({ databaseUrl: pg!.url });
	const instances = [first, second].map((db) => hostedModeration(db));
	// The first database is the fixture's (it lets it go after the test).
	opened.push({ moderation: instances[0] }, { moderation: instances[1], db: second });
	const store = new HostedStore(first, new SecretBox(SECRET));
	const streamers: string[] = [];
	for (const n of [301, 302]) streamers.push((await store.signedIn(me(n), grant(n))).streamer.id);
	// Both listen before anything is sent.
	await vi.waitFor(async () => expect(await listeners(first, 'listening')).toBe(2), arrives);
	return { first: instances[0], second: instances[1], db: first, streamers };
}

/** LISTEN connections open now on the whole server (`listening`: with their LISTEN done). */
async function listeners(db: Db, listening?: 'listening'): Promise<number> {
	const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
		where application_name = ${LISTEN_APPLICATION_NAME}
		and (${listening === undefined} or (state = 'idle' and query ilike 'LISTEN %'))`.execute(db);
	return Number(rows[0].n);
}

describe.skipIf(missing)('moderation on several hosted instances', { timeout: 60_000 }, () => {
	it('rules saved and a held tip approved on one instance reach the streamer’s subscribers on another', async () => {
		const { first, second, streamers } = await twoInstances();
		const [a, b] = streamers;
		const there = hear(second, a);
		const other = hear(second, b);
		const before = await second.rules(a);
		const rules = { ...before.rules, words: [{ text: 'badword', outcome: 'hold' as const }] };
		await first.saveRules(a, rules);
		await vi.waitFor(
			() => expect(there.messages).toEqual([{ type: 'rules', version: 1 }]),
			arrives
		);
		// The other instance reads the new rules, not a copy it kept.
		expect(await second.rules(a)).toEqual({ rules, version: 1 });

		await second.decide(a, [decision('tip_1_a', 'hold')]);
		const approved = decision('tip_1_a', 'read', { by: 'approved', rule: null, spans: [] });
		expect(await first.settle(a, 'tip_1_a', approved)).toEqual(approved);
		await vi.waitFor(
			() => expect(there.messages.at(-1)).toEqual({ type: 'decision', order_id: 'tip_1_a' }),
			arrives
		);
		expect((await second.get(a, ['tip_1_a'])).get('tip_1_a')).toEqual(approved);
		// A settle from the other instance now finds it settled.
		expect(await second.settle(a, 'tip_1_a', decision('tip_1_a', 'no_voice'))).toBeNull();
		// B's change, heard last on B's subscriber: nothing of A's reached it.
		await first.saveRules(b, before.rules);
		await vi.waitFor(
			() => expect(other.messages).toEqual([{ type: 'rules', version: 1 }]),
			arrives
		);
		expect(there.messages).toHaveLength(2);
	});

	it('after its LISTEN connection is killed, an instance tells its subscribers to resync, and later changes arrive', async () => {
		const { first, second, db, streamers } = await twoInstances();
		const [a] = streamers;
		const there = hear(second, a);
		const cached = await second.rules(a);
		const killed = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended
				from pg_stat_activity where application_name = ${LISTEN_APPLICATION_NAME}`.execute(db);
		expect(killed.rows.map((r) => r.ended)).toEqual([true, true]);
		// Saved while the LISTEN connections are down (or coming back): the subscriber may never
		// hear of it, so it is asked to read everything again.
		const rules = { ...cached.rules, links: 'hold' as const };
		await first.saveRules(a, rules);
		await vi.waitFor(() => expect(there.messages).toContainEqual({ type: 'resync' }), arrives);
		expect(await second.rules(a)).toEqual({ rules, version: 1 });
		await vi.waitFor(async () => expect(await listeners(db, 'listening')).toBe(2), arrives);

		await first.saveRules(a, cached.rules);
		await vi.waitFor(
			() => expect(there.messages).toContainEqual({ type: 'rules', version: 2 }),
			arrives
		);
		expect(await second.rules(a)).toEqual({ rules: cached.rules, version: 2 });
		await first.close();
		// Closed: its LISTEN connection is gone, and it does not open one again.
		await vi.waitFor(async () => expect(await listeners(db)).toBe(1), arrives);
	});
});
