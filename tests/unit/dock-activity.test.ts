// The dock's Activity (widgets/dock/activity.svelte.ts, activity-format.ts) over a fake fetch: its
// pages newest first with More on the cursor, a burst of push messages read once, a search sent once
// typing stops, Replay's three answers (queued, already in the queue, refused with the reason),
// Export's range checked before it asks, and the entries' words.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry } from '../../src/contract/activity.ts';
import { DockActivity } from '../../widgets/dock/activity.svelte.ts';
import { entryLine, localToIso, outcomeWords } from '../../widgets/dock/activity-format.ts';
import { ControlClient } from '../../widgets/dock/control-client.ts';
import { DockState } from '../../widgets/dock/dock.svelte.ts';

const at = (min: number) => new Date(Date.UTC(2026, 11, 1, 20, min)).toISOString();

function tip(n: number, extra: Partial<Extract<ActivityEntry, { kind: 'tip' }>> = {}) {
	return {
		id: `e${n}`,
		kind: 'tip',
		at: at(n),
		via: 'realtime',
		updated_at: at(n),
		order_id: `tip_${n}`,
		name: `Viewer ${n}`,
		amount: n,
		message: `message ${n}`,
		message_hidden: false,
		is_paid: true,
		is_replay: false,
		source: 'api',
		outcome: 'read',
		moderation: null,
		replayed_as: null,
		replay_of: null,
		...extra
	} as const;
}

const SUMMARY = {
	since: at(0),
	since_from: 'tipping',
	tips: 0,
	total: 0,
	paid_total: 0,
	top: [],
	videos: 0
};

type Answer = [number, unknown];

function setup(
	list: (url: URL) => Answer,
	post: (url: URL, body: unknown) => Answer = () => [404, {}]
) {
	const calls: URL[] = [];
	const fetch = vi.fn(async (input: string, init: RequestInit = {}) => {
		const url = new URL(input, 'http://dock.test');
		calls.push(url);
		const [status, body] =
			url.pathname === '/control/activity/summary'
				? [200, SUMMARY]
				: init.method === 'GET'
					? list(url)
					: post(url, JSON.parse((init.body as string) ?? 'null'));
		return new Response(JSON.stringify(body), { status });
	});
	const dock = new DockState({ client: new ControlClient({ key: 'ctl_0123456789abcdef' }, fetch) });
	const lists = () => calls.filter((u) => u.pathname === '/control/activity');
	return { dock, calls, lists };
}

/** Lets the fake fetches and the one-shot timers run. */
async function settle(ms = 0): Promise<void> {
	await vi.advanceTimersByTimeAsync(ms);
	for (let i = 0; i < 5; i++) await Promise.resolve();
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('the Activity list', () => {
	it('lists the first page newest first, and More reads the older page by its cursor once', async () => {
		const { dock, lists } = setup((url) =>
			url.searchParams.get('cursor') === 'c1'
				? [200, { entries: [tip(3), tip(2)], next_cursor: null }]
				: [200, { entries: [tip(5), tip(4), tip(3)], next_cursor: 'c1' }]
		);
		const activity = new DockActivity(dock).start();
		await settle();
		expect(activity.entries?.map((e) => e.id)).toEqual(['e5', 'e4', 'e3']);
		expect(activity.cursor).toBe('c1');
		await activity.more();
		expect(activity.entries?.map((e) => e.id)).toEqual(['e5', 'e4', 'e3', 'e2']);
		expect(activity.cursor).toBeNull();
		await activity.more();
		expect(lists()).toHaveLength(2);
	});

	it('reads the list once for a burst of activity messages, and not at all for the rules', async () => {
		let newest = 5;
		const { dock, lists } = setup(() => [
			200,
			{ entries: [tip(newest), tip(newest - 1)], next_cursor: null }
		]);
		const activity = new DockActivity(dock).start();
		await settle();
		dock.onLive({ type: 'rules' });
		await settle(1000);
		expect(lists()).toHaveLength(1);
		newest = 7;
		for (const ids of [['e7'], ['e6'], undefined]) dock.onLive({ type: 'activity', ids });
		await settle(1000);
		expect(lists()).toHaveLength(2);
		expect(activity.entries?.map((e) => e.id)).toEqual(['e7', 'e6']);
	});

	it('searches a typed name once typing stops, with the kind shown', async () => {
		const { dock, lists } = setup(() => [200, { entries: [], next_cursor: null }]);
		const activity = new DockActivity(dock).start();
		await settle();
		activity.kind = 'tip';
		for (const q of ['A', 'An', 'Ana']) {
			activity.q = q;
			activity.filter(true);
			await settle(50);
		}
		await settle(1000);
		expect(lists()).toHaveLength(2);
		expect(Object.fromEntries(lists()[1].searchParams)).toMatchObject({ kind: 'tip', q: 'Ana' });
	});

	it('reads nothing once the dock has closed', async () => {
		const { dock, lists } = setup(() => [200, { entries: [], next_cursor: null }]);
		new DockActivity(dock).start();
		await settle();
		dock.close();
		dock.onLive({ type: 'activity' });
		await settle(1000);
		expect(lists()).toHaveLength(1);
	});
});

describe('the Activity buttons', () => {
	const replayAnswers: Record<string, Answer> = {
		tip_1: [200, { outcome: 'done', message: 'queued again', order_id: 'tip_9' }],
		tip_2: [200, { outcome: 'in_queue', message: 'already in the queue', order_id: null }],
		tip_3: [404, { error: 'gone from the tip service’s history', code: 'not_found' }]
	};

	it('says what each Replay did: queued again, already in the queue, or why not', async () => {
		const { dock } = setup(
			() => [200, { entries: [], next_cursor: null }],
			(_, body) => replayAnswers[(body as { order_id: string }).order_id]
		);
		const activity = new DockActivity(dock).start();
		for (const n of [1, 2, 3]) await activity.replay(tip(n));
		expect(['e1', 'e2', 'e3'].map((id) => dock.outcomes[`activity-replay:${id}`])).toMatchObject([
			{ kind: 'done', text: 'queued again' },
			{ kind: 'already', text: 'already in the queue' },
			{ kind: 'refused', text: 'gone from the tip service’s history' }
		]);
	});

	it('refuses an export whose From is not before its To, without asking the server', async () => {
		const { dock, calls } = setup(() => [200, { entries: [], next_cursor: null }]);
		const activity = new DockActivity(dock).start();
		activity.exportFrom = '2026-12-01T21:00';
		activity.exportTo = '2026-12-01T20:00';
		await activity.exportCsv();
		expect(dock.outcomes['activity-export']?.kind).toBe('refused');
		expect(calls.some((u) => u.pathname === '/control/activity/export')).toBe(false);
	});
});

describe('the Activity in words', () => {
	it('says a tip the rules removed was removed, and a counter by its change', () => {
		const removed = tip(1, {
			outcome: 'removed',
			message_hidden: true,
			moderation: { outcome: 'remove', message: 'hidden', by: 'rules' }
		});
		expect(outcomeWords(removed)).toBe('removed by the rules');
		expect(outcomeWords(tip(2))).toBe('read');
		const counter = { ...tip(3), kind: 'counter', name: 'deaths', value: 4, previous: 3 } as const;
		expect(entryLine(counter as unknown as ActivityEntry, null)).toBe('counter deaths: 3 → 4');
	});

	it('takes an empty date-time box as no bound and a broken one as unreadable', () => {
		expect(localToIso('')).toBeNull();
		expect(localToIso('not a date')).toBeUndefined();
		expect(localToIso('2026-12-01T20:15')).toMatch(/^2026-12-0[12]T\d\d:15:00\.000Z$/);
	});
});
