// The tip-goal rune class with a fake API and fake timers: counting, celebrating once, one timer.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../../src/client/event-hub.ts';
import type { KnownEvent, QueueTip, TipGoal } from '../../src/contract/index.ts';
import { parseTipGoalParams } from '../../widgets/tip-goal/params.ts';
import { TipGoalTracker, type GoalMemory } from '../../widgets/tip-goal/tip-goal.svelte.ts';

const OVERLAY = 'o_1a2b3c4d';
const T0 = Date.parse('2024-05-01T12:00:00Z');

function setup(initial: Partial<TipGoal> = {}) {
	let server: TipGoal = {
		enabled: true,
		title: 'Mic',
		amount: 100,
		starts_at: null,
		ends_at: null,
		current: 0,
		...initial
	};
	const calls: string[] = [];
	const api = {
		request: vi.fn(async ({ name }: { name: string }) => {
			calls.push(name);
			if (name === 'me')
				return {
					ok: true,
					status: 200,
					body: { tenant: { currency: 'EUR', currency_symbol: '€' } }
				};
			return { ok: true, status: 200, body: { tip_goal: { ...server } } };
		})
	};
	const events = new EventHub();
	const store = new Map<string, string>();
	const memory: GoalMemory = {
		getItem: (k) => store.get(k) ?? null,
		setItem: (k, v) => void store.set(k, v)
	};
	const reached = vi.fn();
	const make = () =>
		new TipGoalTracker({
			api: api as never,
			events,
			overlayId: OVERLAY,
			memory,
			onReached: reached
		}).start();
	let n = 0;
	const tip = (amount: number, paid = true): KnownEvent => {
		const t = {
			order_id: `tip_${++n}_a`,
			amount,
			is_paid: paid,
			queued_at: new Date(Date.now()).toISOString()
		} as QueueTip;
		if (paid) server = { ...server, current: server.current + amount };
		return {
			id: `evt_${n}`,
			type: 'tip.created',
			created_at: t.queued_at,
			data: { tip: t }
		} as KnownEvent;
	};
	return {
		api,
		calls,
		events,
		store,
		reached,
		make,
		tip,
		get server() {
			return server;
		},
		set server(g: TipGoal) {
			server = g;
		}
	};
}

beforeEach(() => {
	vi.useFakeTimers();
	vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

describe('TipGoalTracker', () => {
	it('reads the goal and the currency, then counts a paid tip at once and ignores an unpaid one', async () => {
		const s = setup({ current: 10 });
		const t = s.make();
		await vi.advanceTimersByTimeAsync(1000);
		expect(t.view.goal?.current).toBe(10);
		expect(t.view.currency).toEqual({ code: 'EUR', symbol: '€' });
		const reads = s.calls.length;
		s.events.emit(s.tip(15));
		expect(t.view.goal?.current).toBe(25);
		s.events.emit(s.tip(50, false));
		expect(t.view.goal?.current).toBe(25);
		expect(s.calls.length).toBe(reads); // no re-read needed
		t.destroy();
	});

	it('a duplicate tip event does not count twice', async () => {
		const s = setup();
		const t = s.make();
		await vi.advanceTimersByTimeAsync(1000);
		const e = s.tip(5);
		s.events.emit(e);
		s.events.emit({ ...e, id: 'evt_other' } as KnownEvent);
		expect(t.view.goal?.current).toBe(5);
		t.destroy();
	});

	it('reaching the goal calls onReached once and remembers it; a new tracker does not fire', async () => {
		const s = setup({ current: 90 });
		const t = s.make();
		await vi.advanceTimersByTimeAsync(1000);
		s.events.emit(s.tip(10));
		s.events.emit(s.tip(10));
		expect(s.reached).toHaveBeenCalledTimes(1);
		expect([...s.store.keys()]).toEqual([`tok:goal-reached:${OVERLAY}:100:`]);
		t.destroy();

		// A reload that reads the goal below the target again (an edit) and sees it crossed.
		s.server = { ...s.server, current: 95 };
		const again = s.make();
		await vi.advanceTimersByTimeAsync(1000);
		s.events.emit(s.tip(10));
		expect(again.view.goal?.current).toBe(105);
		expect(s.reached).toHaveBeenCalledTimes(1);
		again.destroy();
	});

	it('overlay.tip_goal.updated replaces the goal; overlay.reload re-reads it', async () => {
		const s = setup();
		const t = s.make();
		await vi.advanceTimersByTimeAsync(1000);
		s.events.emit({
			id: 'evt_u',
			type: 'overlay.tip_goal.updated',
			created_at: new Date().toISOString(),
			data: { overlay_id: OVERLAY, tip_goal: { ...s.server, title: 'Cam', current: 42 } }
		} as KnownEvent);
		expect(t.view.goal).toMatchObject({ title: 'Cam', current: 42 });
		s.server = { ...s.server, current: 60 };
		s.events.emit({
			id: 'evt_r',
			type: 'overlay.reload',
			created_at: new Date().toISOString(),
			data: { overlay_id: OVERLAY }
		} as KnownEvent);
		await vi.advanceTimersByTimeAsync(100);
		expect(t.view.goal?.current).toBe(60);
		t.destroy();
	});

	it('runs no timer while running without an end, and one aligned timer with an end', async () => {
		const s = setup();
		const t = s.make();
		await vi.advanceTimersByTimeAsync(1000);
		expect(vi.getTimerCount()).toBe(0);
		t.destroy();

		const s2 = setup({ ends_at: new Date(Date.now() + 1000 + 90_500).toISOString() });
		const t2 = s2.make();
		await vi.advanceTimersByTimeAsync(1000);
		expect(t2.view.goal?.countdown).toBe('1m');
		expect(vi.getTimerCount()).toBe(1);
		await vi.advanceTimersByTimeAsync(30_500);
		expect(t2.view.goal?.countdown).toBe('60s');
		await vi.advanceTimersByTimeAsync(60_001);
		expect(t2.view.goal?.state).toBe('ended');
		expect(vi.getTimerCount()).toBe(0);
		t2.destroy();
	});

	it('a disabled goal shows nothing', async () => {
		const s = setup({ enabled: false });
		const t = s.make();
		await vi.advanceTimersByTimeAsync(1000);
		expect(t.view.goal).toBeNull();
		t.destroy();
	});
});

describe('tip-goal URL parameters', () => {
	it('requires a key and an o_ overlay id, and names every bad parameter', () => {
		const r = parseTipGoalParams('?overlay=o_xyz&scale=9&color=url(x)');
		expect(r.ok).toBe(false);
		if (r.ok) return;
		expect(r.errors.map((e) => e.split(':')[0])).toEqual(['key', 'overlay', 'color', 'scale']);
	});

	it('parses a good URL with defaults', () => {
		const r = parseTipGoalParams(`?key=abcdefghijklmnop1234&overlay=${OVERLAY}&accent=ff0000`);
		expect(r.ok && r.value).toMatchObject({
			overlay: OVERLAY,
			accent: '#ff0000',
			scale: 1,
			position: 'bottom',
			debug: false
		});
	});
});
