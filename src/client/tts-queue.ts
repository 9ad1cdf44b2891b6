// The TTS queue in the claim reducer's vocabulary: upstream calls through the token endpoint, and
// the mapping of realtime events to reducer inputs (CONTRACT.md, Event catalog).
import type { KnownEvent, QueueTip } from '../contract/index.ts';
import type { CallResult, ClaimInput, ClaimItem } from '../core/claim-protocol.ts';
import type { ApiClient, ApiResult } from './api.ts';
import type { QueuePort } from './claim-runner.ts';
import * as routes from '../contract/routes.ts';

export function ttsItem(tip: QueueTip): ClaimItem<QueueTip> {
	const queuedAt = Date.parse(tip.queued_at);
	return {
		orderId: tip.order_id,
		ready: tip.tts_url !== null,
		// Puts a tip.created that arrives after a later tip's in its queue place (oldest first).
		...(Number.isFinite(queuedAt) ? { queuedAt } : {}),
		data: tip
	};
}

export function toCallResult<T>(
	r: ApiResult<unknown>,
	pick: (body: any) => T | undefined
): CallResult<T> {
	if (r.ok) return { ok: true, data: pick(r.body) };
	if (r.kind === 'http')
		return {
			ok: false,
			status: r.status,
			code: r.code,
			currentOrderId:
				typeof (r.body as { current_order_id?: unknown } | null)?.current_order_id === 'string'
					? (r.body as { current_order_id: string }).current_order_id
					: undefined,
			retryAfterMs: r.retryAfterMs
		};
	// A malformed answer to a claim call: treat like a network failure (the snapshot will tell).
	return { ok: false, status: 0, code: r.kind };
}

export function ttsQueuePort(api: ApiClient): QueuePort<QueueTip> {
	return {
		async snapshot() {
			const r = await api.request(routes.ttsQueue, {});
			if (!r.ok) return { ok: false, retryAfterMs: r.kind === 'http' ? r.retryAfterMs : undefined };
			return {
				ok: true,
				value: {
					paused: r.body.is_paused,
					currentOrderId: r.body.current_order_id,
					items: r.body.items.map(ttsItem)
				}
			};
		},
		start: async (orderId) =>
			toCallResult(await api.request(routes.ttsStart, { orderId }), (b) => b.tip as QueueTip),
		finish: async (orderId) =>
			toCallResult(await api.request(routes.ttsFinish, { orderId }), () => undefined),
		release: async (orderId) =>
			toCallResult(await api.request(routes.ttsRelease, { orderId }), () => undefined)
	};
}

/** The reducer input for a TTS event, or null when the event is not about the TTS queue. */
export function ttsInput(
	event: KnownEvent,
	find: (orderId: string) => QueueTip | undefined
): ClaimInput<QueueTip> | null {
	switch (event.type) {
		case 'tip.created':
			return { kind: 'added', item: ttsItem(event.data.tip) };
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
		case 'queue.tts.started':
			return { kind: 'claimed', orderId: event.data.order_id };
		case 'queue.tts.finished':
			return { kind: 'gone', orderId: event.data.order_id, why: 'finished' };
		case 'queue.tts.skipped':
			return { kind: 'gone', orderId: event.data.order_id, why: 'skipped' };
		case 'queue.tts.removed':
			return { kind: 'gone', orderId: event.data.order_id, why: 'removed' };
		case 'queue.tts.released':
			return { kind: 'released', orderId: event.data.order_id };
		case 'queue.tts.paused':
		case 'queue.tts.resumed':
			return { kind: 'paused', paused: event.data.is_paused };
		case 'queue.tts.cleared':
			return { kind: 'cleared' };
		default:
			return null;
	}
}
