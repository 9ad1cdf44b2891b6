// The media queue in the claim reducer's vocabulary: upstream calls through the token endpoint
// (docs/upstream.md) and the mapping of realtime events to reducer inputs (the events in
// docs/upstream.md). Every media item can be played at once (`ready`).
// What it shares with the TTS queue is in claim-queue.ts.
import type { KnownEvent, QueueMediaItem } from '../contract/index.ts';
import type { ClaimInput, ClaimItem } from '../core/claim-protocol.ts';
import type { ApiClient } from './api.ts';
import type { QueuePort } from './claim-runner.ts';
import { claimEventInput, claimItem, toCallResult, toSnapshot } from './claim-queue.ts';
import * as routes from '../contract/routes.ts';

export function mediaItem(media: QueueMediaItem): ClaimItem<QueueMediaItem> {
	return claimItem(media, true);
}

export function mediaQueuePort(
	api: ApiClient,
	/** Told the `visible` flag of every snapshot read (the player shows or hides by it). */
	onVisible: (visible: boolean) => void
): QueuePort<QueueMediaItem> {
	return {
		async snapshot() {
			const r = await api.request(routes.mediaQueue, {}, { ticket: true });
			if (r.ok) onVisible(r.body.visible);
			return toSnapshot(r, mediaItem);
		},
		start: async (orderId) =>
			toCallResult(
				await api.request(routes.mediaStart, { orderId }),
				(b) => b.media as QueueMediaItem
			),
		finish: async (orderId) => toCallResult(await api.request(routes.mediaFinish, { orderId })),
		release: async (orderId) => toCallResult(await api.request(routes.mediaRelease, { orderId }))
	};
}

/** What a media event means to the player besides the claim reducer. */
export type MediaSideInput = { kind: 'visible'; visible: boolean } | { kind: 'resnapshot' };

/**
 * The reducer input for a media event, or a side input (visibility; a TTS clear, which resets the
 * media playback state too: docs/upstream.md), or null.
 */
export function mediaInput(event: KnownEvent): ClaimInput<QueueMediaItem> | MediaSideInput | null {
	switch (event.type) {
		case 'queue.media.added':
			return { kind: 'added', item: mediaItem(event.data.media) };
		case 'queue.media.visibility':
			return { kind: 'visible', visible: event.data.visible };
		case 'queue.tts.cleared':
			return { kind: 'resnapshot' };
		default:
			return claimEventInput('media', event);
	}
}

export function isSideInput(
	input: ClaimInput<QueueMediaItem> | MediaSideInput
): input is MediaSideInput {
	return input.kind === 'visible' || input.kind === 'resnapshot';
}
