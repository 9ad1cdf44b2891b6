// Hosted mode's kept store (src/hosted/kept-store.ts) on both databases hosted mode supports, as
// two instances would use it: a streamer's changes run one at a time whichever instance makes
// them; an entry is made once; what a change tells is heard on every instance once committed, and
// a change that throws stores and tells nothing; a streamer never reads another's state; a closed
// entry is read only when named, and dropped past keeping; a meta kept in memory follows a change
// made on another instance.
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import type { LiveMessage } from '../../src/contract/index.ts';
import { openDatabase, type Db } from '../../src/hosted/db.ts';
import { HostedKeptStore } from '../../src/hosted/kept-store.ts';
import { migrate } from '../../src/hosted/migrations.ts';
import { CHAT, chatStore } from '../../src/server/chat/store.ts';
import { emptyMeta } from '../../src/server/chat/ledger.ts';
import { SETTINGS, SettingsStore } from '../../src/server/settings/store.ts';
import { MODERATION, moderationStore } from '../../src/server/moderation/store.ts';
import { ModerationRules } from '../../src/contract/index.ts';
import { decision } from '../fixtures/hosted-moderation.ts';
import type { HostedStore } from '../../src/hosted/store.ts';
import { grant, me, openForSuite, serverUrl, storeEngines } from '../fixtures/hosted-store.ts';
import { TASKS, TOLD_TASKS } from '../fixtures/kept-kind.ts';

describe.each(storeEngines())('the kept store on %s', (name, open) => {
	let db: Db;
	let store: HostedStore;
	openForSuite(open, (opened) => ({ db, store } = opened));

	/** A signed-in streamer and two stores of `kind`, as two instances' would be. */
	async function two(n: number, kind = TASKS) {
		const streamer = (await store.signedIn(me(n), grant(n))).streamer.id;
		const other =
			name === 'PostgreSQL server' ? await openDatabase({ databaseUrl: await serverUrl(db) }) : db;
		const a = new HostedKeptStore(kind, db);
		const b = new HostedKeptStore(kind, other);
		return {
			streamer,
			a,
			b,
			close: async () => {
				await a.close();
				await b.close();
				if (other !== db) await other.destroy();
			}
		};
	}

	it("runs a streamer's changes one at a time on every instance, and makes an entry once", async () => {
		const { streamer, a, b, close } = await two(401);
		await Promise.all(
			Array.from({ length: 10 }, (_, i) =>
				(i % 2 ? a : b).update(streamer, (st) => {
					st.version++;
				})
			)
		);
		expect((await a.read(streamer)).version).toBe(10);
		const add = (s: typeof a, by: string) =>
			s.update(
				streamer,
				(st) => {
					if (st.entries.t1) return false;
					st.entries.t1 = { state: 'todo', at: 1, by };
					return true;
				},
				['t1']
			);
		const made = await Promise.all([add(a, 'a'), add(b, 'b'), add(a, 'a2')]);
		expect(made.filter(Boolean)).toHaveLength(1);
		expect((await b.read(streamer)).entries.t1.by).toBe(['a', 'b', 'a2'][made.indexOf(true)]);
		// Added without a change: the first writer's entry, whichever instance asks.
		const added = await Promise.all(
			[a, b].map((s, i) =>
				s.add(streamer, [['t2', { state: 'done', at: Date.now() + 9e6, by: `${i}` }]])
			)
		);
		expect(added[0].t2).toEqual(added[1].t2);
		expect((await a.add(streamer, [['t1', { state: 'done', at: 0 }]])).t1.state).toBe('todo');
		await close();
	});

	it('tells every instance once committed; a change that throws stores and tells nothing', async () => {
		const { streamer, a, b, close } = await two(402);
		const heard: LiveMessage[] = [];
		// The changes' messages (not `resync`, said when LISTEN is in place).
		b.push.subscribe(streamer, (m) => m.type !== 'resync' && heard.push(m));
		await vi.waitFor(async () => {
			await a.update(streamer, (st, tell) => {
				st.version++;
				tell({ type: 'chat' });
			});
			expect(heard.length).toBeGreaterThan(0);
		});
		// Heard in the order committed: once this one is, every one before it is.
		const mark = { type: 'settings', target: 'mark', version: 1 } as const;
		await a.update(streamer, (st, tell) => {
			st.version++;
			tell(mark);
		});
		await vi.waitFor(() => expect(heard.at(-1)).toEqual(mark));
		const before = await a.read(streamer);
		const told = heard.length;
		await expect(
			a.update(streamer, (st, tell) => {
				st.version = 99;
				st.entries.t9 = { state: 'todo', at: 1 };
				tell({ type: 'chat' });
				throw new Error('refused');
			})
		).rejects.toThrow('refused');
		expect(await a.read(streamer)).toEqual(before);
		// A later change's message is heard, and the refused one's never was.
		await a.update(streamer, (st, tell) => {
			st.version = 1000;
			tell({ type: 'settings', target: 'tts', version: 1000 });
		});
		await vi.waitFor(() =>
			expect(heard.at(-1)).toEqual({ type: 'settings', target: 'tts', version: 1000 })
		);
		expect(heard).toHaveLength(told + 1);
		await close();
	});

	it("never reads another streamer's state, nor another kind's", async () => {
		const { streamer, a, close } = await two(403);
		const other = (await store.signedIn(me(404), grant(404))).streamer.id;
		await a.update(streamer, (st) => {
			st.version = 7;
			st.entries.mine = { state: 'todo', at: 1 };
		});
		expect(await a.read(other, ['mine'])).toEqual({ version: 0, entries: {} });
		const told = new HostedKeptStore(TOLD_TASKS, db);
		expect(await told.read(streamer, ['mine'])).toEqual({ version: 0, entries: {} });
		await told.close();
		await close();
	});

	it('reads a closed entry only when named, lists the streamers with open ones, drops the past', async () => {
		const { streamer, a, close } = await two(405);
		await a.update(streamer, (st) => {
			st.entries.past = { state: 'done', at: Date.now() - 5000 };
			st.entries.done = { state: 'done', at: Date.now() + 60_000 };
			st.entries.todo = { state: 'todo', at: 0 };
		});
		expect(Object.keys((await a.read(streamer)).entries)).toEqual(['todo']);
		expect(Object.keys((await a.read(streamer, ['done'])).entries).sort()).toEqual([
			'done',
			'todo'
		]);
		expect(await a.streamers()).toContain(streamer);
		expect((await a.read(streamer, ['past'])).entries.past).toBeUndefined();
		const rows = await sql<{ n: number }>`
			select count(*)::int as n from kept_entries where streamer_id = ${streamer}`.execute(db);
		expect(rows.rows[0].n).toBe(2);
		await a.update(streamer, (st) => void (st.entries.todo = { state: 'done', at: Date.now() }));
		expect(await a.streamers()).not.toContain(streamer);
		await close();
	});

	it('a meta kept in memory follows a change made on another instance', async () => {
		const { streamer, a, b, close } = await two(406, TOLD_TASKS);
		const heardOn = (s: typeof a) => {
			const heard: LiveMessage[] = [];
			s.push.subscribe(streamer, (m) => heard.push(m));
			return heard;
		};
		const onA = heardOn(a);
		// Read (and so kept) on a while it listens, then changed on b.
		await vi.waitFor(async () => {
			await b.update(streamer, (st, tell) => {
				st.version++;
				tell({ type: 'rules', version: st.version });
			});
			expect(onA.length).toBeGreaterThan(0);
		});
		const seen = (await a.read(streamer)).version;
		await b.update(streamer, (st, tell) => {
			st.version = seen + 1;
			tell({ type: 'rules', version: st.version });
		});
		await vi.waitFor(async () => expect((await a.read(streamer)).version).toBe(seen + 1));
		await close();
	});
});

// Two migration runs on a fresh PGlite: slow on a busy machine.
describe('the upgrade to kept state (PGlite)', { timeout: 60_000 }, () => {
	it('moves the rows stored before it, each streamer’s to the same streamer', async () => {
		const db = await openDatabase({ dataDir: null });
		await migrate(db, '009-kept');
		for (const id of ['s1', 's2'])
			await sql`insert into streamers (id, tenant_id, name, currency)
				values (${id}, ${`t_${id}`}, ${id}, 'USD')`.execute(db);
		await sql`insert into settings_revisions (streamer_id, revision) values ('s1', 3), ('s2', 1)`.execute(
			db
		);
		await sql`insert into widget_settings (streamer_id, target, "values", history) values
			('s1', 'tts', '{"accent": "red"}', '[{}, {"accent": "gold"}]'),
			('s2', 'media', '{"volume": "0.4"}', '[{}]')`.execute(db);
		const day = Date.now() - 25 * 3600_000;
		await sql`insert into chat_state (streamer_id, state) values
			('s1', ${JSON.stringify({ ...emptyMeta(), sends: [1] })}::jsonb)`.execute(db);
		await sql`insert into chat_entries (streamer_id, order_id, state, at, entry) values
			('s1', 'owed', 'owed', 5, '{"state": "owed", "at": 5, "name": "Ada"}'),
			('s1', 'done', 'done', ${Date.now()}, ${JSON.stringify({ state: 'done', at: Date.now() })}),
			('s1', 'old', 'done', ${day}, ${JSON.stringify({ state: 'done', at: day })})`.execute(db);
		await sql`insert into moderation_rules (streamer_id, rules, version) values
			('s1', ${JSON.stringify(ModerationRules.parse({ links: 'remove' }))}::jsonb, 4)`.execute(db);
		const held = decision('tip_1', 'hold');
		const old = decision('tip_old', 'read', {
			decidedAt: new Date(Date.now() - 31 * 24 * 3600_000).toISOString()
		});
		for (const d of [held, old])
			await sql`insert into moderation_decisions (streamer_id, order_id, decision, outcome, decided_at)
				values ('s1', ${d.orderId}, ${JSON.stringify(d)}::jsonb, ${d.outcome}, ${d.decidedAt})`.execute(db);
		await migrate(db);
		const moderation = moderationStore(new HostedKeptStore(MODERATION, db));
		expect(await moderation.rules('s1')).toMatchObject({ version: 4, rules: { links: 'remove' } });
		expect((await moderation.get('s1', ['tip_1'])).get('tip_1')).toEqual(held);
		expect((await moderation.get('s2', ['tip_1'])).size).toBe(0);
		const approved = { ...held, outcome: 'read' as const, by: 'approved' as const };
		expect(await moderation.settle('s1', 'tip_1', approved)).toEqual(approved);
		// The first change prunes what is past keeping.
		await vi.waitFor(async () => expect((await moderation.get('s1', ['tip_old'])).size).toBe(0), {
			timeout: 10_000
		});
		await moderation.close();
		const chat = chatStore(new HostedKeptStore(CHAT, db));
		expect(await chat.read('s1', ['done', 'old'])).toMatchObject({
			sends: [1],
			entries: { owed: { name: 'Ada' }, done: { state: 'done' } }
		});
		expect(await chat.busy()).toEqual(['s1']);
		expect((await chat.read('s1', ['old'])).entries.old).toBeUndefined();
		expect((await chat.read('s2')).entries).toEqual({});
		await chat.close();
		const settings = new SettingsStore(new HostedKeptStore(SETTINGS, db));
		expect(await settings.read('s1')).toEqual({
			revision: 3,
			targets: { tts: { accent: 'red' } },
			undo: { tts: 2 }
		});
		expect((await settings.undo('s1', 'tts')).values).toEqual({ accent: 'gold' });
		expect((await settings.read('s2')).targets).toEqual({ media: { volume: '0.4' } });
		await settings.close();
		await db.destroy();
	});
});
