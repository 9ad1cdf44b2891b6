// The TTS queue in the claim reducer's vocabulary: upstream calls through the token endpoint, and
// the mapping of realtime events to reducer inputs (CONTRACT.md, Event catalog). What it shares with
// the media queue is in claim-queue.ts.
import type { KnownEvent, QueueTip } from '../contract/index.ts';
import type { ClaimInput, ClaimItem } from '../core/claim-protocol.ts';
import type { ApiClient } from './api.ts';
import { claimEventInput, claimItem, toCallResult, toSnapshot } from './claim-queue.ts';
import type { QueuePort } from './claim-runner.ts';
import * as routes from '../contract/routes.ts';

export function ttsItem(tip: QueueTip): ClaimItem<QueueTip> {
	return claimItem(tip, tip.tts_url !== null);
}

export function ttsQueuePort(api: ApiClient): QueuePort<QueueTip> {
	return {
		snapshot: async () => toSnapshot(await api.request(routes.ttsQueue, {}), ttsItem),
		start: async (orderId) =>
			toCallResult(await api.request(routes.ttsStart, { orderId }), (b) => b.tip as QueueTip),
		finish: async (orderId) => toCallResult(await api.request(routes.ttsFinish, { orderId })),
		release: async (orderId) => toCallResult(await api.request(routes.ttsRelease, { orderId }))
	};
}

/** The reducer input for a TTS event, or null when the event is not about the TTS queue. */
export function ttsInput(
	event: KnownEvent,
	find: (orderId: string) => QueueTip | undefined
): ClaimInput<QueueTip> | null {
	switch (event.type) {
		case 'tip.created':
		case 'queue.tts.replayed':
			return { kind: 'added', item: ttsItem(event.data.tip) };
		case 'tip.tts_ready': {
			const known = find(event.data.order_id);
			return {
				kind: 'ready',
				orderId: event.data.order_id,
				data: known ? { ...known, tts_url: event.data.tts_url } : undefined
			};
		}
		case 'queue.tts.cleared':
			return { kind: 'cleared' };
		default:
			return claimEventInput('tts', event);
	}
}
