// Each widget's applySettings: new parameters from the stored settings never cut what
// plays. The TTS card on screen keeps its look, theme and loudness, the next alert has the new ones;
// counters, lists and the tip goal change at once and read the upstream again only when what they
// show changed (a list's limit; a counter the overlay's settings must name).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/client/api.ts';
import type { AudioPort } from '../../src/client/audio-port.ts';
import { VolatileClaimMemory } from '../../src/client/claim-memory.ts';
import { EventHub } from '../../src/client/event-hub.ts';
import type { ObsBridge } from '../../src/client/obs.ts';
import type { KnownEvent, QueueTip } from '../../src/contract/index.ts';
import { CountersState } from '../../widgets/counters/counters.svelte.ts';
import { parseCountersParams } from '../../widgets/counters/params.ts';
import { LeaderboardState } from '../../widgets/leaderboard/leaderboard.svelte.ts';
import { parseLeaderboardParams } from '../../widgets/leaderboard/params.ts';
import { parseTipGoalParams } from '../../widgets/tip-goal/params.ts';
import { TipGoalTracker } from '../../widgets/tip-goal/tip-goal.svelte.ts';
import { parseTtsParams } from '../../widgets/tts/params.ts';
import { TtsPlayer } from '../../widgets/tts/tts-player.svelte.ts';
import { queueTip } from './contract-examples.ts';

const KEY = 'k'.repeat(20);
const A = 'tip_1725624000_aaaaaa';
const B = 'tip_1725624001_bbbbbb';

function must<T>(r: { ok: true; value: T } | { ok: false; errors: string[] }): T {
	if (!r.ok) throw new Error(r.errors.join('; '));
	return r.value;
}

const ttsParams = (q: string) => must(parseTtsParams(`?key=${KEY}&claim=always&tiers=off&${q}`));

/** A token endpoint with a TTS queue of read-aloud tips the test fills (`queue`). */
function ttsEndpoint() {
	const state = { queue: [] as QueueTip[], current: null as string | null };
	const json = (body: unknown, status = 200) =>
		new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
	const fetch = async (input: string): Promise<Response> => {
		const path = input.replace(/^\/api/, '');
		if (path === '/tts/queue')
			return json({
				is_paused: false,
				currently_playing: state.current !== null,
				current_order_id: state.current,
				items: state.queue
			});
		const [, id, verb] = /^\/tts\/([^/]+)\/(\w+)$/.exec(path) ?? [];
		const t = state.queue.find((q) => q.order_id === id);
		if (!t) return json({ error: 'gone', code: 'not_in_queue' }, 409);
		if (verb === 'start') {
			state.current = id;
			return json({ success: true, tip: t });
		}
		state.current = null;
		state.queue = state.queue.filter((q) => q !== t);
		return json({ success: true, tip: { ...t, played_at: t.queued_at } });
	};
	return { state, fetch };
}

const readTip = (id: string): QueueTip => ({
	...queueTip(),
	platform: 'twitch',
	order_id: id,
	message: `message of ${id}`,
	tts_url: `https://cdn.example.com/tts/${id}.mp3`,
	moderation: { outcome: 'read', message: 'shown' }
});

/** A sound card: each sound lasts 1 s; `played` lists (url, volume) of each. */
function fakeAudio() {
	const played: [string, number | undefined][] = [];
	const audio: AudioPort = {
		unlocked: true,
		preload: () => {},
		onUnlockChange: () => () => {},
		play(u, o) {
			played.push([u, o?.volume]);
			let stop = () => {};
			const done = new Promise<'ended' | 'stopped'>((resolve) => {
				const t = setTimeout(() => resolve('ended'), 1000);
				stop = () => (clearTimeout(t), resolve('stopped'));
			});
			return { done, started: Promise.resolve(true), duration: () => 1, position: () => 0, stop };
		}
	};
	return { audio, played };
}

const obs = {
	inObs: true,
	visible: true,
	active: true,
	activeKnown: true,
	controlLevel: 1,
	pluginVersion: 'test',
	subscribe: () => () => {},
	dispose: () => {}
} as unknown as ObsBridge;

describe('the TTS widget takes new settings from its next alert', () => {
	beforeEach(() => {
		vi.useFakeTimers();
		vi.spyOn(console, 'info').mockImplementation(() => {});
	});
	afterEach(() => {
		vi.useRealTimers();
		vi.restoreAllMocks();
	});

	it('the card on screen keeps its look, theme, sound and loudness; the next one has the new', async () => {
		const up = ttsEndpoint();
		const events = new EventHub();
		const { audio, played } = fakeAudio();
		const player = new TtsPlayer({
			api: new ApiClient({ overlayKey: KEY, fetch: up.fetch }),
			events,
			audio,
			obs,
			memory: new VolatileClaimMemory(),
			params: ttsParams('look=gold&sound=coin&volume=1&min_display=0&gap=0.5&position=top'),
			instance: 'test'
		});
		player.start();
		player.setConnection('open', '');
		events.resync();
		await vi.advanceTimersByTimeAsync(10);
		const tipEvent = (id: string) =>
			({
				id: `evt_${id}`,
				type: 'tip.created',
				data: { tip: readTip(id) }
			}) as unknown as KnownEvent;

		up.state.queue = [readTip(A)];
		events.emit(tipEvent(A));
		await vi.advanceTimersByTimeAsync(300);
		// A's card is up and its sound plays; then the streamer saves another look.
		expect(player.view.alert?.id).toBe(A);
		player.applySettings(
			ttsParams('look=neon&sound=none&volume=0.3&min_display=0&gap=0.5&position=bottom')
		);
		expect(player.view.alert?.style?.look).toBe('gold');
		expect(player.theme.position).toBe('top');
		// The voice after the sound: A's own loudness, not the new one.
		await vi.advanceTimersByTimeAsync(1500);
		expect(played).toEqual([
			['/sounds/coin.wav', 0.8],
			[`https://cdn.example.com/tts/${A}.mp3`, 1]
		]);
		expect(player.view.alert?.style?.look).toBe('gold');
		// A's card leaves (its exit animation ends): the theme follows the settings now.
		await vi.advanceTimersByTimeAsync(1000);
		expect(player.view.alertVisible).toBe(false);
		player.alertExited();
		expect(player.theme.position).toBe('bottom');

		up.state.queue = [readTip(B)];
		events.emit(tipEvent(B));
		await vi.advanceTimersByTimeAsync(1500);
		expect(player.view.alert?.id).toBe(B);
		expect(player.view.alert?.style?.look).toBe('neon');
		expect(played.slice(2)).toEqual([[`https://cdn.example.com/tts/${B}.mp3`, 0.3]]);
		player.destroy();
	});

	it('a save heard on the push channel reads nothing of the queue', async () => {
		let reads = 0;
		const up = ttsEndpoint();
		const events = new EventHub();
		const player = new TtsPlayer({
			api: new ApiClient({
				overlayKey: KEY,
				fetch: (input) => {
					if (input.endsWith('/tts/queue')) reads += 1;
					return up.fetch(input);
				}
			}),
			events,
			audio: fakeAudio().audio,
			obs,
			memory: new VolatileClaimMemory(),
			params: ttsParams(''),
			instance: 'test'
		});
		player.start();
		player.setConnection('open', '');
		events.resync();
		await vi.advanceTimersByTimeAsync(10);
		expect(reads).toBe(1);
		events.live({ type: 'settings', target: 'tts', version: 2 });
		await vi.advanceTimersByTimeAsync(500);
		expect(reads).toBe(1);
		// A decision still makes it read.
		events.live({ type: 'decision', order_id: A });
		await vi.advanceTimersByTimeAsync(500);
		expect(reads).toBe(2);
		player.destroy();
	});
});

/** A fake API for the reading widgets: every call answered, counted by route name. */
function readingApi(bodies: Record<string, unknown>) {
	const calls: { name: string; query?: unknown }[] = [];
	const api = {
		request: vi.fn(async (route: { name: string }, _p?: unknown, o?: { query?: unknown }) => {
			calls.push({ name: route.name, query: o?.query });
			if (route.name === 'me')
				return {
					ok: true,
					status: 200,
					body: { tenant: { currency: 'EUR', currency_symbol: '€' } }
				};
			return { ok: true, status: 200, body: bodies[route.name] ?? {} };
		})
	};
	const count = (name: string) => calls.filter((c) => c.name === name).length;
	return { api: api as never, calls, count };
}

const at = '2025-01-01T00:00:00.000Z';
const counter = (name: string, value: number) => ({ name, value, created_at: at, updated_at: at });

describe('counters, lists and the tip goal take new settings at once', () => {
	afterEach(() => vi.useRealTimers());

	async function counters(q: string) {
		vi.useFakeTimers();
		const up = readingApi({
			countersList: { counters: [counter('deaths', 3), counter('wins', 7)] },
			overlaysList: {
				overlays: [
					{
						id: 'o_1a2b3c4d',
						widgets: [{ id: 'w_x', type: 'counter', settings: { name: 'wins' } }]
					}
				]
			}
		});
		const events = new EventHub();
		const state = new CountersState({
			api: up.api,
			events,
			params: must(parseCountersParams(`?key=${KEY}&${q}`))
		});
		state.start();
		state.setConnection('open', '');
		events.resync();
		await vi.runAllTimersAsync();
		return { state, up };
	}

	it('counters: label, format and theme at once, another counter without reading again', async () => {
		const { state, up } = await counters('name=deaths&label=Deaths');
		const shown = () => state.shown.map((c) => `${state.labelOf(c.name)} ${c.value}`);
		expect(shown()).toEqual(['Deaths 3']);
		const reads = up.calls.length;
		state.applySettings(
			must(parseCountersParams(`?key=${KEY}&name=deaths&label=Tode&format=compact&color=red`))
		);
		expect(shown()).toEqual(['Tode 3']);
		expect([state.params.format, state.params.color]).toEqual(['compact', 'red']);
		state.applySettings(must(parseCountersParams(`?key=${KEY}&name=wins`)));
		expect(shown()).toEqual(['wins 7']);
		await vi.runAllTimersAsync();
		expect(up.calls.length).toBe(reads);
		state.destroy();
	});

	it("counters: without a name, the overlay widget's settings are read to pick the counter", async () => {
		const { state, up } = await counters('name=deaths&widget=w_x');
		expect(up.count('overlaysList')).toBe(0);
		state.applySettings(must(parseCountersParams(`?key=${KEY}&widget=w_x`)));
		await vi.runAllTimersAsync();
		expect(up.count('overlaysList')).toBe(1);
		expect(state.shown.map((c) => c.name)).toEqual(['wins']);
		state.destroy();
	});

	it('lists: the theme at once without a read; another limit is read', async () => {
		vi.useFakeTimers();
		const up = readingApi({ leaderboard: { supporters: [] } });
		const params = must(parseLeaderboardParams(`?key=${KEY}&limit=5`));
		const board = new LeaderboardState({
			api: up.api,
			events: new EventHub(),
			limit: params.limit,
			theme: params
		}).start();
		await vi.runAllTimersAsync();
		expect(up.count('leaderboard')).toBe(1);
		board.applySettings(must(parseLeaderboardParams(`?key=${KEY}&limit=5&position=bottom`)));
		await vi.runAllTimersAsync();
		expect(board.theme?.position).toBe('bottom');
		expect(up.count('leaderboard')).toBe(1);
		board.applySettings(must(parseLeaderboardParams(`?key=${KEY}&limit=10`)));
		await vi.runAllTimersAsync();
		expect(up.calls.filter((c) => c.name === 'leaderboard').map((c) => c.query)).toEqual([
			{ limit: 5 },
			{ limit: 10 }
		]);
		board.destroy();
	});

	it('the tip goal: the theme at once, the goal not read again', async () => {
		vi.useFakeTimers();
		const up = readingApi({
			tipGoalRead: {
				tip_goal: {
					enabled: true,
					title: 'Mic',
					amount: 100,
					current: 0,
					starts_at: null,
					ends_at: null
				}
			}
		});
		const goal = new TipGoalTracker({
			api: up.api,
			events: new EventHub(),
			overlayId: 'o_1a2b3c4d',
			memory: null,
			theme: must(parseTipGoalParams(`?key=${KEY}&overlay=o_1a2b3c4d`))
		}).start();
		await vi.runAllTimersAsync();
		const reads = up.calls.length;
		goal.applySettings(
			must(parseTipGoalParams(`?key=${KEY}&overlay=o_1a2b3c4d&accent=lime&scale=2`))
		);
		await vi.runAllTimersAsync();
		expect([goal.theme?.accent, goal.theme?.scale]).toEqual(['lime', 2]);
		expect(up.calls.length).toBe(reads);
		goal.destroy();
	});
});
