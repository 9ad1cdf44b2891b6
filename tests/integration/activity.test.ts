// The Activity in single mode against the real simulator over loopback (docs/activity.md): what
// the server's own intake heard while no page was open is listed once each with its outcome,
// a repeated or unknown event changes nothing wrong, a reconnect's gap is recovered, and the
// dock's Replay, Export CSV and Delete history do what they say.
import { describe, expect, it } from 'vitest';
import { api, until } from '../fixtures/sim.ts';
import { activityRig, everyEntry, play, settles, tip, tipsOf } from './activity.setup.ts';

describe('the Activity, single mode', () => {
	it('lists twenty tips heard while no page was open, once each, newest first with their outcomes', async () => {
		const r = await activityRig();
		const rules = { words: [{ text: 'spoiler', outcome: 'hold' }] };
		expect((await r.dock('PUT', '/control/moderation', rules)).status).toBe(200);
		const ids: string[] = [];
		for (let i = 0; i < 20; i++)
			ids.push(await tip(r.sim, `Viewer${i}`, i + 1, i === 4 ? 'a spoiler here' : `hi ${i}`));
		await settles(async () => expect(tipsOf(await everyEntry(r))).toHaveLength(20));
		await play(r.sim, ids[0]);
		await play(r.sim, ids[1]);
		expect((await api(r.sim, 'DELETE', `/tts/${ids[2]}`)).status).toBe(200);
		expect((await api(r.sim, 'POST', `/tts/${ids[3]}/start`)).status).toBe(200);
		expect((await api(r.sim, 'POST', '/tts/skip')).status).toBe(200);

		await settles(async () => {
			const tips = tipsOf(await everyEntry(r));
			const by = new Map(tips.map((t) => [t.order_id, t]));
			expect(tips).toHaveLength(20);
			expect(new Set(tips.map((t) => t.order_id)).size).toBe(20);
			expect(by.get(ids[0]).outcome).toBe('read');
			expect(by.get(ids[1]).outcome).toBe('read');
			expect(by.get(ids[2])).toMatchObject({ outcome: 'removed', message_hidden: true });
			expect(by.get(ids[3]).outcome).toBe('skipped');
			expect(by.get(ids[4])).toMatchObject({
				outcome: 'queued',
				message: 'a spoiler here',
				message_hidden: true,
				moderation: { outcome: 'hold', rule: { kind: 'word', text: 'spoiler' } }
			});
			expect(by.get(ids[5])).toMatchObject({ outcome: 'queued', moderation: { outcome: 'read' } });
			// Newest first.
			expect(tips.map((t) => t.order_id)).toEqual([...ids].reverse());
		});
	});

	it('records an event delivered twice once, and keeps an unknown type as unknown', async () => {
		const r = await activityRig();
		r.sim.control.duplicateEvents(4);
		const id = await tip(r.sim, 'Twice');
		const unknown = {
			id: 'evt_unknown_1',
			type: 'stream.something_new',
			created_at: new Date().toISOString(),
			data: { whatever: 1 }
		};
		r.sim.control.sendRaw(JSON.stringify(unknown));
		r.sim.control.sendRaw(JSON.stringify(unknown));
		const after = await tip(r.sim, 'After');
		await settles(async () => {
			const all = await everyEntry(r);
			expect(tipsOf(all).map((t) => t.order_id)).toEqual([after, id]);
			expect(all.filter((e) => e.kind === 'unknown')).toEqual([
				expect.objectContaining({ id: 'evt_unknown_1', type: 'stream.something_new' })
			]);
		});
		// The intake carried on: its view has both tips.
		expect(r.served.intake!.view.tts.items.map((t) => t.order_id)).toEqual([id, after]);
	});

	it('recovers the tips of a reconnect gap once, marked recovered, with their outcomes', async () => {
		const r = await activityRig();
		const before = await tip(r.sim, 'Before');
		await settles(async () => expect(tipsOf(await everyEntry(r))).toHaveLength(1));
		expect(r.sim.control.dropSockets(600)).toBe(1);
		const played = await tip(r.sim, 'GapPlayed');
		await play(r.sim, played);
		const waiting = await tip(r.sim, 'GapWaiting');
		await until(() => r.served.intake!.connects === 2, 5000);
		await settles(async () => {
			const tips = tipsOf(await everyEntry(r));
			expect(tips.map((t) => t.order_id)).toEqual([waiting, played, before]);
			expect(tips[0]).toMatchObject({ via: 'recovered', outcome: 'queued' });
			expect(tips[1]).toMatchObject({ via: 'recovered', outcome: 'read' });
			expect(tips[2]).toMatchObject({ via: 'realtime' });
		});
	});

	it('filters by kind, searches by name from its start, and refuses a cursor it did not give', async () => {
		const r = await activityRig();
		await tip(r.sim, 'Alice');
		await tip(r.sim, 'alfred');
		await tip(r.sim, 'Bob');
		expect((await api(r.sim, 'POST', '/tipping/close')).status).toBe(200);
		await settles(async () => expect(await everyEntry(r)).toHaveLength(4));
		const al = await everyEntry(r, 'q=AL');
		expect(al.map((e) => e.name)).toEqual(['alfred', 'Alice']);
		const tipping = await everyEntry(r, 'kind=tipping');
		expect(tipping).toEqual([expect.objectContaining({ kind: 'tipping', accepting: false })]);
		const bad = await r.dock('GET', '/control/activity?cursor=nope');
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('bad_cursor');
		expect((await r.dock('GET', '/control/activity?kind=nonsense')).status).toBe(400);
		expect((await r.dock('GET', '/control/activity?limit=1000')).status).toBe(400);
	});

	it('summarises the stream from the start the streamer sets', async () => {
		const r = await activityRig();
		await tip(r.sim, 'Early', 100);
		await settles(async () => expect(await everyEntry(r)).toHaveLength(1));
		const start = new Date(Date.now() + 1).toISOString();
		await new Promise((resolve) => setTimeout(resolve, 5));
		await tip(r.sim, 'Ann', 5);
		await tip(r.sim, 'Ann', 7);
		await tip(r.sim, 'Ben', 3);
		await settles(async () => expect(await everyEntry(r)).toHaveLength(4));
		const set = await r.dock('PUT', '/control/activity/start', { at: start });
		expect(set.status).toBe(200);
		expect(set.body).toMatchObject({ since: start, since_from: 'streamer', tips: 3, total: 15 });
		expect(set.body.top[0]).toEqual({ name: 'Ann', total: 12, tips: 2 });
		const kit = await r.dock('PUT', '/control/activity/start', { at: null });
		expect(kit.body).toMatchObject({ tips: 4, total: 115 });
		expect(kit.body.since_from).not.toBe('streamer');
	});

	it('replays a read tip once, and says so when it is already in the queue', async () => {
		const r = await activityRig();
		const id = await tip(r.sim, 'Again');
		const queued = await r.dock('POST', '/control/activity/replay', { order_id: id });
		expect(queued.body).toMatchObject({ outcome: 'in_queue', order_id: id });
		await play(r.sim, id);
		const first = await r.dock('POST', '/control/activity/replay', { order_id: id });
		expect(first.status).toBe(200);
		expect(first.body.outcome).toBe('done');
		const second = await r.dock('POST', '/control/activity/replay', { order_id: id });
		expect(second.body).toMatchObject({ outcome: 'in_queue', order_id: first.body.order_id });
		const queue = await api(r.sim, 'GET', '/tts/queue');
		expect(queue.body.items.filter((t: any) => t.is_replay)).toHaveLength(1);
		await settles(async () => {
			const tips = tipsOf(await everyEntry(r));
			const original = tips.find((t) => t.order_id === id);
			expect(original).toMatchObject({ outcome: 'replayed', replayed_as: first.body.order_id });
		});
		const gone = await r.dock('POST', '/control/activity/replay', { order_id: 'tip_999_nope' });
		expect(gone.status).toBe(404);
		expect(gone.body.error).toMatch(/not found upstream/);
	});

	it('exports a range as CSV with formulas neutralised, and deletes the history', async () => {
		const r = await activityRig();
		await tip(r.sim, '=HYPERLINK("x")', 5, 'a, "quoted"\nline');
		await tip(r.sim, 'Plain', 2, '+1 great');
		await settles(async () => expect(await everyEntry(r)).toHaveLength(2));
		const from = new Date(Date.now() - 60_000).toISOString();
		const csv = await r.dock('GET', `/control/activity/export?from=${from}&kind=tip`);
		expect(csv.status).toBe(200);
		expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="activity-/);
		const lines = csv.text.split('\r\n');
		expect(lines[0]).toBe('at,kind,name,amount,message,outcome,moderation,detail,via');
		expect(csv.text).toContain(`,tip,"'=HYPERLINK(""x"")",5,"a, ""quoted""\nline",`);
		expect(csv.text).toContain(`,tip,Plain,2,'+1 great,`);
		const later = await r.dock(
			'GET',
			`/control/activity/export?from=${new Date(Date.now() + 60_000).toISOString()}`
		);
		expect(later.text.split('\r\n').filter(Boolean)).toHaveLength(1);

		const deleted = await r.dock('POST', '/control/activity/delete');
		expect(deleted.body).toEqual({ deleted: 2 });
		expect(await everyEntry(r)).toEqual([]);
		// Gone from the disk too: a restart lists nothing.
		await r.stop();
		const again = await activityRig({ sim: r.sim, dir: r.dir });
		expect(await everyEntry(again)).toEqual([]);
	});

	it('drops entries past the retention', async () => {
		let now = Date.now();
		const r = await activityRig({ retentionDays: 1, now: () => now });
		await tip(r.sim, 'Old');
		await settles(async () => expect(await everyEntry(r)).toHaveLength(1));
		now += 2 * 86_400_000;
		await r.recorder.store.prune(r.recorder.since);
		expect(await everyEntry(r)).toEqual([]);
	});
});
