// The media queue's controls over real HTTP (docs/upstream.md, media queue): pause and resume,
// skip and remove, the player status and visibility, the played-media history.
import { describe, expect, it } from 'vitest';
import {
	MediaResumeBody,
	MediaStartBody,
	MediaVisibilityBody,
	PausedBody,
	SkipBody,
	SuccessBody
} from '../../src/contract/index.ts';
import { expectBody, expectError, nextEvent } from '../fixtures/contract-checks.ts';
import { api } from '../fixtures/sim.ts';
import {
	sim,
	rt,
	video,
	queue,
	status,
	history,
	ids,
	start,
	finish,
	play
} from './media-claim.setup.ts';

describe('pausing and resuming the media queue', () => {
	it('reports is_paused in the response, the queue and the status, and announces each change', async () => {
		const a = await video();
		const paused = expectBody(await api(sim, 'POST', '/media/pause'), 200, PausedBody);
		expect(paused).toMatchObject({ success: true, is_paused: true });
		expect((await queue()).is_paused).toBe(true);
		expect((await status()).is_paused).toBe(true);
		expect((await nextEvent(rt, 'queue.media.paused')).data.is_paused).toBe(true);

		// docs/upstream.md gives POST /media/resume a body of `success` only; the status tells the
		// rest.
		const resumed = expectBody(await api(sim, 'POST', '/media/resume'), 200, MediaResumeBody);
		expect(resumed).toEqual({ success: true });
		expect((await status()).is_paused).toBe(false);
		expect((await nextEvent(rt, 'queue.media.resumed')).data.is_paused).toBe(false);
		expectBody(await start(a.order_id), 200, MediaStartBody);
	});
});

describe('skipping and removing videos', () => {
	it('skip drops the claimed video, else the head; a skipped video never reaches history', async () => {
		const a = await video('countdown');
		const b = await video('bars');
		const c = await video('bounce');
		expectBody(await start(b.order_id), 200, MediaStartBody);

		expect(expectBody(await api(sim, 'POST', '/media/skip'), 200, SkipBody).order_id).toBe(
			b.order_id
		);
		expect(await status()).toMatchObject({ currently_playing: false, current_order_id: null });
		await nextEvent(rt, 'queue.media.skipped', (d) => d.order_id === b.order_id);

		expect(expectBody(await api(sim, 'POST', '/media/skip'), 200, SkipBody).order_id).toBe(
			a.order_id
		);
		expect(ids((await queue()).items)).toEqual([c.order_id]);
		expect((await history()).media).toEqual([]);
		expectError(await finish(b.order_id), 409, 'not_in_queue');

		expectBody(await api(sim, 'POST', '/media/skip'), 200, SkipBody);
		expect(expectBody(await api(sim, 'POST', '/media/skip'), 200, SkipBody).order_id).toBeNull();
	});

	it('DELETE removes a queued video, frees the player if it was claimed, and announces it', async () => {
		const a = await video('countdown');
		const b = await video('bars');
		expectBody(await start(a.order_id), 200, MediaStartBody);
		expectBody(await api(sim, 'DELETE', `/media/${a.order_id}`), 200, SuccessBody);

		const q = await queue();
		expect(ids(q.items)).toEqual([b.order_id]);
		expect(q).toMatchObject({ currently_playing: false, current_order_id: null });
		await nextEvent(rt, 'queue.media.removed', (d) => d.order_id === a.order_id);
		expectError(await api(sim, 'DELETE', `/media/${a.order_id}`), 404, 'not_found');
		expectError(await start(a.order_id), 409, 'not_in_queue');
	});
});

describe('the player status and visibility', () => {
	it('GET /media/status agrees with the queue snapshot', async () => {
		const a = await video();
		expect(await status()).toEqual({
			is_paused: false,
			visible: true,
			currently_playing: false,
			current_order_id: null
		});
		expectBody(await start(a.order_id), 200, MediaStartBody);
		const s = await status();
		const q = await queue();
		expect(s).toEqual({
			is_paused: q.is_paused,
			visible: q.visible,
			currently_playing: true,
			current_order_id: a.order_id
		});
	});

	it('hiding and showing the player is reported everywhere and announced', async () => {
		const hidden = expectBody(
			await api(sim, 'POST', '/media/visibility', { body: { visible: false } }),
			200,
			MediaVisibilityBody
		);
		expect(hidden).toMatchObject({ success: true, visible: false });
		expect((await status()).visible).toBe(false);
		expect((await queue()).visible).toBe(false);
		expect((await nextEvent(rt, 'queue.media.visibility')).data.visible).toBe(false);

		expectBody(
			await api(sim, 'POST', '/media/visibility', { body: { visible: true } }),
			200,
			MediaVisibilityBody
		);
		expect((await status()).visible).toBe(true);
		await nextEvent(rt, 'queue.media.visibility', (d) => d.visible === true);
	});

	it('answers 400 for a visibility body without a boolean', async () => {
		expectError(await api(sim, 'POST', '/media/visibility', { body: {} }), 400, 'bad_request');
		expectError(
			await api(sim, 'POST', '/media/visibility', { body: { visible: 'no' } }),
			400,
			'bad_request'
		);
		expect((await status()).visible).toBe(true);
	});
});

describe('the played-media history', () => {
	it('pages most recent first with limit, before, has_more and next_cursor', async () => {
		const played: string[] = [];
		for (const file of ['countdown', 'bars', 'bounce', 'countdown']) {
			const v = await video(file);
			await play(v.order_id);
			played.unshift(v.order_id);
		}
		const all = await history();
		expect(ids(all.media)).toEqual(played);
		expect(all).toMatchObject({ has_more: false, next_cursor: null });

		const first = await history('?limit=3');
		expect(ids(first.media)).toEqual(played.slice(0, 3));
		expect(first).toMatchObject({ has_more: true, next_cursor: played[2] });
		const rest = await history(`?limit=3&before=${first.next_cursor}`);
		expect(ids(rest.media)).toEqual(played.slice(3));
		expect(rest).toMatchObject({ has_more: false, next_cursor: null });
	});

	it('returns 25 rows when no limit is given', async () => {
		for (let i = 0; i < 26; i++) await play((await video()).order_id);
		const page = await history();
		expect(page.media).toHaveLength(25);
		expect(page.has_more).toBe(true);
		expect(page.next_cursor).toBe(page.media[24].order_id);
		const rest = await history(`?before=${page.next_cursor}`);
		expect(rest.media).toHaveLength(1);
		expect(rest).toMatchObject({ has_more: false, next_cursor: null });
	});

	it('answers 400 bad_cursor for an unknown cursor', async () => {
		expectError(await api(sim, 'GET', '/media/history?before=med_1_nothere'), 400, 'bad_cursor');
		expectError(await api(sim, 'GET', '/media/history?limit=101'), 400, 'bad_request');
	});
});
