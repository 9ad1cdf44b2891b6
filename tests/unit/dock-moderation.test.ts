// What the dock shows of moderation, from the TTS and media queues as /control/api gives them
// (widgets/dock/moderation.ts): the Held list of tips and videos, Up next's tips and videos and
// their badges, the rule that held one in words, what a held video's row says of it, a realtime
// event's tip (the upstream's raw message) never shown before the token endpoint decided it, and
// what a push channel message makes the dock read (dock-live.ts).
import { describe, expect, it } from 'vitest';
import type { QueueMediaItem, QueueTip, TipModeration } from '../../src/contract/index.ts';
import { liveReads } from '../../widgets/dock/dock-live.ts';
import {
	badgeOf,
	fromEvent,
	heldItems,
	heldTips,
	ruleLabel,
	undecided,
	upNextTips,
	upNextVideos,
	videoFacts,
	videoFromEvent
} from '../../widgets/dock/moderation.ts';
import { queueMedia, queueTip } from './contract-examples.ts';

const USD = { code: 'USD', symbol: '$' };

function tip(
	n: number,
	moderation?: TipModeration,
	message: string | null = `message ${n}`
): QueueTip {
	const t: QueueTip = {
		...queueTip(),
		order_id: `tip_${n}_aa`,
		name: `Viewer ${n}`,
		message,
		platform: null,
		platform_user_id: null
	};
	return moderation ? { ...t, moderation } : t;
}

const read: TipModeration = { outcome: 'read', message: 'shown', rule: null, by: 'rules' };
const held = (kind: 'word' | 'every_tip' | 'from_amount', text?: string): TipModeration => ({
	outcome: 'hold',
	message: 'masked',
	rule: { kind, text },
	by: 'rules'
});

/** A queue snapshot as the dock reads it: read, held, without voice, removed, undecided. */
const QUEUE: QueueTip[] = [
	tip(1, read),
	tip(2, held('word', 'scam'), 'a •••• for you'),
	tip(3, { outcome: 'no_voice', message: 'masked', rule: { kind: 'word', text: 'rude' } }, '••••'),
	tip(4, { outcome: 'remove', message: 'hidden', rule: { kind: 'name', text: 'Troll' } }, null),
	tip(5, held('every_tip')),
	tip(6, { outcome: 'pending', message: 'hidden' }, null)
];
const ids = (tips: QueueTip[] | null) => tips?.map((t) => t.order_id);

describe('the held tips', () => {
	it('are the queue tips a rule holds, in queue order, with the masked message the server gave', () => {
		const list = heldTips(QUEUE);
		expect(ids(list)).toEqual(['tip_2_aa', 'tip_5_aa']);
		expect(list[0].message).toBe('a •••• for you');
		expect(heldTips(null)).toEqual([]);
	});

	it('say which rule held them, as the streamer wrote it', () => {
		expect(ruleLabel(QUEUE[1].moderation, USD)).toBe('word: scam');
		expect(ruleLabel(QUEUE[4].moderation, USD)).toBe('every tip');
		expect(ruleLabel(held('from_amount', '50'), USD)).toBe('from $50.00');
		expect(
			ruleLabel({ outcome: 'no_voice', message: 'hidden', rule: null, by: 'rejected' }, USD)
		).toBe('rejected in the dock');
	});
});

function video(
	n: number,
	moderation: TipModeration | undefined,
	fields: Partial<QueueMediaItem> = {}
): QueueMediaItem {
	const v: QueueMediaItem = {
		...queueMedia(),
		order_id: `tip_${n}_aa`,
		donor_name: `Viewer ${n}`,
		queued_at: `2026-09-06T12:0${n}:00Z`,
		...fields
	};
	return moderation ? { ...v, moderation } : v;
}

const heldVideo = (kind: 'title' | 'every_video' | 'tip' | 'max_length', text?: string) =>
	({ outcome: 'hold', message: 'shown', rule: { kind, text }, by: 'rules' }) as TipModeration;

/** The media queue as the dock reads it: played, held (its tip's), held by a rule, undecided. */
const VIDEOS: QueueMediaItem[] = [
	video(1, { outcome: 'read', message: 'shown', rule: null, by: 'rules' }),
	video(2, heldVideo('tip')),
	video(7, heldVideo('title', 'crash')),
	video(8, { outcome: 'pending', message: 'shown' })
];

describe('the held videos', () => {
	it('join the held tips in one list, oldest first, a tip before its own video', () => {
		const tips = QUEUE.map((t, i) => ({ ...t, queued_at: `2026-09-06T12:0${i + 1}:00Z` }));
		const rows = heldItems(tips, VIDEOS).map((r) => `${r.queue}:${r.item.order_id}`);
		expect(rows).toEqual(['tts:tip_2_aa', 'media:tip_2_aa', 'tts:tip_5_aa', 'media:tip_7_aa']);
		expect(heldItems(null, VIDEOS).map((r) => r.queue)).toEqual(['media', 'media']);
		expect(heldItems(tips, undefined).map((r) => r.queue)).toEqual(['tts', 'tts']);
	});

	it('say their title, channel, length and the rule that held them', () => {
		const v = video(3, heldVideo('max_length', '600'), {
			media_url: 'https://www.youtube.com/@SomeChannel/videos',
			media_start_time: 0,
			video_duration: 754
		});
		expect(videoFacts(v)).toEqual({
			title: 'A song',
			channel: '@SomeChannel',
			length: '12:34',
			thumbnail: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg'
		});
		expect(ruleLabel(v.moderation, USD)).toBe('longer than 600 s');
		expect(ruleLabel(VIDEOS[1].moderation, USD)).toBe('its tip');
		expect(ruleLabel(VIDEOS[2].moderation, USD)).toBe('title word: crash');
		// No title, a link that names no channel, an unknown length, a start time, no thumbnail.
		const bare = video(4, heldVideo('every_video'), {
			video_title: null,
			video_duration: 0,
			video_thumbnail: null
		});
		expect(videoFacts(bare)).toEqual({
			title: '(no title)',
			channel: null,
			length: 'unknown length',
			thumbnail: null
		});
		expect(videoFacts(VIDEOS[0]).length).toBe('3:32, starts at 0:30');
	});

	it('show a thumbnail only from a web link', () => {
		for (const url of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'file:///etc/x.png'])
			expect(videoFacts(video(5, undefined, { video_thumbnail: url })).thumbnail).toBeNull();
		expect(
			videoFacts(video(5, undefined, { video_thumbnail: 'http://127.0.0.1:1/t.png' })).thumbnail
		).toBe('http://127.0.0.1:1/t.png');
	});

	it('Up next lists every queued video but the removed ones, each with its badge', () => {
		const removed = video(9, { outcome: 'remove', message: 'shown', rule: { kind: 'channel' } });
		const next = upNextVideos([...VIDEOS, removed]);
		expect(next?.map((v) => v.order_id)).toEqual(['tip_1_aa', 'tip_2_aa', 'tip_7_aa', 'tip_8_aa']);
		expect(next!.map(badgeOf)).toEqual([null, 'held', 'held', 'checking…']);
		expect(upNextVideos(null)).toBeNull();
		expect(undecided(VIDEOS)).toBe(true);
		expect(undecided(VIDEOS.slice(0, 3))).toBe(false);
	});

	it("an event's video takes the decision the dock read; without one it is checked, title shown", () => {
		const raw = video(7, undefined);
		expect(videoFromEvent(raw, VIDEOS[2])).toEqual({
			video: { ...raw, moderation: VIDEOS[2].moderation },
			decided: true
		});
		for (const known of [undefined, VIDEOS[3]]) {
			const { video: shown, decided } = videoFromEvent(
				{ ...raw, moderation: heldVideo('tip') },
				known
			);
			expect(decided).toBe(false);
			expect(shown.moderation?.outcome).toBe('pending');
			expect(shown.video_title).toBe('A song');
		}
	});
});

describe('Up next', () => {
	it('lists every queued tip but the removed ones, each with its badge', () => {
		const next = upNextTips(QUEUE);
		expect(ids(next)).toEqual(['tip_1_aa', 'tip_2_aa', 'tip_3_aa', 'tip_5_aa', 'tip_6_aa']);
		expect(next!.map(badgeOf)).toEqual([null, 'held', 'no voice', 'held', 'checking…']);
		expect(upNextTips(null)).toBeNull();
	});

	it('knows when tips wait for a decision (the dock then reads again)', () => {
		expect(undecided(QUEUE)).toBe(true);
		expect(undecided(QUEUE.slice(0, 5))).toBe(false);
	});
});

describe("a realtime event's tip", () => {
	it('takes the decision and masked message the dock read for it, never the raw message', () => {
		const known = QUEUE[2];
		const raw = tip(3, undefined, 'you are rude');
		const { tip: shown, decided } = fromEvent(raw, known);
		expect(decided).toBe(true);
		expect(shown.message).toBe('••••');
		expect(shown.moderation?.outcome).toBe('no_voice');
		expect(shown.tts_url).toBeNull();
	});

	it('is undecided, its message withheld, when the dock has no decision for it', () => {
		const raw = {
			...tip(7, undefined, 'buy followers at scam.example'),
			tts_url: 'https://a/b.mp3'
		};
		for (const known of [undefined, QUEUE[5]]) {
			const { tip: shown, decided } = fromEvent(raw, known);
			expect(decided).toBe(false);
			expect(shown).toMatchObject({
				message: null,
				tts_url: null,
				moderation: { outcome: 'pending' }
			});
		}
	});

	it('ignores a decision the event itself carries: events come from the upstream, not from us', () => {
		const forged = tip(8, read, 'raw text');
		expect(fromEvent(forged, undefined)).toMatchObject({ decided: false, tip: { message: null } });
	});
});

describe('the push channel', () => {
	it('makes the dock read the queue for a decision, the rules for rules, both after a (re)connect', () => {
		// A tip's decision may settle its video too: both queues.
		for (const queue of [undefined, 'tts'] as const)
			expect(liveReads({ type: 'decision', order_id: 'tip_2_aa', queue })).toEqual({
				snapshots: ['tts', 'media'],
				rules: false
			});
		expect(liveReads({ type: 'decision', order_id: 'tip_2_aa', queue: 'media' })).toEqual({
			snapshots: ['media'],
			rules: false
		});
		expect(liveReads({ type: 'rules', version: 3 })).toEqual({ snapshots: [], rules: true });
		for (const type of ['hello', 'resync'] as const)
			expect(liveReads({ type })).toEqual({
				snapshots: ['tts', 'ttsHistory', 'media'],
				rules: true
			});
	});

	it('reads nothing for a save of the stored settings (the widgets look, the dock does not change)', () => {
		expect(liveReads({ type: 'settings', target: 'tts', version: 4 })).toEqual({
			snapshots: [],
			rules: false
		});
	});
});
