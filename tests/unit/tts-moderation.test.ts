// The TTS widget obeys the token endpoint's moderation decisions (docs/moderation.md): the player
// (widgets/tts/tts-player.svelte.ts) on a fake token endpoint that annotates its tips, with a fake
// sound card and fake timers. A tip heard of by event is claimed at once but shown only as its
// start answered; held tips hold nothing back; `no_voice` is shown without a sound.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/client/api.ts';
import type { AudioPort } from '../../src/client/audio-port.ts';
import { VolatileClaimMemory } from '../../src/client/claim-memory.ts';
import { EventHub } from '../../src/client/event-hub.ts';
import type { ObsBridge, ObsState } from '../../src/client/obs.ts';
import type { KnownEvent, QueueTip, TipModeration } from '../../src/contract/index.ts';
import { parseTtsParams } from '../../widgets/tts/params.ts';
import { TtsPlayer } from '../../widgets/tts/tts-player.svelte.ts';
import { queueTip } from './contract-examples.ts';

const KEY = 'k'.repeat(20);
const A = 'tip_1725624000_aaaaaa';
const B = 'tip_1725624001_bbbbbb';
const url = (id: string) => `https://cdn.example.com/tts/${id}.mp3`;

/** A tip as the token endpoint hands it out: `outcome` undefined leaves `moderation` out. */
function tip(id: string, outcome?: TipModeration['outcome'], over: Partial<QueueTip> = {}) {
	const t: QueueTip = {
		...queueTip(),
		platform: 'twitch',
		order_id: id,
		message: `message of ${id}`,
		tts_url: url(id)
	};
	if (outcome) {
		t.moderation = { outcome, message: outcome === 'read' ? 'shown' : 'hidden' };
		if (outcome !== 'read') Object.assign(t, { tts_url: null, message: null });
	}
	return { ...t, ...over };
}

/** The token endpoint's /api/tts/* on a queue the test sets (`queue`), recording every call. */
function fakeEndpoint() {
	const state = {
		queue: [] as QueueTip[],
		current: null as string | null,
		/** The tip a start answers with (default: the queue's copy). */
		startTip: (t: QueueTip): QueueTip => t,
		calls: [] as string[]
	};
	const json = (body: unknown, status = 200) =>
		new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
	const fetch = async (input: string, init?: RequestInit): Promise<Response> => {
		const path = input.replace(/^\/api/, '');
		const [, id, verb] = /^\/tts\/([^/]+)\/(\w+)$/.exec(path) ?? [];
		if (path === '/tts/queue') {
			state.calls.push('queue');
			return json({
				is_paused: false,
				currently_playing: state.current !== null,
				current_order_id: state.current,
				items: state.queue
			});
		}
		if (!verb || init?.method !== 'POST') return json({ error: 'not here' }, 404);
		state.calls.push(`${verb} ${id}`);
		const t = state.queue.find((q) => q.order_id === id);
		if (!t) return json({ error: 'gone', code: 'not_in_queue' }, 409);
		if (verb === 'start') {
			const outcome = t.moderation?.outcome;
			if (outcome !== 'read' && outcome !== 'no_voice')
				return json({ error: 'held', code: 'held' }, 409);
			state.current = id;
			return json({ success: true, tip: state.startTip(t) });
		}
		state.current = null;
		if (verb === 'release') return json({ success: true, released: true, tip: t });
		state.queue = state.queue.filter((q) => q !== t);
		return json({ success: true, tip: { ...t, played_at: t.queued_at } });
	};
	return { state, fetch };
}

/** A sound card whose every sound lasts 1 s; `played` lists the URLs it was asked to play. */
function fakeAudio() {
	const played: string[] = [];
	const audio: AudioPort = {
		unlocked: true,
		preload: () => {},
		onUnlockChange: () => () => {},
		play(u) {
			played.push(u);
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

const obs: ObsBridge = (() => {
	const s: ObsState = {
		inObs: true,
		visible: true,
		active: true,
		activeKnown: true,
		controlLevel: 1,
		pluginVersion: 'test'
	};
	return { ...s, subscribe: (cb) => (cb(s), () => {}), dispose: () => {} };
})();

/** A started player (claim=always unless told otherwise) after its first queue read. */
async function startPlayer(
	endpoint: ReturnType<typeof fakeEndpoint>,
	claim = 'always',
	/** false: the realtime connection is not ready yet (no read). */
	connected = true,
	extra = ''
) {
	const parsed = parseTtsParams(`?key=${KEY}&min_display=1&gap=0&claim=${claim}${extra}`);
	if (!parsed.ok) throw new Error(parsed.errors.join());
	const events = new EventHub();
	const { audio, played } = fakeAudio();
	const player = new TtsPlayer({
		api: new ApiClient({ overlayKey: KEY, fetch: endpoint.fetch }),
		events,
		audio,
		obs,
		memory: new VolatileClaimMemory(),
		params: parsed.value,
		instance: 'test'
	});
	player.start();
	if (connected) {
		player.setConnection('open', '');
		events.resync();
	}
	await vi.advanceTimersByTimeAsync(10);
	const emit = (type: string, data: Record<string, unknown>) =>
		events.emit({ id: `evt_${type}_${Math.random()}`, type, data } as unknown as KnownEvent);
	/** Every alert the card showed, as (id, message). */
	const shown: [string, string | null][] = [];
	const watch = () => {
		const a = player.view.alert;
		if (a && shown.at(-1)?.[0] !== a.id) shown.push([a.id, a.message]);
	};
	return { player, events, played, emit, shown, watch };
}

/** Advances fake time in small steps, noting every card shown on the way. */
async function run(ms: number, watch: () => void): Promise<void> {
	for (let t = 0; t < ms; t += 50) {
		await vi.advanceTimersByTimeAsync(50);
		watch();
	}
}

describe('the TTS widget obeys moderation', () => {
	beforeEach(() => {
		vi.useFakeTimers();
		vi.spyOn(console, 'info').mockImplementation(() => {});
	});
	afterEach(() => {
		vi.useRealTimers();
		vi.restoreAllMocks();
	});

	it('a tip from an event is claimed at once without a read, and shows as its start answered', async () => {
		const up = fakeEndpoint();
		const p = await startPlayer(up);
		const reads = up.state.calls.filter((c) => c === 'queue').length;
		// The token endpoint decided it no_voice: its start answers with the masked message.
		up.state.queue = [tip(A, 'no_voice', { message: 'you •••••' })];
		p.emit('tip.created', { tip: tip(A, undefined, { message: 'you idiot' }) });
		// The event's copy is kept without its message or audio, even for a preload.
		const hint = p.player.claimState.items.find((i) => i.orderId === A)?.data;
		expect(hint?.message ?? null).toBeNull();
		expect(hint?.tts_url ?? null).toBeNull();
		await run(5000, p.watch);
		expect(up.state.calls.filter((c) => c === 'queue').length).toBe(reads);
		expect(up.state.calls).toContain(`start ${A}`);
		expect(p.shown).toEqual([[A, 'you •••••']]);
		expect(p.played).toEqual([]);
		p.player.destroy();
	});

	it('held and removed tips never hold back the next one', async () => {
		const up = fakeEndpoint();
		const p = await startPlayer(up);
		const C = 'tip_1725624002_cccccc';
		up.state.queue = [tip(A, 'hold'), tip(C, 'remove'), tip(B, 'read')];
		for (const id of [A, C, B]) p.emit('tip.created', { tip: tip(id) });
		// Well within the head wait (15 s) a tip in front would hold it back for.
		await run(3000, p.watch);
		expect(up.state.calls.filter((c) => c.startsWith('start'))).toEqual([
			`start ${A}`,
			`start ${C}`,
			`start ${B}`
		]);
		expect(p.shown.map(([id]) => id)).toEqual([B]);
		// Its voice only (after its tier's alert sound).
		expect(p.played.filter((u) => u.includes('/tts/'))).toEqual([url(B)]);
		// Read again after the refusals: the held and removed tips are left out of the queue.
		expect(p.player.claimState.items.map((i) => i.orderId)).not.toContain(A);
		p.player.destroy();
	});

	it('no_voice is shown with the message the token endpoint gave, without any sound', async () => {
		const up = fakeEndpoint();
		const p = await startPlayer(up);
		up.state.queue = [
			tip(A, 'no_voice', { message: '•••• you' }),
			tip(B, 'no_voice', { message: null })
		];
		p.emit('tip.created', { tip: tip(A) });
		p.emit('tip.created', { tip: tip(B) });
		await run(10_000, p.watch);
		expect(p.played).toEqual([]);
		expect(p.shown).toEqual([
			[A, '•••• you'],
			[B, null]
		]);
		expect(up.state.calls.filter((c) => c.startsWith('finish'))).toEqual([
			`finish ${A}`,
			`finish ${B}`
		]);
		p.player.destroy();
	});

	it('tip.tts_ready makes a tip from an event claimable, but only its start’s answer is played', async () => {
		const up = fakeEndpoint();
		const p = await startPlayer(up);
		up.state.queue = [tip(A, 'no_voice')];
		p.emit('tip.created', { tip: tip(A, undefined, { tts_url: null }) });
		await run(1000, p.watch);
		expect(up.state.calls.some((c) => c.startsWith('start'))).toBe(false);
		p.emit('tip.tts_ready', { order_id: A, tts_url: url(A) });
		await run(5000, p.watch);
		expect(up.state.calls).toContain(`start ${A}`);
		expect(p.shown).toEqual([[A, null]]);
		expect(p.played).toEqual([]);
		p.player.destroy();
	});

	it('a tip the token endpoint could not decide is read again until decided, then played', async () => {
		const up = fakeEndpoint();
		const p = await startPlayer(up);
		up.state.queue = [tip(A, 'pending')];
		p.emit('tip.created', { tip: tip(A) });
		await run(1000, p.watch);
		const reads = () => up.state.calls.filter((c) => c === 'queue').length;
		const before = reads();
		// No event and no push message: the widget reads again by itself.
		up.state.queue = [tip(A, 'read')];
		await run(5000, p.watch);
		expect(reads()).toBeGreaterThan(before);
		expect(p.played).toContain(url(A));
		// Decided: nothing is read any more while nothing happens.
		const settled = reads();
		await run(60_000, () => {});
		expect(reads()).toBe(settled);
		p.player.destroy();
	});

	it('a start answered with a tip that has no decision is not played, and given back', async () => {
		const up = fakeEndpoint();
		up.state.startTip = (t) => ({ ...t, moderation: undefined });
		const p = await startPlayer(up);
		up.state.queue = [tip(A, 'read')];
		p.events.live({ type: 'hello' });
		await run(2000, p.watch);
		expect(up.state.calls).toContain(`start ${A}`);
		expect(up.state.calls).toContain(`release ${A}`);
		expect(p.played).toEqual([]);
		expect(p.shown).toEqual([]);
		p.player.destroy();
	});

	it('every push message reads the queue, but a hello before any read adds none', async () => {
		const up = fakeEndpoint();
		const p = await startPlayer(up, 'always', false);
		const reads = () => up.state.calls.filter((c) => c === 'queue').length;
		p.events.live({ type: 'hello' });
		await run(500, p.watch);
		expect(reads()).toBe(0);
		p.events.resync();
		await run(500, p.watch);
		expect(reads()).toBe(1);
		for (const type of ['hello', 'resync', 'decision', 'rules'] as const) {
			p.events.live({ type });
			await run(500, p.watch);
		}
		expect(reads()).toBe(5);
		p.player.destroy();
	});

	it('a spectator shows the started tip as the queue read gave it out, never the event copy', async () => {
		const up = fakeEndpoint();
		const p = await startPlayer(up, 'never');
		up.state.queue = [tip(A, 'no_voice', { message: '•• masked' })];
		up.state.current = A;
		p.emit('queue.tts.started', { order_id: A, tip: tip(A, undefined, { message: 'raw' }) });
		await run(500, p.watch);
		expect(p.shown).toEqual([[A, '•• masked']]);
		expect(up.state.calls.some((c) => c.startsWith('start'))).toBe(false);
		p.player.destroy();
	});
	it('the debug panel counts only the tips the token endpoint could not decide as awaiting', async () => {
		const up = fakeEndpoint();
		const p = await startPlayer(up, 'always', true, '&debug=1');
		const awaiting = () =>
			p.player.view.debug?.extra?.find(([k]) => k === 'awaiting a decision')?.[1];
		// A tip heard of by event is claimed as soon as its audio is ready: it waits for nothing.
		up.state.queue = [tip(A, 'read')];
		p.emit('tip.created', { tip: tip(A, undefined, { tts_url: null }) });
		await run(100, p.watch);
		expect(awaiting()).toBe('0');
		up.state.queue = [tip(A, 'pending')];
		p.events.live({ type: 'decision', order_id: A });
		await run(100, p.watch);
		expect(awaiting()).toBe('1');
		p.player.destroy();
	});
});
