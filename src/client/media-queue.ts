// The media queue in the claim reducer's vocabulary: upstream calls through the token endpoint
// (docs/upstream.md) and the mapping of realtime events to reducer inputs (the events in
// docs/upstream.md). What it shares with the TTS queue is in claim-queue.ts.
// Moderation (docs/moderation.md, "Videos"): as for tips, the token endpoint decides and the page
// obeys. A video from a read plays only when decided `read`; held and removed ones are left out,
// so they hold nothing back; an undecided one (`pending`) waits. A video heard of by event is
// claimed at once with nothing of its title or picture kept: the start is the gate (409 held,
// passed over) and its answer is what plays.
import type { KnownEvent, QueueMediaItem } from '../contract/index.ts';
import type { ClaimInput, ClaimItem } from '../core/claim-protocol.ts';
import type { ApiClient } from './api.ts';
import type { QueuePort } from './claim-runner.ts';
import { claimEventInput, claimItem, toCallResult, toSnapshot } from './claim-queue.ts';
import * as routes from '../contract/routes.ts';

/** The decision lets the video play. */
export const videoPlays = (media: QueueMediaItem): boolean => media.moderation?.outcome === 'read';

/** The video waits for its decision: none yet, or the token endpoint could not decide it. */
const undecided = (media: QueueMediaItem) =>
	media.moderation === undefined || media.moderation.outcome === 'pending';

/** The reducer's item for a video as the token endpoint handed it out. */
function mediaItem(media: QueueMediaItem): ClaimItem<QueueMediaItem> {
	return claimItem(media, videoPlays(media));
}

/** A video heard of by event: in its place and claimable, with nothing shown of it kept. */
function hintItem(media: QueueMediaItem): ClaimItem<QueueMediaItem> {
	const data: QueueMediaItem = { ...media, video_title: null, video_thumbnail: null };
	delete data.moderation;
	return claimItem(data, true);
}

export function mediaQueuePort(
	api: ApiClient,
	/** Told the `visible` flag of every snapshot read (the player shows or hides by it). */
	onVisible: (visible: boolean) => void,
	/** Whether this copy claims now: a spectator's read sends no ticket (tts-queue.ts says why). */
	claims: () => boolean = () => true
): QueuePort<QueueMediaItem> {
	return {
		async snapshot() {
			const r = await api.request(routes.mediaQueue, {}, { ticket: claims() });
			if (r.ok) onVisible(r.body.visible);
			const read = toSnapshot(r, mediaItem);
			if (!read.ok) return read;
			// Held and removed videos are not ours to play: left out, they hold nothing back.
			const items = read.value.items.filter((i) => videoPlays(i.data) || undecided(i.data));
			return { ok: true, value: { ...read.value, items } };
		},
		// A 409 held is passed over by the reducer (src/core/claim/calls.ts) and read again.
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
			return { kind: 'added', item: hintItem(event.data.media) };
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
