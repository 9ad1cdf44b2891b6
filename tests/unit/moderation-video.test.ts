// A video's decision from the rules and its tip's decision, and the video as a page and the dock
// get it (src/core/moderation/video.ts, video-links.ts).
import { describe, expect, it } from 'vitest';
import { ModerationRules, type QueueMediaItem } from '../../src/contract/index.ts';
import type { Decision } from '../../src/core/moderation/decision.ts';
import {
	decisionMessage,
	judgeVideos,
	keyOf,
	presentVideo,
	settledVideo,
	videoKey
} from '../../src/core/moderation/video.ts';
import { channelOf, linkMatches } from '../../src/core/moderation/video-links.ts';

const video = (edit: Partial<QueueMediaItem> = {}): QueueMediaItem => ({
	order_id: 'tip_1_abc',
	donor_name: 'Viewer',
	media_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
	media_start_time: 0,
	video_title: 'A nice song',
	video_thumbnail: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
	video_duration: 212,
	platform: 'youtube',
	requested_via: 'tip',
	is_replay: false,
	queued_at: '2026-11-28T10:00:00Z',
	...edit
});

const tipDecision = (edit: Partial<Decision> = {}): Decision => ({
	orderId: 'tip_1_abc',
	outcome: 'read',
	rule: null,
	spans: [],
	by: 'rules',
	decidedAt: '2026-11-28T10:00:00Z',
	...edit
});

const rules = (r: object) => ModerationRules.parse(r);
const decide = (r: object, v = video(), tip: Decision | null = tipDecision(), amount = 5) =>
	judgeVideos(rules(r))(v, tip ? { decision: tip, amount } : null);

describe('a video follows its tip', () => {
	it('plays when its tip is read and no rule matches', () => {
		const d = decide({});
		expect(d).toMatchObject({ orderId: 'video:tip_1_abc', outcome: 'read', rule: null });
	});

	it('is held with a held tip and removed with a removed or rejected one', () => {
		const held = tipDecision({ outcome: 'hold', rule: { kind: 'every_tip' } });
		expect(decide({}, video(), held)).toMatchObject({ outcome: 'hold', rule: { kind: 'tip' } });
		expect(decide({}, video(), tipDecision({ outcome: 'remove' })).outcome).toBe('remove');
		const rejected = tipDecision({ outcome: 'no_voice', by: 'rejected' });
		expect(decide({}, video(), rejected).outcome).toBe('remove');
	});

	it('is held when its tip has no voice for what it says, not for its amount', () => {
		const word = tipDecision({ outcome: 'no_voice', rule: { kind: 'word', text: 'bad' } });
		expect(decide({}, video(), word).outcome).toBe('hold');
		const cheap = tipDecision({ outcome: 'no_voice', rule: { kind: 'min_amount', text: '2' } });
		expect(decide({}, video(), cheap).outcome).toBe('read');
		const approved = tipDecision({ outcome: 'read', by: 'approved' });
		expect(decide({}, video(), approved).outcome).toBe('read');
	});

	it("names its own rule before its tip's when both hold it (Approve of the tip leaves it held)", () => {
		const held = tipDecision({ outcome: 'hold' });
		const d = decide({ videos: { every: 'hold' } }, video(), held);
		expect(d.rule).toEqual({ kind: 'every_video' });
		const removed = decide(
			{ videos: { every: 'hold' } },
			video(),
			tipDecision({ outcome: 'remove' })
		);
		expect(removed).toMatchObject({ outcome: 'remove', rule: { kind: 'tip' } });
	});
});

describe('the video rules', () => {
	it('match words in the title, the tip rules too, with look-alikes and spacing folded', () => {
		const r = { words: [{ text: 'slur', outcome: 'no_voice' }] };
		// A no-voice word holds a video: it has no voice to take away.
		expect(decide(r, video({ video_title: 'the S L U R song' }))).toMatchObject({
			outcome: 'hold',
			rule: { kind: 'title', text: 'slur' }
		});
		const own = { videos: { words: [{ text: 'scary', outcome: 'remove' }] } };
		expect(decide(own, video({ video_title: 'Very SCARY clip' })).outcome).toBe('remove');
		expect(decide(own, video({ video_title: 'not scarily' })).outcome).toBe('read');
		expect(decide(own, video({ video_title: null })).outcome).toBe('read');
	});

	it('match the tipper name against the name rules', () => {
		const r = { names: [{ text: 'Troll', outcome: 'remove' }] };
		expect(decide(r, video({ donor_name: 'tr0ll' }), null)).toMatchObject({
			outcome: 'remove',
			rule: { kind: 'name', text: 'Troll' }
		});
	});

	it('match a blocked channel named by the link, or by a field of the item', () => {
		const r = { videos: { channels: [{ text: '@BadChannel', outcome: 'remove' }] } };
		const byLink = video({ media_url: 'https://youtube.com/@badchannel/videos' });
		expect(decide(r, byLink)).toMatchObject({ outcome: 'remove', rule: { kind: 'channel' } });
		const byField = { ...video(), video_channel: '@BadChannel' } as QueueMediaItem;
		expect(decide(r, byField).outcome).toBe('remove');
		expect(decide(r, video()).outcome).toBe('read');
	});

	it('match a blocked link, site or video id', () => {
		for (const text of ['dQw4w9WgXcQ', 'https://youtu.be/dQw4w9WgXcQ', 'youtube.com'])
			expect(decide({ videos: { links: [{ text, outcome: 'hold' }] } }).outcome, text).toBe('hold');
		const other = {
			videos: { links: [{ text: 'https://youtu.be/aaaaaaaaaaa', outcome: 'hold' }] }
		};
		expect(decide(other).outcome).toBe('read');
	});

	it('hold a video longer than the maximum from its start, not one of unknown length', () => {
		const r = { videos: { maxSeconds: { seconds: 120, outcome: 'hold' } } };
		expect(decide(r)).toMatchObject({ outcome: 'hold', rule: { kind: 'max_length', text: '120' } });
		expect(decide(r, video({ media_start_time: 100 })).outcome).toBe('read');
		expect(decide(r, video({ video_duration: 0 })).outcome).toBe('read');
	});

	it('leave a video the streamer queued (requested via admin) to play', () => {
		const r = { videos: { every: 'hold', words: [{ text: 'song', outcome: 'remove' }] } };
		expect(decide(r, video({ requested_via: 'admin' }), null).outcome).toBe('read');
		expect(decide(r, video({ requested_via: 'chat' }), null).outcome).toBe('remove');
	});

	it('hold every video, or those whose tip is from an amount (a video without a tip is not)', () => {
		expect(decide({ videos: { every: 'hold' } }, video(), null).outcome).toBe('hold');
		const from = { videos: { fromAmount: { amount: 20, outcome: 'hold' } } };
		expect(decide(from, video(), tipDecision(), 25)).toMatchObject({
			outcome: 'hold',
			rule: { kind: 'video_from_amount', text: '20' }
		});
		expect(decide(from, video(), tipDecision(), 5).outcome).toBe('read');
		expect(decide(from, video(), null).outcome).toBe('read');
	});
});

describe('links and channels', () => {
	it('finds the channel a link names', () => {
		const of = (media_url: string) => channelOf({ media_url });
		expect(of('https://www.youtube.com/@Someone')).toBe('@Someone');
		expect(of('https://youtube.com/channel/UC123/videos')).toBe('UC123');
		expect(of('https://www.twitch.tv/streamer/clip/Abc-123')).toBe('streamer');
		expect(of('https://kick.com/streamer/clips/clip_1')).toBe('streamer');
		expect(of('https://www.tiktok.com/@user/video/123')).toBe('@user');
		expect(of('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBeNull();
		expect(of('not a link')).toBeNull();
	});

	it('matches a site and what is under it, a path and what is under it, a YouTube video', () => {
		const url = 'https://clips.example.com/a/b?x=1';
		expect(linkMatches(url, 'example.com')).toBe(true);
		expect(linkMatches(url, 'https://clips.example.com/a')).toBe(true);
		expect(linkMatches(url, 'clips.example.com/ab')).toBe(false);
		expect(linkMatches(url, 'example.org')).toBe(false);
		expect(linkMatches('https://youtu.be/dQw4w9WgXcQ', 'youtube.com/watch?v=dQw4w9WgXcQ')).toBe(
			true
		);
		expect(linkMatches('https://m.youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ')).toBe(true);
	});
});

describe('what each audience gets', () => {
	it('a page gets nothing of a video it may not play, and no rule; the dock gets it all', () => {
		const held = { ...tipDecision({ outcome: 'hold', rule: { kind: 'title', text: 'slur' } }) };
		const page = presentVideo(video(), held, 'page');
		expect(page).toMatchObject({ video_title: null, video_thumbnail: null });
		expect(page.moderation).toEqual({ outcome: 'hold', message: 'hidden' });
		expect(JSON.stringify(page)).not.toContain('slur');
		const dock = presentVideo(video(), held, 'dock');
		expect(dock.video_title).toBe('A nice song');
		expect(dock.moderation).toMatchObject({
			outcome: 'hold',
			rule: { kind: 'title' },
			by: 'rules'
		});
		expect(presentVideo(video(), null, 'page').moderation?.outcome).toBe('pending');
		expect(presentVideo(video(), tipDecision(), 'page').video_title).toBe('A nice song');
	});

	it('Approve plays a held video, Reject removes it; the push message names the media queue', () => {
		const held = tipDecision({ orderId: videoKey('tip_1_abc'), outcome: 'hold' });
		expect(settledVideo(held, 'approve')).toMatchObject({ outcome: 'read', by: 'approved' });
		expect(settledVideo(held, 'reject')).toMatchObject({ outcome: 'remove', by: 'rejected' });
		expect(keyOf(videoKey('tip_1_abc'))).toEqual({ queue: 'media', orderId: 'tip_1_abc' });
		expect(decisionMessage(videoKey('tip_1_abc'))).toEqual({
			type: 'decision',
			order_id: 'tip_1_abc',
			queue: 'media'
		});
		expect(decisionMessage('tip_1_abc')).toEqual({ type: 'decision', order_id: 'tip_1_abc' });
	});
});
