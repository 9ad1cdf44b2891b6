// Hosted mode's chat store (src/server/chat/store.ts on src/hosted/kept-store.ts) on both databases hosted mode supports: each
// tip's entry a row, made once whichever handle (instance) writes it first; a sender's claim holds
// against another's at the same moment; a change sees the entries not done and those it names,
// never the day's; the streamers with work are found, and entries past a day dropped.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { HostedKeptStore } from '../../src/hosted/kept-store.ts';
import { CHAT, chatStore, type ChatStore } from '../../src/server/chat/store.ts';
import { openDatabase, type Db } from '../../src/hosted/db.ts';
import { HostedPushChannel } from '../../src/hosted/push-channel.ts';
import type { HostedStore } from '../../src/hosted/store.ts';
import { grant, me, openForSuite, serverUrl, storeEngines } from '../fixtures/hosted-store.ts';

describe.each(storeEngines())('the chat store on %s', (name, open) => {
	let db: Db;
	let store: HostedStore;
	openForSuite(open, (opened) => ({ db, store } = opened));

	/** A signed-in streamer and two chat stores on the database (as two instances' would be). */
	async function two(n: number) {
		const streamer = (await store.signedIn(me(n), grant(n))).streamer.id;
		const push = new HostedPushChannel(db);
		const other =
			name === 'PostgreSQL server' ? await openDatabase({ databaseUrl: await serverUrl(db) }) : db;
		const otherPush = other === db ? push : new HostedPushChannel(other);
		return {
			streamer,
			a: chatStore(new HostedKeptStore(CHAT, db, { push })),
			b: chatStore(new HostedKeptStore(CHAT, other, { push: otherPush })),
			close: async () => {
				await push.close();
				if (other !== db) {
					await otherPush.close();
					await other.destroy();
				}
			}
		};
	}

	it('makes a tip entry once, and a claim holds, whichever instance changes it', async () => {
		const { streamer, a, b, close } = await two(301);
		const note = (s: ChatStore) =>
			s.update(
				streamer,
				(st) => {
					if (st.entries.tip_1) return false;
					st.entries.tip_1 = { state: 'owed', at: Date.now(), name: 'Ada', amount: 1 };
					return true;
				},
				['tip_1']
			);
		expect((await Promise.all([note(a), note(b), note(a)])).filter(Boolean)).toHaveLength(1);
		const claim = (s: ChatStore, msg: string) =>
			s.update(streamer, (st) => {
				const e = st.entries.tip_1;
				if (e?.state !== 'owed') return null;
				st.entries.tip_1 = { ...e, state: 'sending', msg };
				return msg;
			});
		const claims = await Promise.all([claim(a, 'by-a'), claim(b, 'by-b')]);
		expect(claims.filter(Boolean)).toHaveLength(1);
		expect((await b.read(streamer)).entries.tip_1).toMatchObject({
			state: 'sending',
			msg: claims.find(Boolean)
		});
		await close();
	});

	it('leaves the done entries out of a change unless named, and drops them after a day', async () => {
		const { streamer, a, close } = await two(302);
		const day = Date.now() - 25 * 3600_000;
		await a.update(streamer, (st) => {
			st.entries.old = { state: 'done', at: day };
			st.entries.today = { state: 'done', at: Date.now() };
			st.entries.owed = { state: 'owed', at: Date.now() };
		});
		expect(Object.keys((await a.read(streamer)).entries)).toEqual(['owed']);
		expect(Object.keys((await a.read(streamer, ['today'])).entries).sort()).toEqual([
			'owed',
			'today'
		]);
		// A change never makes a done tip's entry again, seen or not.
		await a.update(streamer, (st) => {
			st.entries.today = { state: 'finishing', at: Date.now() };
		});
		expect((await a.read(streamer, ['today'])).entries.today.state).toBe('done');
		expect(await a.busy()).toContain(streamer);
		expect((await a.read(streamer, ['old'])).entries.old).toBeUndefined();
		const rows = await sql<{ n: number }>`
			select count(*)::int as n from kept_entries where streamer_id = ${streamer} and kind = 'chat'`.execute(
			db
		);
		expect(rows.rows[0].n).toBe(2);
		await close();
	});
});
