// Hosted mode's Activity store on both databases hosted mode supports (src/hosted/activity-store.ts):
// an event applied once however often it comes, a tip's one entry kept by its later events, the
// list newest first with its filter, search and cursor, Delete history and the retention, and each
// streamer's entries out of every other streamer's reach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgActivityStore } from '../../src/hosted/activity-store.ts';
import type { HostedStore } from '../../src/hosted/store.ts';
import { eventUpdates } from '../../src/core/activity/from-event.ts';
import type { Heard } from '../../src/server/activity/store.ts';
import { grant, me, storeEngines, type OpenedStore } from '../fixtures/hosted-store.ts';
import { queueTip } from '../unit/contract-examples.ts';

const T0 = Date.parse('2026-11-01T12:00:00Z');
let seq = 0;

function tipEvent(name: string, at: number, type = 'tip.created', extra: object = {}) {
	const orderId = `tip_${++seq}_abc`;
	const tip = {
		...queueTip(),
		order_id: orderId,
		name,
		message: `hi from ${name}`,
		queued_at: new Date(at).toISOString(),
		...extra
	};
	return { orderId, event: envelope(type, at, { tip }) };
}

function envelope(type: string, at: number, data: Record<string, unknown>) {
	return { id: `evt_${++seq}`, type, created_at: new Date(at).toISOString(), data };
}

function heard(event: ReturnType<typeof envelope>): Heard {
	const made = eventUpdates(event, 'realtime');
	if (!made.ok) throw new Error(made.error);
	return { eventId: event.id, updates: made.updates };
}

describe.each(storeEngines())('activity store on %s', (_name, open) => {
	let opened: OpenedStore;
	let store: HostedStore;
	let activity: PgActivityStore;
	beforeAll(async () => {
		opened = await open();
		store = opened.store;
		activity = new PgActivityStore(opened.db);
	}, 60_000);
	afterAll(async () => {
		await opened?.close();
	});
	let n = 500;
	const streamer = async () => (await store.signedIn(me(++n), grant(n))).streamer.id;

	it('applies an event once however often it comes, and keeps a tip in one entry', async () => {
		const s = await streamer();
		const { orderId, event } = tipEvent('Ada', T0);
		expect(await activity.apply(s, [heard(event)], T0)).toHaveLength(1);
		expect(await activity.apply(s, [heard(event)], T0)).toEqual([]);
		const removed = envelope('queue.tts.removed', T0 + 1000, { order_id: orderId });
		await activity.apply(s, [heard(removed), heard(removed)], T0);
		const list = await activity.list(s, { limit: 10 });
		expect(list).toEqual([
			expect.objectContaining({ order_id: orderId, outcome: 'removed', message_hidden: true })
		]);
	});

	it('lists newest first with a kind filter, a name search and a cursor', async () => {
		const s = await streamer();
		const names = ['Alice', 'bob', 'alfred', 'Albert_x', 'Al%'];
		for (const [i, name] of names.entries())
			await activity.apply(s, [heard(tipEvent(name, T0 + i * 1000).event)], T0);
		await activity.apply(s, [heard(envelope('tipping.closed', T0 + 9000, {}))], T0);
		const all = await activity.list(s, { limit: 10 });
		expect(all.map((e) => e.kind)).toEqual(['tipping', 'tip', 'tip', 'tip', 'tip', 'tip']);
		const al = await activity.list(s, { name: 'AL', limit: 10 });
		expect(al.map((e) => (e as { name: string }).name)).toEqual([
			'Al%',
			'Albert_x',
			'alfred',
			'Alice'
		]);
		// LIKE's wildcards are taken as themselves.
		expect((await activity.list(s, { name: 'al%', limit: 10 })).length).toBe(1);
		expect((await activity.list(s, { name: 'Albert_', limit: 10 })).length).toBe(1);
		const first = await activity.list(s, { kinds: ['tip'], limit: 2 });
		const last = first[first.length - 1];
		const next = await activity.list(s, {
			kinds: ['tip'],
			limit: 10,
			before: { at: Date.parse(last.at), id: last.id }
		});
		expect([...first, ...next].map((e) => e.id)).toEqual(all.slice(1).map((e) => e.id));
	});

	it("keeps each streamer's entries from every other's, and deletes only the caller's", async () => {
		const a = await streamer();
		const b = await streamer();
		const { orderId, event } = tipEvent('Secret', T0);
		await activity.apply(a, [heard(event)], T0);
		expect(await activity.list(b, { limit: 10 })).toEqual([]);
		expect((await activity.get(b, [`tip_${orderId}`])).size).toBe(0);
		// The same event id for another streamer is that streamer's own.
		await activity.apply(b, [heard(tipEvent('Other', T0).event)], T0);
		expect(await activity.delete(b)).toBe(1);
		expect(await activity.list(a, { limit: 10 })).toHaveLength(1);
		expect(await activity.list(b, { limit: 10 })).toEqual([]);
	});

	it('drops entries older than the retention', async () => {
		const s = await streamer();
		await activity.apply(s, [heard(tipEvent('Old', T0 - 40 * 86_400_000).event)], T0);
		await activity.apply(s, [heard(tipEvent('New', T0).event)], T0);
		await activity.prune(T0 - 30 * 86_400_000);
		const names = (await activity.list(s, { limit: 10 })).map((e) => (e as { name: string }).name);
		expect(names).toEqual(['New']);
	});
});
