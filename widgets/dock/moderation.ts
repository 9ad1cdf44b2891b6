// What the dock shows of moderation (moderation.md), as pure functions of its model: the held tips
// and videos, each item's badge, the rule that decided in words, and a tip or video record from a
// realtime event made safe to show. The token endpoint decides; the dock only shows its decisions
// (`moderation` on the tips of /control/api/tts/queue and /tts/history, and on the videos of
// /media/queue) and asks it to approve or reject.
import type { QueueMediaItem, QueueTip, TipModeration } from '../../src/contract/index.ts';
import { clockTime } from '../../src/core/media-source.ts';
import { channelOf } from '../../src/core/moderation/video-links.ts';
import type { CurrencyInfo } from '../shared/currency.ts';
import { formatAmount } from '../shared/currency.ts';

/** A tip the token endpoint has not decided for this dock yet: its message is not shown. */
const UNDECIDED: TipModeration = { outcome: 'pending', message: 'hidden' };
/** A video not decided yet: the dock is given every video's title, so it shows. */
const UNDECIDED_VIDEO: TipModeration = { outcome: 'pending', message: 'shown' };

/**
 * A tip record from a realtime event: the upstream's, with the viewer's raw message and no
 * decision (a `moderation` in it is not the token endpoint's: the events come straight from the
 * upstream, so it is ignored). It takes the decision and the (masked) message of the record the dock read (`known`);
 * without one it is undecided, its message withheld, until the dock reads the queue (`decided`
 * false asks for that).
 */
export function fromEvent<T extends QueueTip>(
	raw: T,
	known: QueueTip | null | undefined
): { tip: T; decided: boolean } {
	const m = known?.moderation;
	if (known && m && m.outcome !== 'pending') {
		const tts_url = m.outcome === 'read' ? raw.tts_url : null;
		return { tip: { ...raw, moderation: m, message: known.message, tts_url }, decided: true };
	}
	return { tip: { ...raw, moderation: UNDECIDED, message: null, tts_url: null }, decided: false };
}

/**
 * A video record from a realtime event: the upstream's, without a decision (one in it is ignored,
 * as a tip's). It takes the decision of the record the dock read (`known`); without one it is
 * undecided until the dock reads the media queue (`decided` false asks for that). Its title shows
 * either way: the dock is given every video's title.
 */
export function videoFromEvent<T extends QueueMediaItem>(
	raw: T,
	known: QueueMediaItem | null | undefined
): { video: T; decided: boolean } {
	const m = known?.moderation;
	if (known && m && m.outcome !== 'pending')
		return { video: { ...raw, moderation: m }, decided: true };
	return { video: { ...raw, moderation: UNDECIDED_VIDEO }, decided: false };
}

type Decided = { moderation?: TipModeration };

const isHeld = (i: Decided) => i.moderation?.outcome === 'hold';

/** The queue's tips waiting for a person's Approve or Reject, in queue order. */
export function heldTips(items: readonly QueueTip[] | null | undefined): QueueTip[] {
	return (items ?? []).filter(isHeld);
}

/** A row of the Held list: a tip or a video, each approved or rejected in its own queue. */
export type HeldItem = { queue: 'tts'; item: QueueTip } | { queue: 'media'; item: QueueMediaItem };

/**
 * The held tips and videos in one list, oldest first (each queue keeps its own order; a tip comes
 * before its own video, queued with it).
 */
export function heldItems(
	tips: readonly QueueTip[] | null | undefined,
	videos: readonly QueueMediaItem[] | null | undefined
): HeldItem[] {
	const rows: HeldItem[] = [];
	const held = (videos ?? []).filter(isHeld);
	let v = 0;
	for (const tip of heldTips(tips)) {
		while (v < held.length && held[v].queued_at < tip.queued_at)
			rows.push({ queue: 'media', item: held[v++] });
		rows.push({ queue: 'tts', item: tip });
	}
	for (; v < held.length; v++) rows.push({ queue: 'media', item: held[v] });
	return rows;
}

/** Up next's tips: every queued one but those the rules removed (they never play). */
export function upNextTips(items: readonly QueueTip[] | null | undefined): QueueTip[] | null {
	return items ? items.filter((t) => t.moderation?.outcome !== 'remove') : null;
}

/** Up next's videos: every queued one but those the rules removed (the server leaves them out). */
export function upNextVideos(
	items: readonly QueueMediaItem[] | null | undefined
): QueueMediaItem[] | null {
	return items ? items.filter((v) => v.moderation?.outcome !== 'remove') : null;
}

/** Items whose decision is still to come (the decision store was unreachable, or an event's). */
export function undecided(items: readonly Decided[] | null | undefined): boolean {
	return (items ?? []).some((t) => t.moderation?.outcome === 'pending');
}

/**
 * What the Held list says of a video: its title, its channel when the link names one, its length,
 * and its thumbnail when it is a web link (an image from elsewhere is loaded: the page's policy
 * allows any host, as for Now playing).
 */
export function videoFacts(video: QueueMediaItem): {
	title: string;
	channel: string | null;
	length: string;
	thumbnail: string | null;
} {
	const start =
		video.media_start_time > 0 ? `, starts at ${clockTime(video.media_start_time)}` : '';
	return {
		title: video.video_title?.trim() || '(no title)',
		channel: channelOf(video),
		length: video.video_duration > 0 ? clockTime(video.video_duration) + start : 'unknown length',
		thumbnail: /^https?:\/\//i.test(video.video_thumbnail ?? '') ? video.video_thumbnail : null
	};
}

/** The badge a tip or video shows in Up next and Now playing; null for one that plays as it is. */
export function badgeOf(item: Decided): string | null {
	switch (item.moderation?.outcome) {
		case 'no_voice':
			return 'no voice';
		case 'hold':
			return 'held';
		case 'pending':
			return 'checking…';
		default:
			return null;
	}
}

/** An amount rule's text (the server's, a number as written) as money when it is a number. */
function money(text: string | undefined, currency: CurrencyInfo | null): string {
	const n = text === undefined || text.trim() === '' ? NaN : Number(text);
	return Number.isFinite(n) ? formatAmount(n, currency) : (text ?? 'an amount');
}

/** The rule that decided, as the streamer wrote it: `word: <text>`, `every tip`, `from $50`. */
export function ruleLabel(m: TipModeration | undefined, currency: CurrencyInfo | null): string {
	const rule = m?.rule;
	if (!rule) return m?.by === 'approved' || m?.by === 'rejected' ? `${m.by} in the dock` : 'rules';
	switch (rule.kind) {
		case 'word':
			return `word: ${rule.text ?? '?'}`;
		case 'name':
			return `name: ${rule.text ?? '?'}`;
		case 'link':
			return 'a link';
		case 'every_tip':
			return 'every tip';
		case 'min_amount':
			return `below ${money(rule.text, currency)}`;
		case 'from_amount':
			return `from ${money(rule.text, currency)}`;
		case 'title':
			return `title word: ${rule.text ?? '?'}`;
		case 'channel':
			return `channel: ${rule.text ?? '?'}`;
		case 'video_link':
			return `link: ${rule.text ?? '?'}`;
		case 'max_length':
			return `longer than ${rule.text ?? '?'} s`;
		case 'every_video':
			return 'every video';
		case 'video_from_amount':
			return `video from ${money(rule.text, currency)}`;
		case 'tip':
			return 'its tip';
		default:
			return rule.kind.replaceAll('_', ' ');
	}
}
