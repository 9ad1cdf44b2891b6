// What the TTS and media queues share in the claim reducer's vocabulary (docs/upstream.md, the TTS
// and media calls; the event catalog): an upstream item as a reducer item, the answer of a claim
// call as a reducer result, and the claim events of `queue.<name>.*`. tts-queue.ts and
// media-queue.ts add what differs: routes, the item's name in bodies, when an item is ready, events
// of their own.
import type { KnownEvent } from '../contract/index.ts';
import type { CallResult, ClaimInput, ClaimItem } from '../core/claim-protocol.ts';
import { refusesKey, type ApiResult } from './api.ts';
import type { QueuePort } from './claim-runner.ts';

/** The reducer's item for an upstream item (a tip or a video). */
export function claimItem<T extends { order_id: string; queued_at: string }>(
	data: T,
	ready: boolean
): ClaimItem<T> {
	const queuedAt = Date.parse(data.queued_at);
	return {
		orderId: data.order_id,
		ready,
		// Puts an item whose `added` event arrives after a later one's in its queue place.
		...(Number.isFinite(queuedAt) ? { queuedAt } : {}),
		data
	};
}

/** The answer to GET /tts/queue or /media/queue as the reducer's snapshot. */
export function toSnapshot<T>(
	r: ApiResult<{ is_paused: boolean; current_order_id: string | null; items: T[] }>,
	item: (data: T) => ClaimItem<T>
): Awaited<ReturnType<QueuePort<T>['snapshot']>> {
	// A refused key: the page stops (api.ts reports it), so no retry, on any wait.
	if (!r.ok && refusesKey(r)) return { ok: false, refused: true };
	if (!r.ok) return { ok: false, retryAfterMs: r.kind === 'http' ? r.retryAfterMs : undefined };
	return {
		ok: true,
		value: {
			paused: r.body.is_paused,
			currentOrderId: r.body.current_order_id,
			items: r.body.items.map(item)
		}
	};
}

/** The answer to start, finish or release as the reducer reads it. */
export function toCallResult<T>(
	r: ApiResult<unknown>,
	/** The item in a start's answer (finish and release answer none we use). */
	pick?: (body: any) => T
): CallResult<T> {
	if (r.ok) return { ok: true, data: pick?.(r.body) };
	if (r.kind === 'http') {
		// 409 already_playing names the holder.
		const holder = (r.body as { current_order_id?: unknown } | null)?.current_order_id;
		return {
			ok: false,
			status: r.status,
			code: r.code,
			currentOrderId: typeof holder === 'string' ? holder : undefined,
			retryAfterMs: r.retryAfterMs
		};
	}
	// A malformed answer to a claim call: treat like a network failure (the snapshot will tell).
	return { ok: false, status: 0, code: r.kind };
}

/**
 * The reducer input for a claim event of one queue (`queue.tts.started`, `queue.media.skipped`,
 * ...), or null for any other event.
 */
export function claimEventInput<T>(
	queue: 'tts' | 'media',
	event: KnownEvent
): ClaimInput<T> | null {
	const prefix = `queue.${queue}.`;
	if (!event.type.startsWith(prefix)) return null;
	// Every claim event of the catalog carries these (its schema checked them).
	const data = event.data as { order_id: string; is_paused: boolean };
	const verb = event.type.slice(prefix.length);
	if (verb === 'started') return { kind: 'claimed', orderId: data.order_id };
	if (verb === 'released') return { kind: 'released', orderId: data.order_id };
	if (verb === 'finished' || verb === 'skipped' || verb === 'removed')
		return { kind: 'gone', orderId: data.order_id, why: verb };
	if (verb === 'paused' || verb === 'resumed') return { kind: 'paused', paused: data.is_paused };
	return null;
}
