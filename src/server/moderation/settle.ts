// Approve and Reject of a held tip or video (docs/moderation.md): the held decision becomes the
// person's, the tip's video held only with it follows it, and what Reject removes is deleted
// upstream. Also the whole message of a held tip for the dock's Reveal. Reached through the
// Moderator (moderator.ts), the one object the routes talk to.
import type { QueueTip } from '../../contract/index.ts';
import { present, settled, type Decision } from '../../core/moderation/decision.ts';
import { settledVideo, videoKey } from '../../core/moderation/video.ts';
import { HttpError } from '../http-error.ts';
import type { UpstreamClient } from '../upstream.ts';
import type { ModerationStore } from './store.ts';
import { readItems, TIPS } from './upstream-items.ts';

export type Verdict = 'approve' | 'reject';
type Queue = 'tts' | 'media';

/** What a settling needs of the Moderator (moderator.ts), which hands itself in. */
interface Settler {
	readonly store: ModerationStore;
	decisionOf(
		streamer: string,
		upstream: UpstreamClient,
		queue: Queue,
		orderId: string
	): Promise<Decision | undefined>;
	removeLater(upstream: UpstreamClient, streamer: string, orderId: string, queue: Queue): void;
}

const NOUN = { tts: 'tip', media: 'video' } as const;

/** A held tip's (`tts`) or video's (`media`) decision settled: `done`, or `already` settled. */
export async function settle(
	moderator: Settler,
	streamer: string,
	upstream: UpstreamClient,
	o: { how: Verdict; queue: Queue; orderId: string }
): Promise<{ outcome: 'done' | 'already'; decision: ReturnType<typeof decisionOnly> }> {
	const { how, queue, orderId } = o;
	const { store } = moderator;
	const held = await moderator.decisionOf(streamer, upstream, queue, orderId);
	if (!held) throw new HttpError(404, 'not_decided', `no decision for this ${NOUN[queue]}`);
	const key = held.orderId;
	const { rules } = await store.rules(streamer);
	const to = queue === 'media' ? settledVideo(held, how) : settled(held, how, rules.onReject);
	const done = await store.settle(streamer, key, to);
	const now = done ?? (await store.get(streamer, [key])).get(key) ?? held;
	if (now.outcome === 'remove') moderator.removeLater(upstream, streamer, orderId, queue);
	if (done && queue === 'tts') await settleItsVideo(moderator, streamer, upstream, orderId, how);
	return { outcome: done ? 'done' : 'already', decision: decisionOnly(now) };
}

/** The tip's video, held only because the tip was, follows the tip's Approve or Reject. */
async function settleItsVideo(
	moderator: Settler,
	streamer: string,
	upstream: UpstreamClient,
	orderId: string,
	how: Verdict
): Promise<void> {
	const key = videoKey(orderId);
	const video = (await moderator.store.get(streamer, [key])).get(key);
	if (video?.outcome !== 'hold' || video.rule?.kind !== 'tip') return;
	const done = await moderator.store.settle(streamer, key, settledVideo(video, how));
	if (done?.outcome === 'remove') moderator.removeLater(upstream, streamer, orderId, 'media');
}

/** The decision as the dock shows it (present's `moderation`, with no tip around it). */
function decisionOnly(d: Decision) {
	const blank = { order_id: '', name: '', amount: null, message: null, tts_url: null } as QueueTip;
	return present(blank, d, 'dock').moderation;
}

/** The tip's message from the queue, else from the last page of played history. */
export async function messageOf(upstream: UpstreamClient, orderId: string): Promise<string | null> {
	for (const [path, field] of [
		['/tts/queue', 'items'],
		['/tts/history?limit=100', 'tips']
	] as const) {
		const tip = (await readItems(upstream, path, field, TIPS))?.find((t) => t.order_id === orderId);
		if (tip) return tip.message;
	}
	throw new HttpError(404, 'not_found', 'this tip is not in the queue or the history');
}
