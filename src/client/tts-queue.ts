// The TTS queue in the claim reducer's vocabulary: upstream calls through the token endpoint, and
// what a realtime event does to the claim runner (CONTRACT.md, Event catalog). What it shares with
// the media queue is in claim-queue.ts.
// Moderation (docs/moderation.md): the token endpoint decides, the page obeys. A tip can be claimed
// only as the token endpoint handed it out with its decision (`moderation`): `read` (ready once its
// audio is), `no_voice` (ready at once, shown without voice). Held and removed tips are left out, so
// they never hold the queue back; an undecided one (`pending`, or no decision at all) waits. A tip
// from a realtime event is only a hint: it is queued not ready, without its message, and the queue
// is read again, which has the token endpoint decide it.
import type { KnownEvent, QueueTip } from '../contract/index.ts';
import type { ClaimItem } from '../core/claim-protocol.ts';
import type { ApiClient } from './api.ts';
import { claimEventInput, claimItem, toCallResult, toSnapshot } from './claim-queue.ts';
import type { ClaimRunner, QueuePort } from './claim-runner.ts';
import * as routes from '../contract/routes.ts';

/** The decision lets the tip be played: read aloud, or shown without voice. */
export function playable(tip: QueueTip): boolean {
	const outcome = tip.moderation?.outcome;
	return outcome === 'read' || outcome === 'no_voice';
}

/** The tip waits for its decision: none yet, or the token endpoint could not decide it. */
export function undecided(tip: QueueTip): boolean {
	const outcome = tip.moderation?.outcome;
	return outcome === undefined || outcome === 'pending';
}

/** The reducer's item for a tip as the token endpoint handed it out. */
function ttsItem(tip: QueueTip): ClaimItem<QueueTip> {
	const outcome = tip.moderation?.outcome;
	return claimItem(tip, outcome === 'no_voice' || (outcome === 'read' && tip.tts_url !== null));
}

/** A tip heard of by event: queued in its place, never claimed or shown as it is. */
function hintItem(tip: QueueTip): ClaimItem<QueueTip> {
	const data: QueueTip = { ...tip, message: null, tts_url: null };
	delete data.moderation;
	return claimItem(data, false);
}

export function ttsQueuePort(api: ApiClient): QueuePort<QueueTip> {
	return {
		async snapshot() {
			const read = toSnapshot(await api.request(routes.ttsQueue, {}), ttsItem);
			if (!read.ok) return read;
			// Held and removed tips are not ours to play: left out, they hold nothing back.
			const items = read.value.items.filter((i) => playable(i.data) || undecided(i.data));
			return { ok: true, value: { ...read.value, items } };
		},
		async start(orderId) {
			const result = toCallResult(
				await api.request(routes.ttsStart, { orderId }),
				(b) => b.tip as QueueTip
			);
			// Held (or not decided) since we read it: not ours to play. Treated as gone from our
			// queue (dropped and read again: the read shows it once it may be played).
			if (!result.ok && result.status === 409 && result.code === 'held')
				return { ...result, code: 'not_in_queue' };
			return result;
		},
		finish: async (orderId) => toCallResult(await api.request(routes.ttsFinish, { orderId })),
		release: async (orderId) => toCallResult(await api.request(routes.ttsRelease, { orderId }))
	};
}

export type TtsRunner = Pick<ClaimRunner<QueueTip>, 'dispatch' | 'requestSnapshot' | 'snapshot'>;

/** What a realtime event does to the TTS claim runner (nothing for events of other queues). */
export function applyTtsEvent(runner: TtsRunner, event: KnownEvent): void {
	switch (event.type) {
		case 'tip.created':
		case 'queue.tts.replayed':
			runner.dispatch({ kind: 'added', item: hintItem(event.data.tip) });
			// The read has the token endpoint decide the tip.
			return runner.requestSnapshot();
		case 'tip.tts_ready': {
			const orderId = event.data.order_id;
			const known = runner.snapshot.items.find((i) => i.orderId === orderId)?.data;
			// Only audio of a tip decided `read` is played; another tip is read again (decided).
			if (known && known.moderation?.outcome !== 'read') return runner.requestSnapshot();
			const data = known ? { ...known, tts_url: event.data.tts_url } : undefined;
			return runner.dispatch({ kind: 'ready', orderId, data });
		}
		case 'queue.tts.cleared':
			return runner.dispatch({ kind: 'cleared' });
		default: {
			const input = claimEventInput<QueueTip>('tts', event);
			if (input) runner.dispatch(input);
		}
	}
}
