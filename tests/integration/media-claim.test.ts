// The media queue and its claim protocol over real HTTP (docs/claim-protocol.md, the upstream's
// protocol; docs/upstream.md, the media calls): adding, start, finish, release (which follows
// the upstream's state table exactly). The queue controls are in media-claim.queue.test.ts.
import { describe, expect, it } from 'vitest';
import {
	AlreadyPlayingBody,
	MediaFinishBody,
	MediaQueuedBody,
	MediaReleaseBody,
	MediaStartBody,
	PausedBody
} from '../../src/contract/index.ts';
import { expectBody, expectError, nextEvent, settle } from '../fixtures/contract-checks.ts';
import { api } from '../fixtures/sim.ts';
import {
	sim,
	rt,
	demoVideo,
	video,
	queue,
	status,
	history,
	ids,
	start,
	finish,
	release,
	play
} from './media-claim.setup.ts';

describe('getting a video into the media queue', () => {
	it('a tip with a video adds one media item under the tip order id, requested via tip', async () => {
		const tip = sim.control.createTip({
			name: 'Grace',
			amount: 10,
			message: 'watch this',
			paid: true,
			media: { url: demoVideo('bars'), start_time: 2 }
		});
		const q = await queue();
		expect(ids(q.items)).toEqual([tip.order_id]);
		expect(q.items[0]).toMatchObject({
			donor_name: 'Grace',
			media_url: demoVideo('bars'),
			media_start_time: 2,
			requested_via: 'tip',
			is_replay: false
		});
		const added = await nextEvent(rt, 'queue.media.added');
		expect(added.data.media.order_id).toBe(tip.order_id);
	});

	it('POST /media/queue queues a video directly with 201 and announces queue.media.added', async () => {
		const res = await api(sim, 'POST', '/media/queue', {
			body: { url: demoVideo('bounce'), start_time: 3 }
		});
		const { media } = expectBody(res, 201, MediaQueuedBody);
		expect(media).toMatchObject({
			media_url: demoVideo('bounce'),
			media_start_time: 3,
			video_title: 'Bouncing ball (silent)',
			video_duration: 8,
			requested_via: 'admin',
			is_replay: false
		});
		expect(media.video_thumbnail).toBe(`${sim.origin}/demo/bounce.jpg`);
		expect(ids((await queue()).items)).toEqual([media.order_id]);
		const added = await nextEvent(rt, 'queue.media.added');
		expect(added.data.media).toEqual(media);
	});

	it('a video of unknown length reports video_duration 0 and its platform label', async () => {
		const res = await api(sim, 'POST', '/media/queue', {
			body: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }
		});
		const { media } = expectBody(res, 201, MediaQueuedBody);
		expect(media).toMatchObject({ video_duration: 0, platform: 'youtube', media_start_time: 0 });
	});

	it('answers 400 for a missing or bad url or start time, and queues nothing', async () => {
		for (const body of [
			{},
			{ url: 'not a url' },
			{ url: 'javascript:alert(1)' },
			{ url: 'ftp://example.com/clip.mp4' },
			{ url: demoVideo(), start_time: -1 },
			{ url: demoVideo(), start_time: 1.5 }
		]) {
			const res = await api(sim, 'POST', '/media/queue', { body });
			expectError(res, 400, 'bad_request');
		}
		expect((await queue()).items).toEqual([]);
		expect(sim.control.log.events('queue.media.added')).toHaveLength(0);
	});
});

describe('starting a video (claiming the player)', () => {
	it('claims a queued video, returns it and announces queue.media.started', async () => {
		const a = await video();
		const body = expectBody(await start(a.order_id), 200, MediaStartBody);
		expect(body.success).toBe(true);
		expect(body.media).toEqual(a);

		const q = await queue();
		expect(q.currently_playing).toBe(true);
		expect(q.current_order_id).toBe(a.order_id);
		expect(ids(q.items)).toEqual([a.order_id]);
		const started = await nextEvent(rt, 'queue.media.started', (d) => d.order_id === a.order_id);
		expect(started.data.media.order_id).toBe(a.order_id);
	});

	it('is refused with queue_paused while the media queue is paused', async () => {
		const a = await video();
		expectBody(await api(sim, 'POST', '/media/pause'), 200, PausedBody);
		expectError(await start(a.order_id), 409, 'queue_paused');
		const s = await status();
		expect(s).toMatchObject({ is_paused: true, currently_playing: false, current_order_id: null });
		expect(ids((await queue()).items)).toEqual([a.order_id]);
	});

	it('answers already_playing naming the holder when another video holds the player', async () => {
		const a = await video('countdown');
		const b = await video('bars');
		const rival = sim.control.addKey({ name: 'Second overlay' });
		expectBody(await start(a.order_id, rival.value), 200, MediaStartBody);
		const refused = expectError(
			await start(b.order_id),
			409,
			'already_playing',
			AlreadyPlayingBody
		);
		expect(refused.current_order_id).toBe(a.order_id);
		expect((await status()).current_order_id).toBe(a.order_id);
	});

	it('answers already_playing with its own order id when the claimed video is started again', async () => {
		const a = await video();
		expectBody(await start(a.order_id), 200, MediaStartBody);
		const again = expectError(await start(a.order_id), 409, 'already_playing', AlreadyPlayingBody);
		expect(again.current_order_id).toBe(a.order_id);
	});
});

describe('finishing a video', () => {
	it('moves the claimed video into the played history with played_at', async () => {
		const a = await video('countdown');
		const b = await video('bars');
		expectBody(await start(a.order_id), 200, MediaStartBody);
		const body = expectBody(await finish(a.order_id), 200, MediaFinishBody);
		expect(body.media.order_id).toBe(a.order_id);
		expect(Number.isNaN(Date.parse(body.media.played_at))).toBe(false);

		const q = await queue();
		expect(q).toMatchObject({ currently_playing: false, current_order_id: null });
		expect(ids(q.items)).toEqual([b.order_id]);
		const h = await history();
		expect(ids(h.media)).toEqual([a.order_id]);
		expect(h.media[0].played_at).toBe(body.media.played_at);
		await nextEvent(rt, 'queue.media.finished', (d) => d.order_id === a.order_id);
	});

	it('answers not_playing for an unclaimed video and not_in_queue once it has played', async () => {
		const a = await video();
		expectError(await finish(a.order_id), 409, 'not_playing');
		await play(a.order_id);
		expectError(await finish(a.order_id), 409, 'not_in_queue');
		expectError(await start(a.order_id), 409, 'not_in_queue');
	});

	it('answers 404 not_found for an order id the service never saw', async () => {
		const unknown = 'med_999999_abcdef';
		expectError(await start(unknown), 404, 'not_found');
		expectError(await finish(unknown), 404, 'not_found');
		expectError(await api(sim, 'DELETE', `/media/${unknown}`), 404, 'not_found');
		// Common responses: a 404 on a path with an id segment means no such resource, so the
		// safe no-op of release covers media items the service knows, not made-up ids.
		expectError(await release(unknown), 404, 'not_found');
	});
});

describe('releasing a claim (the upstream’s state table)', () => {
	it('drops a claim that points at this order id: released true, same position, claimable again', async () => {
		const a = await video('countdown');
		const b = await video('bars');
		const c = await video('bounce');
		expectBody(await start(b.order_id), 200, MediaStartBody);

		const body = expectBody(await release(b.order_id), 200, MediaReleaseBody);
		expect(body).toMatchObject({ success: true, released: true });
		expect(body.media?.order_id).toBe(b.order_id);

		const q = await queue();
		expect(q).toMatchObject({ currently_playing: false, current_order_id: null });
		expect(ids(q.items)).toEqual([a.order_id, b.order_id, c.order_id]);
		await nextEvent(rt, 'queue.media.released', (d) => d.order_id === b.order_id);
		expect(sim.control.log.events('queue.media.released')).toHaveLength(1);
		expect((await history()).media).toEqual([]);

		expectBody(await start(b.order_id), 200, MediaStartBody);
		expect((await status()).current_order_id).toBe(b.order_id);
	});

	it("never drops a different video's claim: released false, the claim stays, no event", async () => {
		const a = await video('countdown');
		const b = await video('bars');
		const rival = sim.control.addKey({ name: 'Second overlay' });
		expectBody(await start(a.order_id, rival.value), 200, MediaStartBody);

		const body = expectBody(await release(b.order_id), 200, MediaReleaseBody);
		expect(body).toMatchObject({ success: true, released: false });
		expect(await status()).toMatchObject({ currently_playing: true, current_order_id: a.order_id });
		expect(ids((await queue()).items)).toEqual([a.order_id, b.order_id]);

		await settle();
		expect(rt.events('queue.media.released')).toHaveLength(0);
		expect(sim.control.log.events('queue.media.released')).toHaveLength(0);
	});

	it('is a safe no-op with nothing claimed, for a played video and for a second release', async () => {
		const a = await video('countdown');
		const b = await video('bars');
		expect(expectBody(await release(a.order_id), 200, MediaReleaseBody).released).toBe(false);

		await play(b.order_id);
		expect(expectBody(await release(b.order_id), 200, MediaReleaseBody).released).toBe(false);

		expectBody(await start(a.order_id), 200, MediaStartBody);
		expect(expectBody(await release(a.order_id), 200, MediaReleaseBody).released).toBe(true);
		expect(expectBody(await release(a.order_id), 200, MediaReleaseBody).released).toBe(false);

		await settle();
		expect(sim.control.log.events('queue.media.released').map((e) => e.order_id)).toEqual([
			a.order_id
		]);
		expect(ids((await queue()).items)).toEqual([a.order_id]);
	});
});
