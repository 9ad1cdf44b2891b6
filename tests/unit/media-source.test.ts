// What the media player does with a queued video, from its URL (src/core/media-source.ts), and the
// media widget's URL parameters (widgets/media/params.ts).
import { describe, expect, it } from 'vitest';
import {
	classifyMedia,
	clockTime,
	mediaTakeoverMs,
	youtubeError
} from '../../src/core/media-source.ts';
import { mediaParamsForOverlay, parseMediaParams } from '../../widgets/media/params.ts';

const KEY = 'key=abcdefghijklmnop';

describe('classifyMedia', () => {
	it.each([
		['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42', 'dQw4w9WgXcQ'],
		['https://youtu.be/dQw4w9WgXcQ?si=abc', 'dQw4w9WgXcQ'],
		['https://youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
		['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
		['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
		['https://www.youtube.com/live/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
		['https://music.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ']
	])('%s plays through YouTube as %s', (url, id) => {
		expect(classifyMedia(url, 'youtube')).toEqual({ kind: 'youtube', videoId: id });
	});

	it('decides by the URL, not the upstream label', () => {
		expect(classifyMedia('https://youtu.be/dQw4w9WgXcQ', 'other').kind).toBe('youtube');
		expect(classifyMedia('https://cdn.example.com/clip.MP4', 'whatever').kind).toBe('file');
		expect(classifyMedia('https://cdn.example.com/stream?id=4', 'direct').kind).toBe('file');
	});

	it('a YouTube address without a usable video id is unsupported', () => {
		const r = classifyMedia('https://www.youtube.com/watch?v=short', 'youtube');
		expect(r).toEqual({ kind: 'unsupported', reason: 'a YouTube address without a video id' });
		expect(classifyMedia('https://www.youtube.com/@channel', 'youtube').kind).toBe('unsupported');
	});

	it('other platforms are unsupported with a reason naming them', () => {
		const twitch = classifyMedia('https://www.twitch.tv/videos/1', 'twitch');
		expect(twitch.kind).toBe('unsupported');
		expect(twitch.kind === 'unsupported' && twitch.reason).toContain('Twitch');
		const other = classifyMedia('https://example.org/watch/1', 'other');
		expect(other.kind === 'unsupported' && other.reason).toContain('example.org');
		expect(classifyMedia('ftp://example.org/a.mp4').kind).toBe('unsupported');
		expect(classifyMedia('not a url').kind).toBe('unsupported');
	});
});

describe('youtubeError', () => {
	it('names every documented error and the referrer refusal, and says which cannot pass', () => {
		for (const code of [2, 100, 101, 150, 153]) {
			const e = youtubeError(code);
			expect(e.permanent).toBe(true);
			expect(e.reason).toContain(`YouTube error ${code}`);
		}
		expect(youtubeError(153).reason).toContain('referrer');
		expect(youtubeError(150).reason).toContain('embedded');
		expect(youtubeError(5).permanent).toBe(false);
		expect(youtubeError(999)).toEqual({ reason: 'YouTube error 999', permanent: false });
	});
});

describe('mediaTakeoverMs', () => {
	it('gives a healthy consumer the rest of the video plus 90 s before a takeover', () => {
		expect(mediaTakeoverMs({ video_duration: 300, media_start_time: 60 })).toBe(90_000 + 240_000);
		expect(mediaTakeoverMs({ video_duration: 0, media_start_time: 0 })).toBe(90_000 + 600_000);
		expect(mediaTakeoverMs({ video_duration: 10, media_start_time: 30 })).toBe(90_000);
		expect(mediaTakeoverMs(undefined)).toBe(90_000);
	});
});

describe('clockTime', () => {
	it('formats positions as m:ss or h:mm:ss', () => {
		expect(clockTime(0)).toBe('0:00');
		expect(clockTime(65.9)).toBe('1:05');
		expect(clockTime(3725)).toBe('1:02:05');
		expect(clockTime(-3)).toBe('0:00');
	});
});

describe('media widget parameters', () => {
	it('has defaults a streamer can start with', () => {
		const r = parseMediaParams(`?${KEY}`);
		expect(r.ok && r.value).toMatchObject({
			volume: 1,
			with_tts: 'duck',
			duck_volume: 0.25,
			size: 1,
			info: 'on',
			claim: 'visible',
			debug: false,
			position: 'center'
		});
	});

	it('names each bad parameter and what it expects', () => {
		const r = parseMediaParams(`?${KEY}&volume=2&with_tts=loud&size=0`);
		expect(r.ok).toBe(false);
		if (r.ok) return;
		expect(r.errors).toEqual([
			'volume: expected a number from 0 to 1, got "2"',
			'with_tts: expected duck, hold or ignore, got "loud"',
			'size: expected a number from 0.1 to 1, got "0"'
		]);
	});

	it('in an overlay page, media_volume sets the videos apart from the speech volume', () => {
		const r = mediaParamsForOverlay(`?${KEY}&volume=1&media_volume=0.4`);
		expect(r.ok && r.value.volume).toBe(0.4);
		const same = mediaParamsForOverlay(`?${KEY}&volume=0.7`);
		expect(same.ok && same.value.volume).toBe(0.7);
		const bad = mediaParamsForOverlay(`?${KEY}&media_volume=9`);
		expect(bad.ok).toBe(false);
		expect(!bad.ok && bad.errors[0]).toMatch(/^media_volume: /);
	});
});
