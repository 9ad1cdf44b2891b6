// The TTS claim protocol over real HTTP (docs/claim-protocol.md, the upstream's protocol;
// docs/upstream.md, the TTS calls and the open details), row by row: start, finish,
// release. The queue controls are in tts-claim.queue.test.ts.
import { describe, expect, it } from 'vitest';
import {
	AlreadyPlayingBody,
	PausedBody,
	TtsFinishBody,
	TtsHistoryBody,
	TtsReleaseBody,
	TtsStartBody
} from '../../src/contract/index.ts';
import { expectBody, expectError, nextEvent, settle } from '../fixtures/contract-checks.ts';
import { api } from '../fixtures/sim.ts';
import { sim, rt, tip, queue, ids, start, finish, release, play } from './tts-claim.setup.ts';

describe('starting a tip (claiming the playing slot)', () => {
	it('claims a queued tip, returns it and announces queue.tts.started', async () => {
		const a = await tip();
		const body = expectBody(await start(a.order_id), 200, TtsStartBody);
		expect(body.success).toBe(true);
		expect(body.tip.order_id).toBe(a.order_id);
		expect(body.tip.message).toBe('hello stream');

		const q = await queue();
		expect(q.currently_playing).toBe(true);
		expect(q.current_order_id).toBe(a.order_id);
		// docs/upstream.md: the claimed item stays in `items` at its position until it leaves.
		expect(ids(q.items)).toEqual([a.order_id]);

		const event = await nextEvent(rt, 'queue.tts.started', (d) => d.order_id === a.order_id);
		expect(event.data.tip.order_id).toBe(a.order_id);
		expect(event.actor).toMatchObject({ type: 'api_key' });
		expect(sim.control.log.events('queue.tts.started').map((e) => e.order_id)).toEqual([
			a.order_id
		]);
	});

	it('is refused with queue_paused while the queue is paused, and the tip stays queued', async () => {
		const a = await tip();
		expectBody(await api(sim, 'POST', '/tts/pause'), 200, PausedBody);
		expectError(await start(a.order_id), 409, 'queue_paused');

		const q = await queue();
		expect(q.is_paused).toBe(true);
		expect(q.currently_playing).toBe(false);
		expect(q.current_order_id).toBeNull();
		expect(ids(q.items)).toEqual([a.order_id]);
		expect(sim.control.log.events('queue.tts.started')).toHaveLength(0);
	});

	it('answers already_playing naming the holder when another tip holds the slot', async () => {
		const a = await tip('first');
		const b = await tip('second');
		const rival = sim.control.addKey({ name: 'Second overlay' });
		expectBody(await start(a.order_id, rival.value), 200, TtsStartBody);

		const refused = expectError(
			await start(b.order_id),
			409,
			'already_playing',
			AlreadyPlayingBody
		);
		expect(refused.current_order_id).toBe(a.order_id);

		const q = await queue();
		expect(q.current_order_id).toBe(a.order_id);
		expect(ids(q.items)).toEqual([a.order_id, b.order_id]);
	});

	it('answers already_playing with its own order id when the claimed tip is started again', async () => {
		const a = await tip();
		expectBody(await start(a.order_id), 200, TtsStartBody);
		const again = expectError(await start(a.order_id), 409, 'already_playing', AlreadyPlayingBody);
		expect(again.current_order_id).toBe(a.order_id);
		expect(sim.control.log.events('queue.tts.started')).toHaveLength(1);
	});

	it('answers already_playing with its own order id also while the queue is paused', async () => {
		// docs/upstream.md: how a reloaded consumer finds its claim, whatever the pause says.
		const a = await tip();
		expectBody(await start(a.order_id), 200, TtsStartBody);
		expect((await api(sim, 'POST', '/tts/pause')).status).toBe(200);
		const again = expectError(await start(a.order_id), 409, 'already_playing', AlreadyPlayingBody);
		expect(again.current_order_id).toBe(a.order_id);
	});
});

describe('finishing a tip', () => {
	it('moves the claimed tip into the played history with played_at and frees the slot', async () => {
		const a = await tip();
		const b = await tip('next');
		expectBody(await start(a.order_id), 200, TtsStartBody);
		const before = Date.now();
		const body = expectBody(await finish(a.order_id), 200, TtsFinishBody);
		expect(body.success).toBe(true);
		expect(body.tip.order_id).toBe(a.order_id);
		expect(Date.parse(body.tip.played_at)).toBeGreaterThanOrEqual(before - 1000);

		const q = await queue();
		expect(q.currently_playing).toBe(false);
		expect(q.current_order_id).toBeNull();
		expect(ids(q.items)).toEqual([b.order_id]);

		const history = expectBody(await api(sim, 'GET', '/tts/history'), 200, TtsHistoryBody);
		expect(ids(history.tips)).toEqual([a.order_id]);
		expect(history.tips[0].played_at).toBe(body.tip.played_at);

		const event = await nextEvent(rt, 'queue.tts.finished', (d) => d.order_id === a.order_id);
		expect(event.data.tip.played_at).toBe(body.tip.played_at);
		// The slot is free again: the next tip can be claimed.
		expectBody(await start(b.order_id), 200, TtsStartBody);
	});

	it('answers not_playing for a queued tip that nobody claimed, which stays queued', async () => {
		const a = await tip();
		expectError(await finish(a.order_id), 409, 'not_playing');
		expect(ids((await queue()).items)).toEqual([a.order_id]);
		expect((await api(sim, 'GET', '/tts/history')).body.tips).toEqual([]);
	});

	it('answers not_in_queue when a played tip is finished or started again', async () => {
		const a = await tip();
		await play(a.order_id);
		expectError(await finish(a.order_id), 409, 'not_in_queue');
		expectError(await start(a.order_id), 409, 'not_in_queue');
		const history = expectBody(await api(sim, 'GET', '/tts/history'), 200, TtsHistoryBody);
		expect(ids(history.tips)).toEqual([a.order_id]);
	});
});

describe('an order id the service never saw', () => {
	it('answers 404 not_found on start, finish, release, remove and replay', async () => {
		const unknown = 'tip_999999_abcdef';
		expectError(await start(unknown), 404, 'not_found');
		expectError(await finish(unknown), 404, 'not_found');
		expectError(await release(unknown), 404, 'not_found');
		expectError(await api(sim, 'DELETE', `/tts/${unknown}`), 404, 'not_found');
		expectError(await api(sim, 'POST', `/tts/${unknown}/replay`), 404, 'not_found');
	});

	it('answers 404 not_found for a path segment that cannot be an order id', async () => {
		expectError(await api(sim, 'POST', '/tts/not%20an%20id/start'), 404, 'not_found');
	});
});

describe('releasing a claim', () => {
	it('puts the claimed tip back at its position, announces it, and the tip can be claimed again', async () => {
		const a = await tip('one');
		const b = await tip('two');
		const c = await tip('three');
		expectBody(await start(b.order_id), 200, TtsStartBody);

		const body = expectBody(await release(b.order_id), 200, TtsReleaseBody);
		expect(body.released).toBe(true);
		expect(body.tip?.order_id).toBe(b.order_id);

		const q = await queue();
		expect(q.currently_playing).toBe(false);
		expect(q.current_order_id).toBeNull();
		expect(ids(q.items)).toEqual([a.order_id, b.order_id, c.order_id]);
		await nextEvent(rt, 'queue.tts.released', (d) => d.order_id === b.order_id);
		// Released, not played: nothing entered the history.
		expect((await api(sim, 'GET', '/tts/history')).body.tips).toEqual([]);

		expectBody(await start(b.order_id), 200, TtsStartBody);
		expect((await queue()).current_order_id).toBe(b.order_id);
	});

	it('is a safe no-op answering released false for a tip that holds no claim', async () => {
		const a = await tip('playing');
		const b = await tip('waiting');
		expectBody(await start(a.order_id), 200, TtsStartBody);

		const body = expectBody(await release(b.order_id), 200, TtsReleaseBody);
		expect(body.released).toBe(false);
		// Another tip's claim is never dropped.
		expect((await queue()).current_order_id).toBe(a.order_id);

		expectBody(await finish(a.order_id), 200, TtsFinishBody);
		const played = expectBody(await release(a.order_id), 200, TtsReleaseBody);
		expect(played.released).toBe(false);

		await settle();
		expect(sim.control.log.events('queue.tts.released')).toHaveLength(0);
		expect(rt.events('queue.tts.released')).toHaveLength(0);
	});
});
