// A video's moderation decision (docs/moderation.md, "Videos") and the video as each audience is
// given it. Pure: the token endpoint decides each video once, with the streamer's rules and its
// tip's decision (src/server/moderation/videos.ts), and stores it beside the tips' decisions under
// its own key (`videoKey`), so the same store keeps both and every copy gets the same outcome.
import type {
	LiveMessage,
	ModerationRules,
	QueueMediaItem,
	RuleKind,
	TipModeration,
	VideoOutcome
} from '../../contract/index.ts';
import type { Decision } from './decision.ts';
import { fold } from './fold.ts';
import { PatternSet } from './patterns.ts';
import { channelOf, linkMatches } from './video-links.ts';

const PREFIX = 'video:';

/** Where a video's decision is stored: apart from its tip's, which has the same order id. */
export const videoKey = (orderId: string): string => PREFIX + orderId;

/** The queue and order id a stored decision is for. */
export function keyOf(key: string): { queue: 'tts' | 'media'; orderId: string } {
	return key.startsWith(PREFIX)
		? { queue: 'media', orderId: key.slice(PREFIX.length) }
		: { queue: 'tts', orderId: key };
}

/** The push channel's message for a settled decision stored under `key`. */
export function decisionMessage(key: string): LiveMessage {
	const { queue, orderId } = keyOf(key);
	return { type: 'decision', order_id: orderId, ...(queue === 'media' ? { queue } : {}) };
}

/** What of its tip a video's decision needs: the tip's decision, and its amount when known. */
export interface TipOfVideo {
	decision: Decision;
	amount: number | null;
}

type Video = Pick<
	QueueMediaItem,
	| 'order_id'
	| 'donor_name'
	| 'media_url'
	| 'video_title'
	| 'video_duration'
	| 'media_start_time'
	| 'requested_via'
> &
	Record<string, unknown>;

interface Match {
	kind: RuleKind;
	outcome: VideoOutcome;
	text?: string;
}

/** A tip's decision as it carries over to its video; null when the video may play for it. */
export function fromTip(d: Decision): Match | null {
	if (d.outcome === 'hold' || d.outcome === 'remove') return { kind: 'tip', outcome: d.outcome };
	// Rejected by a person: its video is not played either.
	if (d.by === 'rejected') return { kind: 'tip', outcome: 'remove' };
	// Shown without voice for what its text says: a person decides on the video.
	const text = d.rule?.kind === 'word' || d.rule?.kind === 'name' || d.rule?.kind === 'link';
	if (d.outcome === 'no_voice' && text) return { kind: 'tip', outcome: 'hold' };
	return null;
}

/** A rule's outcome for a video: a video is played, held or removed (never shown without voice). */
const asVideo = (o: 'no_voice' | 'hold' | 'remove'): VideoOutcome => (o === 'remove' ? o : 'hold');

export type VideoJudge = (video: Video, tip: TipOfVideo | null) => Decision;

/** The rules compiled once per version: deciding a video is then a few walks of short texts. */
export function judgeVideos(
	rules: ModerationRules,
	now: () => Date = () => new Date()
): VideoJudge {
	const v = rules.videos;
	const titleWords = new PatternSet(
		[...v.words, ...rules.words.map((r) => ({ text: r.text, outcome: asVideo(r.outcome) }))],
		(r) => r.text
	);
	const names = new PatternSet(rules.names, (r) => r.text);
	const channels = new PatternSet(v.channels, (r) => r.text);
	return (video, tip) => {
		// Queued by the streamer (the upstream's dashboard, the dock's replay): their own choice.
		if (video.requested_via === 'admin') return decision(video, null, now);
		const matches: Match[] = [];
		const title = video.video_title ?? '';
		for (const hit of titleWords.find(fold(title)))
			matches.push({ kind: 'title', outcome: hit.rule.outcome, text: hit.rule.text });
		const channel = channelOf(video);
		const blocked = channel === null ? undefined : channels.whole(fold(channel));
		if (blocked) matches.push({ kind: 'channel', outcome: blocked.outcome, text: blocked.text });
		for (const link of v.links)
			if (linkMatches(video.media_url, link.text))
				matches.push({ kind: 'video_link', outcome: link.outcome, text: link.text });
		const name = names.whole(fold(video.donor_name));
		if (name) matches.push({ kind: 'name', outcome: asVideo(name.outcome), text: name.text });
		const seconds = video.video_duration - Math.max(0, video.media_start_time);
		if (v.maxSeconds && video.video_duration > 0 && seconds > v.maxSeconds.seconds)
			matches.push({
				kind: 'max_length',
				outcome: v.maxSeconds.outcome,
				text: String(v.maxSeconds.seconds)
			});
		if (v.every) matches.push({ kind: 'every_video', outcome: v.every });
		const amount = tip?.amount ?? null;
		if (v.fromAmount && amount !== null && amount >= v.fromAmount.amount)
			matches.push({
				kind: 'video_from_amount',
				outcome: v.fromAmount.outcome,
				text: String(v.fromAmount.amount)
			});
		// Last: of equal outcomes, the video's own rule is named (Approve of the tip leaves it held).
		const carried = tip ? fromTip(tip.decision) : null;
		if (carried) matches.push(carried);
		let decided: Match | null = null;
		for (const m of matches)
			if (decided === null || (m.outcome === 'remove' && decided.outcome !== 'remove')) decided = m;
		return decision(video, decided, now);
	};
}

function decision(video: Video, decided: Match | null, now: () => Date): Decision {
	return {
		orderId: videoKey(video.order_id),
		outcome: decided?.outcome ?? 'read',
		rule: decided ? { kind: decided.kind, ...(decided.text ? { text: decided.text } : {}) } : null,
		spans: [],
		by: 'rules',
		decidedAt: now().toISOString()
	};
}

/** Approve (played) or Reject (removed) of a held video. */
export function settledVideo(
	held: Decision,
	how: 'approve' | 'reject',
	now = new Date()
): Decision {
	return {
		...held,
		outcome: how === 'approve' ? 'read' : 'remove',
		by: how === 'approve' ? 'approved' : 'rejected',
		decidedAt: now.toISOString()
	};
}

/**
 * The video as `audience` gets it. A page gets the title and thumbnail of a video it may play
 * only, and no rule text; the dock gets everything with the rule and who decided. `decision` null:
 * not decided (the store or the tip could not be read): `pending`, never played.
 */
export function presentVideo<T extends QueueMediaItem>(
	video: T,
	decision: Decision | null,
	audience: 'page' | 'dock'
): T {
	const outcome = decision?.outcome ?? 'pending';
	const plays = outcome === 'read';
	const moderation: TipModeration = {
		outcome,
		message: plays || audience === 'dock' ? 'shown' : 'hidden'
	};
	if (audience === 'dock' && decision) {
		moderation.rule = decision.rule;
		moderation.by = decision.by;
	}
	if (plays || audience === 'dock') return { ...video, moderation };
	return { ...video, video_title: null, video_thumbnail: null, moderation };
}
