// The dock's rune class (widgets/dock/dock.svelte.ts) with a fake control client and fake timers:
// reads after a (re)connect with the events that came meanwhile on top, one debounced re-read for
// events it cannot apply, and actions one at a time per button, followed by their event or a read.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KnownEvent, QueueTip } from '../../src/contract/index.ts';
import type { SendResult } from '../../widgets/dock/actions.ts';
import type { ControlClient, ReadResult } from '../../widgets/dock/control-client.ts';
import { DockState } from '../../widgets/dock/dock.svelte.ts';
import type { Snapshot } from '../../widgets/dock/dock-model.ts';
import { queueTip } from './contract-examples.ts';

const T0 = '2026-12-01T20:00:00.000Z';

function tip(n: number): QueueTip {
	return {
		...queueTip(),
		order_id: `tip_${n}_aa`,
		name: `Viewer ${n}`,
		amount: n,
		message: null,
		tts_url: null,
		platform: null,
		platform_user_id: null,
		queued_at: T0
	};
}

let eventId = 0;
const event = (type: string, data: unknown) =>
	({ id: `evt_${++eventId}`, type, created_at: T0, data }) as KnownEvent;

function deferred<T>() {
	let resolve!: (value: T) => void;
	const promise = new Promise<T>((r) => (resolve = r));
	return { promise, resolve };
}

/** The upstream as the fake client reads it; `gate`, when set, holds every read until opened. */
function setup() {
	const server = { tts: [] as QueueTip[], paused: false };
	let gate: Promise<void> | null = null;
	const reads: Snapshot[] = [];
	const snapshot = (s: Snapshot): ReadResult => {
		const queue = { is_paused: server.paused, currently_playing: false, current_order_id: null };
		switch (s) {
			case 'tts':
				return { ok: true, read: { snapshot: s, body: { ...queue, items: [...server.tts] } } };
			case 'media':
				return { ok: true, read: { snapshot: s, body: { ...queue, visible: true, items: [] } } };
			case 'ttsHistory':
				return {
					ok: true,
					read: { snapshot: s, body: { tips: [] } }
				};
			case 'mediaHistory':
				return {
					ok: true,
					read: { snapshot: s, body: { media: [] } }
				};
			case 'tipping':
				return { ok: true, read: { snapshot: s, body: { accepting: true } } };
		}
	};
	const client = {
		onRefused: null,
		api: {
			request: vi.fn(async () => ({
				ok: true,
				status: 200,
				body: { tenant: { currency: 'USD', currency_symbol: '$' } }
			}))
		},
		read: vi.fn(async (s: Snapshot) => {
			reads.push(s);
			if (gate) await gate;
			return snapshot(s);
		}),
		act: vi.fn<(...args: unknown[]) => Promise<SendResult>>(),
		// The Counters and Tip goal sections' reads (show.svelte.ts): not what these tests are about.
		readCounters: vi.fn(async () => ({ ok: false, kind: 'network', error: 'offline' })),
		readOverlays: vi.fn(async () => ({ ok: false, kind: 'network', error: 'offline' }))
	};
	const dock = new DockState({ client: client as unknown as ControlClient });
	return {
		server,
		client,
		dock,
		reads,
		hold() {
			const d = deferred<void>();
			gate = d.promise;
			return () => {
				gate = null;
				d.resolve();
			};
		}
	};
}

const ids = (items: { order_id: string }[] | undefined) => items?.map((i) => i.order_id);

beforeEach(() => {
	vi.useFakeTimers();
});
afterEach(() => {
	vi.useRealTimers();
});

describe('the dock state', () => {
	it('reads every snapshot after a connect, and keeps an event that came during the read', async () => {
		const t = setup();
		const open = t.hold();
		t.dock.resync();
		await vi.advanceTimersByTimeAsync(0);
		expect(t.reads.sort()).toEqual(['media', 'mediaHistory', 'tipping', 'tts', 'ttsHistory']);
		// The read was answered before this tip existed; its event arrives while the read runs.
		t.dock.apply(event('tip.created', { tip: tip(1) }));
		open();
		await vi.advanceTimersByTimeAsync(0);
		expect(ids(t.dock.model.tts?.items)).toEqual(['tip_1_aa']);
		expect(t.dock.currency?.symbol).toBe('$');
		expect(t.dock.model.accepting).toBe(true);
	});

	it('reads the queue once, a moment later, for a burst of events it cannot apply', async () => {
		const t = setup();
		t.dock.resync();
		await vi.advanceTimersByTimeAsync(0);
		t.reads.length = 0;
		t.server.tts = [tip(7)];
		t.dock.apply(event('queue.tts.skipped', { order_id: 'tip_404_zz' }));
		t.dock.apply(event('queue.tts.removed', { order_id: 'tip_405_zz' }));
		expect(t.reads).toEqual([]);
		await vi.advanceTimersByTimeAsync(1000);
		expect(t.reads).toEqual(['tts']);
		expect(ids(t.dock.model.tts?.items)).toEqual(['tip_7_aa']);
	});

	it('runs one action per button at a time, with the button busy until the answer', async () => {
		const t = setup();
		t.dock.resync();
		await vi.advanceTimersByTimeAsync(0);
		const answer = deferred<SendResult>();
		t.client.act.mockReturnValueOnce(answer.promise);
		const first = t.dock.act('tts-pause', 'tts-pause');
		void t.dock.act('tts-pause', 'tts-pause');
		expect(t.client.act).toHaveBeenCalledTimes(1);
		expect(t.dock.busy['tts-pause']).toBe(true);
		answer.resolve({ ok: true, status: 200, body: { outcome: 'done', message: 'paused' } });
		await first;
		expect(t.dock.busy['tts-pause']).toBe(false);
		expect(t.dock.outcomes['tts-pause']).toMatchObject({ kind: 'done', text: 'paused' });
	});

	it('after an action, follows its event, or reads the snapshot when none comes', async () => {
		const t = setup();
		t.dock.resync();
		await vi.advanceTimersByTimeAsync(0);
		const done: SendResult = { ok: true, status: 200, body: { outcome: 'done', message: 'ok' } };

		// The event comes: the dock shows it and reads nothing.
		t.reads.length = 0;
		t.client.act.mockResolvedValueOnce(done);
		await t.dock.act('tts-pause', 'tts-pause');
		t.dock.apply(event('queue.tts.paused', { is_paused: true }));
		await vi.advanceTimersByTimeAsync(5000);
		expect(t.reads).toEqual([]);
		expect(t.dock.model.tts?.paused).toBe(true);

		// No event comes (lost): the dock reads the queue and shows the truth.
		t.server.paused = false;
		t.client.act.mockResolvedValueOnce(done);
		await t.dock.act('tts-pause', 'tts-resume');
		await vi.advanceTimersByTimeAsync(5000);
		expect(t.reads).toEqual(['tts']);
		expect(t.dock.model.tts?.paused).toBe(false);
	});

	it('reads again at once when the upstream could not be reached, and says try again', async () => {
		const t = setup();
		t.dock.resync();
		await vi.advanceTimersByTimeAsync(0);
		t.reads.length = 0;
		t.client.act.mockResolvedValueOnce({
			ok: false,
			kind: 'http',
			status: 503,
			code: 'upstream_unavailable',
			body: { error: 'upstream unavailable', code: 'upstream_unavailable' }
		});
		await t.dock.act('media-skip', 'media-skip', 'med_1_bb');
		await vi.advanceTimersByTimeAsync(0);
		expect(t.dock.outcomes['media-skip']).toMatchObject({ kind: 'unreachable' });
		expect(t.dock.outcomes['media-skip'].text).toMatch(/try again/);
		expect(t.reads).toEqual(['media']);
	});
});
