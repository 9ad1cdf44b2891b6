// Hosted mode's stored settings on both databases hosted mode supports: a save replaces a
// target's set as the streamer's next revision, Undo brings back the earlier sets (at most 20), a
// save from an older revision is refused however many instances save at once, what subscribers
// hear (through another store on the database too), a streamer's rows go with the streamer, and
// one streamer's settings and changes never reach another. Across instances and through the app:
// hosted-instances.settings.test.ts.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveMessage } from '../../src/contract/index.ts';
import type { Db } from '../../src/hosted/db.ts';
import { HostedPushChannel } from '../../src/hosted/push-channel.ts';
import { HostedKeptStore } from '../../src/hosted/kept-store.ts';
import type { HostedStore } from '../../src/hosted/store.ts';
import {
	MAX_TARGETS,
	MAX_UNDO,
	SETTINGS,
	SettingsRefused,
	SettingsStore
} from '../../src/server/settings/store.ts';
import { grant, me, storeEngines, type OpenedStore } from '../fixtures/hosted-store.ts';
import { hostedModeration } from '../fixtures/hosted-moderation.ts';

const soon = { timeout: 5000, interval: 10 };

/** A hosted instance's settings, on its own push channel or the one given. */
const hostedSettings = (db: Db, opts: { push?: HostedPushChannel } = {}) =>
	new SettingsStore(new HostedKeptStore(SETTINGS, db, opts));

function hear(
	store: { push: Pick<HostedPushChannel, 'subscribe'> } | HostedPushChannel,
	streamer: string
) {
	const messages: LiveMessage[] = [];
	const push = 'push' in store ? store.push : store;
	const stop = push.subscribe(streamer, (m) => messages.push(m));
	return { messages, stop };
}

/** The refusal a change ends in (null: it was not refused). */
const refusal = (p: Promise<unknown>) =>
	p.then(
		() => null,
		(err: unknown) => {
			if (err instanceof SettingsRefused) return err.code;
			throw err;
		}
	);

describe.each(storeEngines())('settings store on %s', (_name, open) => {
	let opened: OpenedStore;
	let db: Db;
	let store: HostedStore;
	let settings: SettingsStore;
	beforeAll(async () => {
		opened = await open();
		({ db, store } = opened);
		settings = hostedSettings(db);
	}, 60_000);
	afterAll(async () => {
		await settings?.close();
		await opened?.close();
	});

	let n = 400;
	const streamer = async () => (await store.signedIn(me(++n), grant(n))).streamer.id;

	it('none at revision 0; each save replaces the set as the next revision; Undo walks back', async () => {
		const s = await streamer();
		expect(await settings.read(s)).toEqual({ revision: 0, targets: {}, undo: {} });
		expect(await settings.save(s, 'tts', { accent: 'gold' })).toEqual({
			revision: 1,
			target: 'tts',
			values: { accent: 'gold' },
			undo: 1
		});
		await settings.save(s, 'tts', { look: 'neon' });
		await settings.save(s, 'o_1a2b3c4d', { media_volume: '0.3' });
		expect(await settings.read(s)).toEqual({
			revision: 3,
			targets: { tts: { look: 'neon' }, o_1a2b3c4d: { media_volume: '0.3' } },
			undo: { tts: 2, o_1a2b3c4d: 1 }
		});
		expect(await settings.undo(s, 'tts')).toEqual({
			revision: 4,
			target: 'tts',
			values: { accent: 'gold' },
			undo: 1
		});
		expect((await settings.undo(s, 'tts')).values).toEqual({});
		expect(await refusal(settings.undo(s, 'tts'))).toBe('nothing_to_undo');
		expect(await refusal(settings.undo(s, 'media'))).toBe('nothing_to_undo');
		// A refused undo made no revision.
		expect(await settings.read(s)).toEqual({
			revision: 5,
			targets: { o_1a2b3c4d: { media_volume: '0.3' } },
			undo: { o_1a2b3c4d: 1 }
		});
	});

	it(`Undo keeps the last ${MAX_UNDO} sets of a target`, async () => {
		const s = await streamer();
		for (let i = 1; i <= MAX_UNDO + 3; i++) await settings.save(s, 'recent', { limit: String(i) });
		expect((await settings.read(s)).undo).toEqual({ recent: MAX_UNDO });
		for (let i = MAX_UNDO + 2; i >= 3; i--)
			expect((await settings.undo(s, 'recent')).values).toEqual({ limit: String(i) });
		expect(await refusal(settings.undo(s, 'recent'))).toBe('nothing_to_undo');
	});

	it('of saves from one revision at once, one is kept and the others are conflicts', async () => {
		const s = await streamer();
		await settings.save(s, 'media', { volume: '0.1' });
		const other = hostedSettings(db);
		try {
			const tries = ['0.2', '0.3', '0.4', '0.5'].map((v, i) =>
				(i % 2 ? other : settings).save(s, 'media', { volume: v }, 1)
			);
			const outcomes = await Promise.all(tries.map(refusal));
			expect(outcomes.filter((o) => o === null)).toHaveLength(1);
			expect(outcomes.filter((o) => o === 'settings_conflict')).toHaveLength(3);
			const kept = (await settings.read(s)).targets.media;
			expect(['0.2', '0.3', '0.4', '0.5']).toContain(kept.volume);
			expect((await settings.read(s)).revision).toBe(2);
			// Without a base revision every save is kept, one after the other.
			const all = await Promise.all(
				[other, settings, other].map((st, i) => st.save(s, 'leaderboard', { limit: String(i + 1) }))
			);
			expect(all.map((r) => r.revision).sort()).toEqual([3, 4, 5]);
			expect((await settings.read(s)).undo.leaderboard).toBe(3);
		} finally {
			await other.close();
		}
	});

	it(`at most ${MAX_TARGETS} targets; a kept one can always be saved again`, async () => {
		const s = await streamer();
		for (let i = 0; i < MAX_TARGETS; i++)
			await settings.save(s, `o_${i.toString(16).padStart(8, '0')}`, { scale: '1' });
		expect(await refusal(settings.save(s, 'tts', { accent: 'red' }))).toBe('too_many_targets');
		expect((await settings.save(s, 'o_00000000', {})).revision).toBe(MAX_TARGETS + 1);
	});

	it('a change saved through another store on the database reaches this one’s subscribers', async () => {
		const s = await streamer();
		const here = hear(settings, s);
		const there = hostedSettings(db);
		try {
			await there.save(s, 'counters', { name: 'hugs' });
			await vi.waitFor(
				() => expect(here.messages).toEqual([{ type: 'settings', target: 'counters', version: 1 }]),
				soon
			);
			expect((await settings.read(s)).targets).toEqual({ counters: { name: 'hugs' } });
			await settings.undo(s, 'counters');
			await vi.waitFor(() => expect(here.messages).toHaveLength(2), soon);
			expect(here.messages[1]).toEqual({ type: 'settings', target: 'counters', version: 2 });
		} finally {
			here.stop();
			await there.close();
		}
	});

	it('one streamer’s settings and changes never reach another', async () => {
		const a = await streamer();
		const b = await streamer();
		const heardA = hear(settings, a);
		const heardB = hear(settings, b);
		await settings.save(a, 'tts', { accent: 'gold' });
		expect(await settings.read(b)).toEqual({ revision: 0, targets: {}, undo: {} });
		expect(await refusal(settings.undo(b, 'tts'))).toBe('nothing_to_undo');
		// B's own save, heard last: B heard B's change only, A only A's.
		await settings.save(b, 'tts', { accent: 'red' });
		await vi.waitFor(() => expect(heardB.messages).toHaveLength(1), soon);
		expect(heardB.messages).toEqual([{ type: 'settings', target: 'tts', version: 1 }]);
		expect(heardA.messages).toEqual([{ type: 'settings', target: 'tts', version: 1 }]);
		expect((await settings.read(a)).targets.tts).toEqual({ accent: 'gold' });
		heardA.stop();
		heardB.stop();
	});

	it('a streamer’s settings go with the streamer; an unreadable row is an empty set, logged', async () => {
		const s = await streamer();
		await settings.save(s, 'tts', { accent: 'gold' });
		await settings.save(s, 'media', { volume: '0.5' });
		await sql`update kept_entries set value = ${'{"values": {"accent": 5}, "history": []}'}::jsonb
			where streamer_id = ${s} and kind = 'settings' and key = 'tts'`.execute(db);
		const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
		try {
			expect((await settings.read(s)).targets).toEqual({ media: { volume: '0.5' } });
			expect(errors.mock.calls.flat().join(' ')).toContain(`${s} tts is unreadable`);
		} finally {
			errors.mockRestore();
		}
		// A save replaces it.
		await settings.save(s, 'tts', { accent: 'red' });
		expect((await settings.read(s)).targets.tts).toEqual({ accent: 'red' });
		await sql`delete from streamers where id = ${s}`.execute(db);
		const left = await sql<{ n: string }>`select
			(select count(*) from kept_entries where streamer_id = ${s}) +
			(select count(*) from kept_meta where streamer_id = ${s}) as n`.execute(db);
		expect(Number(left.rows[0].n)).toBe(0);
	});

	it('one push channel shared by the moderation and settings stores: a page hears both, one resync', async () => {
		const s = await streamer();
		const push = new HostedPushChannel(db);
		const moderation = hostedModeration(db, { push });
		const shared = hostedSettings(db, { push });
		try {
			expect(moderation.push).toBe(shared.push);
			const page = hear(push, s);
			// LISTEN in place: the page is told to read everything (once, not once per store).
			const resync: LiveMessage[] = [{ type: 'resync' }];
			await vi.waitFor(() => expect(page.messages).toEqual(resync), soon);
			await shared.save(s, 'celebration', { style: 'fireworks' });
			await vi.waitFor(
				() =>
					expect(page.messages).toEqual([
						...resync,
						{ type: 'settings', target: 'celebration', version: 1 }
					]),
				soon
			);
			await moderation.saveRules(s, (await moderation.rules(s)).rules);
			await vi.waitFor(
				() =>
					expect(page.messages).toEqual([
						...resync,
						{ type: 'settings', target: 'celebration', version: 1 },
						{ type: 'rules', version: 1 }
					]),
				soon
			);
		} finally {
			await moderation.close();
			await shared.close();
			await push.close();
		}
	});
});
