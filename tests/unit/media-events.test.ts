// Media events as claim-reducer inputs (src/client/media-queue.ts; docs/upstream.md, events), and
// the "a tip is being read" signal between TTS and media pages (src/client/sound-bus.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KnownEvent, QueueMediaItem } from '../../src/contract/index.ts';
import { mediaInput } from '../../src/client/media-queue.ts';
import { createSpeechAnnouncer, SpeechListener } from '../../src/client/sound-bus.ts';

const media: QueueMediaItem = {
	order_id: 'med_1',
	donor_name: 'Ada',
	media_url: 'https://youtu.be/dQw4w9WgXcQ',
	media_start_time: 3,
	video_title: 'Song',
	video_thumbnail: null,
	video_duration: 200,
	platform: 'youtube',
	requested_via: 'tip',
	is_replay: false,
	queued_at: '2026-11-22T08:00:00.000Z'
};

const ev = (type: string, data: unknown) =>
	({ id: 'evt_1', type, created_at: media.queued_at, data }) as unknown as KnownEvent;

describe('mediaInput', () => {
	it('maps the media events to the claim reducer and the player', () => {
		expect(mediaInput(ev('queue.media.added', { media }))).toEqual({
			kind: 'added',
			item: {
				orderId: 'med_1',
				ready: true,
				queuedAt: Date.parse(media.queued_at),
				// Claimable at once, but nothing of an undecided video is kept to show: what plays
				// is the start's answer, decided by the token endpoint.
				data: { ...media, video_title: null, video_thumbnail: null }
			}
		});
		expect(mediaInput(ev('queue.media.started', { order_id: 'med_1', media }))).toEqual({
			kind: 'claimed',
			orderId: 'med_1'
		});
		expect(mediaInput(ev('queue.media.skipped', { order_id: 'med_1' }))).toEqual({
			kind: 'gone',
			orderId: 'med_1',
			why: 'skipped'
		});
		expect(mediaInput(ev('queue.media.removed', { order_id: 'med_1' }))).toMatchObject({
			why: 'removed'
		});
		expect(mediaInput(ev('queue.media.finished', { order_id: 'med_1', media }))).toMatchObject({
			why: 'finished'
		});
		expect(mediaInput(ev('queue.media.released', { order_id: 'med_1' }))).toEqual({
			kind: 'released',
			orderId: 'med_1'
		});
		expect(mediaInput(ev('queue.media.paused', { is_paused: true }))).toEqual({
			kind: 'paused',
			paused: true
		});
		expect(mediaInput(ev('queue.media.visibility', { visible: false }))).toEqual({
			kind: 'visible',
			visible: false
		});
		// A TTS clear resets the media playback state too (docs/upstream.md): re-read the queue.
		expect(mediaInput(ev('queue.tts.cleared', {}))).toEqual({ kind: 'resnapshot' });
		expect(mediaInput(ev('counter.updated', {}))).toBeNull();
	});
});

describe('speech signal', () => {
	const closers: (() => void)[] = [];
	afterEach(() => {
		for (const c of closers.splice(0)) c();
		vi.useRealTimers();
	});

	const flush = () => new Promise((r) => setTimeout(r, 20));

	it('a media page hears when a tip starts and ends being read on another page', async () => {
		const tts = createSpeechAnnouncer();
		const media = new SpeechListener();
		closers.push(tts.close, () => media.close());
		const heard: boolean[] = [];
		media.subscribe((s) => heard.push(s));
		tts.speaking('tip_1', 5_000);
		await flush();
		expect(media.speaking).toBe(true);
		tts.quiet('tip_1');
		await flush();
		expect(media.speaking).toBe(false);
		expect(heard).toEqual([true, false]);
	});

	it('a speaker that dies mid-tip is forgotten after the time it announced', async () => {
		const tts = createSpeechAnnouncer();
		const media = new SpeechListener();
		closers.push(tts.close, () => media.close());
		tts.speaking('tip_2', 100);
		await flush();
		expect(media.speaking).toBe(true);
		await new Promise((r) => setTimeout(r, 200));
		expect(media.speaking).toBe(false);
	});
});
