// Fault injection of the simulator (docs/simulator.md, Faults on demand): every fault does what it says, through
// the in-process handle `sim.control` and through the HTTP control API under {origin}/_sim.
import { afterEach, describe, expect, it } from 'vitest';
import {
	AlreadyPlayingBody,
	CLOSE_UNAUTHORIZED,
	RateLimitedBody,
	TtsQueueBody
} from '../../src/contract/index.ts';
import type { StartOptions } from '../../src/sim/index.ts';
import { api, readyTip, RealtimeClient, until, withSim, type Sim } from '../fixtures/sim.ts';

let sims: Sim[] = [];
async function start(options: StartOptions = {}): Promise<Sim> {
	const sim = await withSim(options);
	sims.push(sim);
	return sim;
}
afterEach(async () => {
	await Promise.all(sims.map((s) => s.close()));
	sims = [];
});

/** POST {origin}/_sim/<path> with a JSON body. */
async function control(sim: Sim, path: string, body: unknown = {}): Promise<any> {
	const res = await fetch(`${sim.origin}/_sim/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body)
	});
	expect(res.status, `POST /_sim/${path}`).toBeLessThan(300);
	return res.json();
}

/** The two ways to steer the simulator; every fault is tested through both. */
const VIA = ['the control handle', 'the HTTP control API'] as const;
type Via = (typeof VIA)[number];

/** Whether a WebSocket to the simulator can be opened right now. */
async function canConnect(sim: Sim): Promise<boolean> {
	try {
		const client = await RealtimeClient.open(sim);
		client.close();
		return true;
	} catch {
		return false;
	}
}

/** A counter bump straight on the model: one event, emitted synchronously, no HTTP involved. */
function bump(sim: Sim, name = 'deaths'): number {
	return sim.control.model.incrementCounter(name, 1).value;
}

function counterEvents(client: RealtimeClient): any[] {
	return client.events('counter.updated');
}

async function fetchAudio(
	url: string
): Promise<{ status: number; type: string | null; bytes: Buffer }> {
	const res = await fetch(url);
	return {
		status: res.status,
		type: res.headers.get('content-type'),
		bytes: Buffer.from(await res.arrayBuffer())
	};
}

const isWav = (bytes: Buffer) =>
	bytes.length > 44 &&
	bytes.toString('latin1', 0, 4) === 'RIFF' &&
	bytes.toString('latin1', 8, 12) === 'WAVE';

describe.each(VIA)('faults through %s', (via: Via) => {
	const handle = via === 'the control handle';

	it('dropSockets kills every socket without a 4401 close', async () => {
		const sim = await start();
		const a = await RealtimeClient.connect(sim);
		const b = await RealtimeClient.connect(sim);
		if (handle) expect(sim.control.dropSockets()).toBe(2);
		else expect(await control(sim, 'faults/drop')).toMatchObject({ success: true, dropped: 2 });
		for (const client of [a, b]) {
			const code = await client.closed();
			expect(code).not.toBe(CLOSE_UNAUTHORIZED);
			// No close frame: the client sees an abnormal closure, and no error message came first.
			expect(code).toBe(1006);
			expect(client.messages.some((m) => m.type === 'error')).toBe(false);
		}
		// Without refuse_ms a reconnect works at once.
		const again = await RealtimeClient.connect(sim);
		expect(again.messages[0].type).toBe('ready');
	});

	it('dropSockets with refuseMs refuses new connections until the time has passed', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		const refuseMs = 800;
		const droppedAt = Date.now();
		if (handle) sim.control.dropSockets(refuseMs);
		else await control(sim, 'faults/drop', { refuse_ms: refuseMs });
		expect(await client.closed()).not.toBe(CLOSE_UNAUTHORIZED);

		expect(await canConnect(sim)).toBe(false);
		let connected = false;
		const deadline = Date.now() + 15_000;
		while (!connected && Date.now() < deadline) {
			connected = await canConnect(sim);
			if (!connected) await new Promise((r) => setTimeout(r, 50));
		}
		expect(connected).toBe(true);
		expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(refuseMs);
		const after = await RealtimeClient.connect(sim);
		expect(after.messages[0].type).toBe('ready');
	});

	it('duplicateEvents sends the same event id twice, then delivery is normal again', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		if (handle) sim.control.duplicateEvents(1);
		else await control(sim, 'faults/events', { duplicate: 1 });

		const first = bump(sim);
		await until(() => counterEvents(client).length >= 2);
		const [one, two] = counterEvents(client);
		expect(two.id).toBe(one.id);
		expect(two).toEqual(one);
		expect(one.data.counter.value).toBe(first);

		// The fault covered one event: the next one arrives once (a later sentinel proves it).
		const second = bump(sim);
		const sentinel = bump(sim);
		await client.next((m) => m.type === 'counter.updated' && m.data.counter.value === sentinel);
		const seconds = counterEvents(client).filter((e) => e.data.counter.value === second);
		expect(seconds).toHaveLength(1);
	});

	it('reorderEvents delivers two consecutive events swapped', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		if (handle) sim.control.reorderEvents(1);
		else await control(sim, 'faults/events', { reorder: 1 });

		const a = bump(sim);
		const b = bump(sim);
		await until(() => counterEvents(client).length >= 2);
		expect(counterEvents(client).map((e) => e.data.counter.value)).toEqual([b, a]);

		// Then the order is normal again.
		const c = bump(sim);
		const d = bump(sim);
		await until(() => counterEvents(client).length >= 4);
		expect(counterEvents(client).map((e) => e.data.counter.value)).toEqual([b, a, c, d]);
	});

	it('reorderEvents never holds an event forever when nothing follows it', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		if (handle) sim.control.reorderEvents(1);
		else await control(sim, 'faults/events', { reorder: 1 });
		const only = bump(sim);
		const event = await client.next((m) => m.type === 'counter.updated', 10_000);
		expect(event.data.counter.value).toBe(only);
	});

	it('delayEvents makes an event arrive late, after events emitted later', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		const delayMs = 600;
		if (handle) sim.control.delayEvents(1, delayMs);
		else await control(sim, 'faults/events', { delay: 1, delay_ms: delayMs });

		const emittedAt = Date.now();
		const late = bump(sim);
		const prompt = bump(sim);
		await client.next((m) => m.type === 'counter.updated' && m.data.counter.value === late, 10_000);
		const arrivedAfter = Date.now() - emittedAt;
		expect(counterEvents(client).map((e) => e.data.counter.value)).toEqual([prompt, late]);
		// Timers never fire early by more than a tick; the bound is loose on purpose.
		expect(arrivedAfter).toBeGreaterThanOrEqual(delayMs - 50);
	});

	it('failHttp 429 answers N requests with 429, RateLimit headers and an error-only body', async () => {
		const sim = await start();
		if (handle) sim.control.failHttp({ status: 429, count: 2 });
		else await control(sim, 'faults/http', { status: 429, count: 2 });

		for (let i = 0; i < 2; i++) {
			const res = await api(sim, 'GET', '/tts/queue');
			expect(res.status).toBe(429);
			expect(Object.keys(res.body)).toEqual(['error']);
			expect(RateLimitedBody.safeParse(res.body).success).toBe(true);
			for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
				expect(res.headers.get(h), h).toMatch(/^\d+$/);
		}
		const ok = await api(sim, 'GET', '/tts/queue');
		expect(ok.status).toBe(200);
		expect(TtsQueueBody.safeParse(ok.body).success).toBe(true);
	});

	it('failHttp 502 answers N requests with 502, then normal service', async () => {
		const sim = await start();
		if (handle) sim.control.failHttp({ status: 502, count: 3 });
		else await control(sim, 'faults/http', { status: 502, count: 3 });
		const statuses: number[] = [];
		for (let i = 0; i < 4; i++) statuses.push((await api(sim, 'GET', '/me')).status);
		expect(statuses).toEqual([502, 502, 502, 200]);
	});

	it('failHttp with a duration fails every request until the time has passed', async () => {
		const sim = await start();
		const forMs = 600;
		const setAt = Date.now();
		if (handle) sim.control.failHttp({ status: 502, forMs });
		else await control(sim, 'faults/http', { status: 502, for_ms: forMs });

		const statuses: number[] = [];
		const deadline = Date.now() + 15_000;
		while (Date.now() < deadline) {
			const status = (await api(sim, 'GET', '/tts/queue')).status;
			statuses.push(status);
			if (status === 200) break;
			await new Promise((r) => setTimeout(r, 50));
		}
		expect(statuses[0]).toBe(502);
		expect(statuses.at(-1)).toBe(200);
		expect(statuses.slice(0, -1).every((s) => s === 502)).toBe(true);
		expect(Date.now() - setAt).toBeGreaterThanOrEqual(forMs);
		// And it stays normal.
		expect((await api(sim, 'GET', '/tts/queue')).status).toBe(200);
	});

	it('failHttp limited to a path prefix fails only matching calls', async () => {
		const sim = await start();
		if (handle) sim.control.failHttp({ status: 502, count: 2, match: '/tts/' });
		else await control(sim, 'faults/http', { status: 502, count: 2, match: '/tts/' });

		expect((await api(sim, 'GET', '/media/queue')).status).toBe(200);
		expect((await api(sim, 'GET', '/me')).status).toBe(200);
		expect((await api(sim, 'GET', '/tts/queue')).status).toBe(502);
		expect((await api(sim, 'GET', '/counters')).status).toBe(200);
		expect((await api(sim, 'GET', '/tts/history')).status).toBe(502);
		// The count is spent on matching calls only; then the prefix works again.
		expect((await api(sim, 'GET', '/tts/queue')).status).toBe(200);
	});

	it('an injected HTTP failure still demands a valid credential first', async () => {
		const sim = await start();
		if (handle) sim.control.failHttp({ status: 502, count: 1 });
		else await control(sim, 'faults/http', { status: 502, count: 1 });
		expect((await api(sim, 'GET', '/me', { key: null })).status).toBe(401);
		expect((await api(sim, 'GET', '/me')).status).toBe(502);
	});

	it('delayAudio keeps tts_url null for longer', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		const delayMs = 1200;
		if (handle) sim.control.delayAudio(delayMs);
		else await control(sim, 'faults/audio', { delay_ms: delayMs });

		const createdAt = Date.now();
		const res = await api(sim, 'POST', '/tips', {
			body: { name: 'Slow', amount: 1, message: 'hi' }
		});
		const orderId = res.body.tip.order_id;
		expect(res.body.tip.tts_url).toBeNull();
		const queue = await api(sim, 'GET', '/tts/queue');
		const item = queue.body.items.find((t: any) => t.order_id === orderId);
		expect(item.tts_url).toBeNull();

		const ready = await client.next(
			(m) => m.type === 'tip.tts_ready' && m.data.order_id === orderId,
			20_000
		);
		expect(Date.now() - createdAt).toBeGreaterThanOrEqual(delayMs - 50);
		const audio = await fetchAudio(ready.data.tts_url);
		expect(audio.status).toBe(200);
		expect(isWav(audio.bytes)).toBe(true);
	}, 30_000);

	it("breakNextAudio 'missing' makes the next tip's tts_url answer 404, and only the next", async () => {
		const sim = await start();
		if (handle) sim.control.breakNextAudio(1, 'missing');
		else await control(sim, 'faults/audio', { break_next: 1, mode: 'missing' });

		const broken = await readyTip(sim, { message: 'broken one' });
		const fine = await readyTip(sim, { message: 'fine one' });
		expect(broken.tts_url).toMatch(/^http/);
		expect((await fetchAudio(broken.tts_url)).status).toBe(404);
		const audio = await fetchAudio(fine.tts_url);
		expect(audio.status).toBe(200);
		expect(audio.type).toMatch(/^audio\/wav/);
		expect(isWav(audio.bytes)).toBe(true);
	}, 30_000);

	it("breakNextAudio 'corrupt' makes the tts_url answer 200 with bytes that are not audio", async () => {
		const sim = await start();
		if (handle) sim.control.breakNextAudio(1, 'corrupt');
		else await control(sim, 'faults/audio', { break_next: 1, mode: 'corrupt' });

		const broken = await readyTip(sim, { message: 'corrupt one' });
		const audio = await fetchAudio(broken.tts_url);
		expect(audio.status).toBe(200);
		expect(isWav(audio.bytes)).toBe(false);
	}, 30_000);

	it.each(['missing', 'corrupt'] as const)(
		"breakAudio '%s' breaks the audio of one named order",
		async (mode) => {
			const sim = await start();
			const victim = await readyTip(sim, { message: 'victim' });
			const bystander = await readyTip(sim, { message: 'bystander' });
			expect(isWav((await fetchAudio(victim.tts_url)).bytes)).toBe(true);

			if (handle) sim.control.breakAudio(victim.order_id, mode);
			else await control(sim, 'faults/audio', { order_id: victim.order_id, mode });

			const audio = await fetchAudio(victim.tts_url);
			if (mode === 'missing') expect(audio.status).toBe(404);
			else {
				expect(audio.status).toBe(200);
				expect(isWav(audio.bytes)).toBe(false);
			}
			const other = await fetchAudio(bystander.tts_url);
			expect(other.status).toBe(200);
			expect(isWav(other.bytes)).toBe(true);
		},
		30_000
	);

	it('holdRivalClaim on the TTS queue answers already_playing with the rival order, then releases it', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		const head = await readyTip(sim, { name: 'Head', message: 'first' });
		const next = await readyTip(sim, { name: 'Next', message: 'second' });
		const forMs = 700;
		let rivalOrder: string;
		if (handle) rivalOrder = sim.control.holdRivalClaim('tts', { forMs });
		else
			rivalOrder = (await control(sim, 'faults/rival', { queue: 'tts', for_ms: forMs })).order_id;
		expect(rivalOrder).toBe(head.order_id);

		const started = await client.next((m) => m.type === 'queue.tts.started');
		expect(started.data.order_id).toBe(head.order_id);
		for (const orderId of [head.order_id, next.order_id]) {
			const res = await api(sim, 'POST', `/tts/${orderId}/start`);
			expect(res.status).toBe(409);
			expect(res.body).toMatchObject({ code: 'already_playing', current_order_id: head.order_id });
			expect(AlreadyPlayingBody.safeParse(res.body).success).toBe(true);
		}
		const queue = await api(sim, 'GET', '/tts/queue');
		expect(queue.body).toMatchObject({ currently_playing: true, current_order_id: head.order_id });

		const released = await client.next((m) => m.type === 'queue.tts.released', 10_000);
		expect(released.data).toEqual({ order_id: head.order_id });
		const res = await api(sim, 'POST', `/tts/${head.order_id}/start`);
		expect(res.status).toBe(200);
		expect(res.body.tip.order_id).toBe(head.order_id);
	}, 30_000);

	it('holdRivalClaim on the media queue answers already_playing, then releases it', async () => {
		const sim = await start();
		const client = await RealtimeClient.connect(sim);
		const queued = await api(sim, 'POST', '/media/queue', {
			body: { url: 'https://youtu.be/dQw4w9WgXcQ' }
		});
		expect(queued.status).toBe(201);
		const orderId = queued.body.media.order_id;
		const forMs = 700;
		if (handle) sim.control.holdRivalClaim('media', { orderId, forMs });
		else await control(sim, 'faults/rival', { queue: 'media', order_id: orderId, for_ms: forMs });

		const res = await api(sim, 'POST', `/media/${orderId}/start`);
		expect(res.status).toBe(409);
		expect(res.body).toMatchObject({ code: 'already_playing', current_order_id: orderId });
		const released = await client.next((m) => m.type === 'queue.media.released', 10_000);
		expect(released.data).toEqual({ order_id: orderId });
		expect((await api(sim, 'POST', `/media/${orderId}/start`)).status).toBe(200);
	});

	it('clearFaults restores normal behaviour', async () => {
		const sim = await start();
		const head = await readyTip(sim, { message: 'waiting' });
		const client = await RealtimeClient.connect(sim);
		sim.control.failHttp({ status: 429, count: 100 });
		sim.control.duplicateEvents(10);
		sim.control.delayEvents(10, 5_000);
		sim.control.delayAudio(60_000);
		sim.control.breakNextAudio(10, 'missing');
		sim.control.holdRivalClaim('tts');
		sim.control.dropSockets(60_000);
		expect(await client.closed()).not.toBe(CLOSE_UNAUTHORIZED);
		expect((await api(sim, 'GET', '/me')).status).toBe(429);
		expect(await canConnect(sim)).toBe(false);

		if (handle) sim.control.clearFaults();
		else expect(await control(sim, 'faults/clear')).toEqual({ success: true });

		expect((await api(sim, 'GET', '/me')).status).toBe(200);
		const fresh = await RealtimeClient.connect(sim);
		expect(fresh.messages[0].type).toBe('ready');
		// Events arrive once and at once: the sentinel follows the first event without delay.
		const first = bump(sim);
		const sentinel = bump(sim);
		await fresh.next((m) => m.type === 'counter.updated' && m.data.counter.value === sentinel);
		expect(counterEvents(fresh).map((e) => e.data.counter.value)).toEqual([first, sentinel]);
		// Audio renders promptly and plays.
		const tip = await readyTip(sim, { message: 'after the storm' });
		const audio = await fetchAudio(tip.tts_url);
		expect(audio.status).toBe(200);
		expect(isWav(audio.bytes)).toBe(true);
		// The rival's claim is gone: the consumer can claim the head.
		const started = await api(sim, 'POST', `/tts/${head.order_id}/start`);
		expect(started.status).toBe(200);
	}, 30_000);
});

describe('the request log', () => {
	it('sim.control.log records method, path and status of every API call', async () => {
		const sim = await start();
		const key = sim.control.addKey({ scopes: ['tts:read'] });
		await api(sim, 'GET', '/tts/queue');
		await api(sim, 'GET', '/tts/queue', { key: null });
		await api(sim, 'POST', '/counters/deaths/increment', { key: key.value });
		await api(sim, 'POST', '/tts/tip_1_nope/start');
		sim.control.failHttp({ status: 429, count: 1 });
		await api(sim, 'GET', '/me');

		const rows = sim.control.log
			.requests()
			.map(({ method, path, status }) => ({ method, path, status }));
		expect(rows).toEqual([
			{ method: 'GET', path: '/tts/queue', status: 200 },
			{ method: 'GET', path: '/tts/queue', status: 401 },
			{ method: 'POST', path: '/counters/deaths/increment', status: 403 },
			{ method: 'POST', path: '/tts/tip_1_nope/start', status: 404 },
			{ method: 'GET', path: '/me', status: 429 }
		]);
		const [, unauthorized, forbidden] = sim.control.log.requests();
		expect(unauthorized.code).toBe('missing_api_key');
		expect(forbidden).toMatchObject({ code: 'missing_scope', key: key.id });
	});

	it('GET /_sim/log returns API calls and events, and since=N returns only newer entries', async () => {
		const sim = await start();
		const tip = await api(sim, 'POST', '/tips', { body: { name: 'Ada', amount: 2 } });
		const all = await (await fetch(`${sim.origin}/_sim/log`)).json();
		const requests = all.entries.filter((e: any) => e.kind === 'request');
		expect(requests).toEqual([
			expect.objectContaining({
				method: 'POST',
				path: '/tips',
				status: 201,
				seq: expect.any(Number)
			})
		]);
		const created = all.entries.find((e: any) => e.kind === 'event' && e.type === 'tip.created');
		expect(created).toMatchObject({
			id: expect.stringMatching(/^evt_/),
			order_id: tip.body.tip.order_id
		});

		const last = Math.max(...all.entries.map((e: any) => e.seq));
		await api(sim, 'GET', '/counters');
		const newer = await (await fetch(`${sim.origin}/_sim/log?since=${last}`)).json();
		const newerRequests = newer.entries.filter((e: any) => e.kind === 'request');
		expect(newerRequests.map((e: any) => [e.method, e.path, e.status])).toEqual([
			['GET', '/counters', 200]
		]);
		expect(newer.entries.every((e: any) => e.seq > last)).toBe(true);
	});
});
