// The TTS queue's controls over real HTTP (docs/upstream.md, TTS queue): pause and resume, skip,
// clear, remove, replay, the played history and pre-rendered audio.
import { describe, expect, it } from 'vitest';
import {
	HistoryTip,
	MediaQueueBody,
	MediaStatusBody,
	PausedBody,
	SkipBody,
	SuccessBody,
	TtsFinishBody,
	TtsHistoryBody,
	TtsReplayBody,
	TtsStartBody
} from '../../src/contract/index.ts';
import { expectBody, expectError, nextEvent } from '../fixtures/contract-checks.ts';
import { api, until } from '../fixtures/sim.ts';
import { sim, rt, tip, queue, ids, start, finish, play } from './tts-claim.setup.ts';

describe('pausing and resuming', () => {
	it('reports is_paused, announces each change, and lets a playing tip still finish', async () => {
		const a = await tip();
		const b = await tip('after the pause');
		expectBody(await start(a.order_id), 200, TtsStartBody);

		const paused = expectBody(await api(sim, 'POST', '/tts/pause'), 200, PausedBody);
		expect(paused).toMatchObject({ success: true, is_paused: true });
		expect((await queue()).is_paused).toBe(true);
		expect((await nextEvent(rt, 'queue.tts.paused')).data.is_paused).toBe(true);

		// Pausing stops new starts, not the tip already on stream.
		expectBody(await finish(a.order_id), 200, TtsFinishBody);
		expectError(await start(b.order_id), 409, 'queue_paused');

		const resumed = expectBody(await api(sim, 'POST', '/tts/resume'), 200, PausedBody);
		expect(resumed).toMatchObject({ success: true, is_paused: false });
		expect((await queue()).is_paused).toBe(false);
		expect((await nextEvent(rt, 'queue.tts.resumed')).data.is_paused).toBe(false);
		expectBody(await start(b.order_id), 200, TtsStartBody);
	});
});

describe('skipping', () => {
	it('skips the claimed tip rather than the head, and the skipped tip never reaches history', async () => {
		const a = await tip('head');
		const b = await tip('claimed');
		expectBody(await start(b.order_id), 200, TtsStartBody);

		const body = expectBody(await api(sim, 'POST', '/tts/skip'), 200, SkipBody);
		expect(body).toMatchObject({ success: true, order_id: b.order_id });

		const q = await queue();
		expect(ids(q.items)).toEqual([a.order_id]);
		expect(q.current_order_id).toBeNull();
		await nextEvent(rt, 'queue.tts.skipped', (d) => d.order_id === b.order_id);
		expect((await api(sim, 'GET', '/tts/history')).body.tips).toEqual([]);
		// A consumer that was playing it finds out on finish.
		expectError(await finish(b.order_id), 409, 'not_in_queue');
	});

	it('skips the head when nothing is claimed, and answers order_id null on an empty queue', async () => {
		const a = await tip('head');
		const b = await tip('second');
		expect(expectBody(await api(sim, 'POST', '/tts/skip'), 200, SkipBody).order_id).toBe(
			a.order_id
		);
		expect(ids((await queue()).items)).toEqual([b.order_id]);
		expect(expectBody(await api(sim, 'POST', '/tts/skip'), 200, SkipBody).order_id).toBe(
			b.order_id
		);
		expect(expectBody(await api(sim, 'POST', '/tts/skip'), 200, SkipBody).order_id).toBeNull();
	});
});

describe('clearing the queue', () => {
	it('deletes every queued tip and resets the TTS claim and the media claim too', async () => {
		const withVideo = sim.control.createTip({
			name: 'Ada',
			amount: 5,
			message: 'watch this',
			paid: true,
			media: { url: `${sim.origin}/demo/countdown.webm` }
		});
		const other = await tip();
		expectBody(await start(withVideo.order_id), 200, TtsStartBody);
		expect((await api(sim, 'POST', `/media/${withVideo.order_id}/start`)).status).toBe(200);

		expectBody(await api(sim, 'POST', '/tts/clear'), 200, SuccessBody);

		const q = await queue();
		expect(q.items).toEqual([]);
		expect(q.currently_playing).toBe(false);
		expect(q.current_order_id).toBeNull();
		await nextEvent(rt, 'queue.tts.cleared');

		const media = expectBody(await api(sim, 'GET', '/media/status'), 200, MediaStatusBody);
		expect(media.currently_playing).toBe(false);
		expect(media.current_order_id).toBeNull();
		await nextEvent(rt, 'queue.media.released', (d) => d.order_id === withVideo.order_id);
		// Only the playback state of the media queue is reset: the video itself stays queued.
		const mediaQueue = expectBody(await api(sim, 'GET', '/media/queue'), 200, MediaQueueBody);
		expect(ids(mediaQueue.items)).toEqual([withVideo.order_id]);

		expectError(await start(other.order_id), 409, 'not_in_queue');
		expectError(await finish(withVideo.order_id), 409, 'not_in_queue');
	});
});

describe('removing a tip', () => {
	it('DELETE takes a queued tip out of the queue and announces queue.tts.removed', async () => {
		const a = await tip('keep');
		const b = await tip('remove me');
		expectBody(await api(sim, 'DELETE', `/tts/${b.order_id}`), 200, SuccessBody);
		expect(ids((await queue()).items)).toEqual([a.order_id]);
		await nextEvent(rt, 'queue.tts.removed', (d) => d.order_id === b.order_id);

		expectError(await api(sim, 'DELETE', `/tts/${b.order_id}`), 404, 'not_found');
		expectError(await start(b.order_id), 409, 'not_in_queue');
	});

	it('removing the claimed tip frees the playing slot', async () => {
		const a = await tip();
		const b = await tip('next');
		expectBody(await start(a.order_id), 200, TtsStartBody);
		expectBody(await api(sim, 'DELETE', `/tts/${a.order_id}`), 200, SuccessBody);
		const q = await queue();
		expect(q.currently_playing).toBe(false);
		expect(ids(q.items)).toEqual([b.order_id]);
		expectBody(await start(b.order_id), 200, TtsStartBody);
	});
});

describe('replaying a played tip', () => {
	it('queues a new item with a new order id and is_replay, which gets its own audio', async () => {
		const a = await tip('say it again');
		await play(a.order_id);

		const body = expectBody(
			await api(sim, 'POST', `/tts/${a.order_id}/replay`),
			200,
			TtsReplayBody
		);
		expect(body.tip.order_id).not.toBe(a.order_id);
		expect(body.tip.is_replay).toBe(true);
		expect(body.tip.message).toBe('say it again');
		expect(body.tip.name).toBe(a.name);

		const q = await queue();
		expect(ids(q.items)).toEqual([body.tip.order_id]);
		const replayed = await nextEvent(rt, 'queue.tts.replayed');
		expect(replayed.data.tip.order_id).toBe(body.tip.order_id);
		const ready = await nextEvent(rt, 'tip.tts_ready', (d) => d.order_id === body.tip.order_id);
		expect(ready.data.tts_url).toMatch(/^http/);

		// The original stays in the history exactly once.
		const history = expectBody(await api(sim, 'GET', '/tts/history'), 200, TtsHistoryBody);
		expect(ids(history.tips)).toEqual([a.order_id]);
	});

	it('answers 404 for a tip that has not been played', async () => {
		const a = await tip();
		expectError(await api(sim, 'POST', `/tts/${a.order_id}/replay`), 404, 'not_found');
	});
});

describe('the played history', () => {
	it('pages most recent first with limit, before, has_more and next_cursor', async () => {
		const played: string[] = [];
		for (let i = 0; i < 5; i++) {
			const t = await tip(`tip ${i}`);
			await play(t.order_id);
			played.unshift(t.order_id);
		}

		const all = expectBody(await api(sim, 'GET', '/tts/history'), 200, TtsHistoryBody);
		expect(ids(all.tips)).toEqual(played);
		expect(all).toMatchObject({ has_more: false, next_cursor: null });
		for (const row of all.tips) HistoryTip.parse(row);

		const first = expectBody(await api(sim, 'GET', '/tts/history?limit=2'), 200, TtsHistoryBody);
		expect(ids(first.tips)).toEqual(played.slice(0, 2));
		expect(first.has_more).toBe(true);
		expect(first.next_cursor).toBe(played[1]);

		const second = expectBody(
			await api(sim, 'GET', `/tts/history?limit=2&before=${first.next_cursor}`),
			200,
			TtsHistoryBody
		);
		expect(ids(second.tips)).toEqual(played.slice(2, 4));
		expect(second.has_more).toBe(true);

		const last = expectBody(
			await api(sim, 'GET', `/tts/history?limit=2&before=${second.next_cursor}`),
			200,
			TtsHistoryBody
		);
		expect(ids(last.tips)).toEqual(played.slice(4));
		expect(last).toMatchObject({ has_more: false, next_cursor: null });
	});

	it('answers 400 bad_cursor for an unknown or malformed cursor and 400 for a limit out of range', async () => {
		expectError(await api(sim, 'GET', '/tts/history?before=tip_1_nothere'), 400, 'bad_cursor');
		expectError(await api(sim, 'GET', '/tts/history?before='), 400, 'bad_cursor');
		expectError(await api(sim, 'GET', '/tts/history?before=%E2%9C%93%20x'), 400, 'bad_cursor');
		expectError(await api(sim, 'GET', '/tts/history?limit=0'), 400, 'bad_request');
		expectError(await api(sim, 'GET', '/tts/history?limit=101'), 400, 'bad_request');
		expectBody(await api(sim, 'GET', '/tts/history?limit=100'), 200, TtsHistoryBody);
	});
});

describe('pre-rendered audio', () => {
	it('tts_url stays null until rendering completes, then tip.tts_ready carries the URL', async () => {
		sim.control.delayAudio(400);
		const a = await tip('render me');
		expect(a.tts_url).toBeNull();
		expect((await queue()).items[0].tts_url).toBeNull();

		const ready = await nextEvent(rt, 'tip.tts_ready', (d) => d.order_id === a.order_id);
		const item = (await queue()).items.find((t) => t.order_id === a.order_id);
		expect(item?.tts_url).toBe(ready.data.tts_url);

		const audio = await fetch(ready.data.tts_url);
		expect(audio.status).toBe(200);
		expect(audio.headers.get('content-type')).toBe('audio/wav');
		expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(44);
	});

	it('a tip can be claimed before its audio is ready; the URL fills in afterwards', async () => {
		sim.control.delayAudio(300);
		const a = await tip();
		const started = expectBody(await start(a.order_id), 200, TtsStartBody);
		expect(started.tip.tts_url).toBeNull();
		await until(() => rt.events('tip.tts_ready').length > 0);
		expect((await queue()).items[0].tts_url).not.toBeNull();
	});
});
