// Fault injection of the simulator (docs/simulator.md, Faults on demand): late and broken audio,
// a rival claim on the TTS and media queues, and clearing every fault, through both ways to
// steer it.
import { describe, expect, it } from 'vitest';
import { AlreadyPlayingBody, CLOSE_UNAUTHORIZED } from '../../src/contract/index.ts';
import { api, readyTip, RealtimeClient } from '../fixtures/sim.ts';
import {
	start,
	control,
	VIA,
	type Via,
	canConnect,
	bump,
	counterEvents,
	fetchAudio,
	isWav
} from './faults.setup.ts';

describe.each(VIA)('faults through %s', (via: Via) => {
	const handle = via === 'the control handle';

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
