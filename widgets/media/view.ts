// The media widget's view model: everything the markup shows, computed by the player
// (media-player.svelte.ts). The video itself lives in the host element the markup lends the player.
import type { QueueMediaItem } from '../../src/contract/index.ts';
import { queueView, type QueueStatus } from '../shared/queue-status.ts';
import type { DebugRows, Position } from '../shared/theme-params.ts';

/** The video request on screen. Viewer text (title, requester) is always rendered as text. */
export interface NowPlaying {
	orderId: string;
	title: string | null;
	/** The requested address (shown when the title is unknown). */
	url: string;
	thumbnail: string | null;
	requester: string;
	/** The first frame plays (the poster goes away). */
	started: boolean;
	/** Seconds. */
	position: number;
	/** Seconds; null while unknown. */
	duration: number | null;
	/** Held in place (queue paused or player hidden). */
	held: boolean;
	/** Spectator view (claim=never): another copy plays it; no video here. */
	mirrored: boolean;
}

export type MediaStatus = QueueStatus;

/** A video this copy released because it could not play it, and why (diagnostics, preview). */
export interface FailedVideo {
	orderId: string;
	label: string;
	reason: string;
	/** Not tried again by this copy (it stays queued until the streamer skips or removes it). */
	givenUp: boolean;
}

export interface MediaViewModel {
	status: MediaStatus;
	statusDetail?: string;
	/** The upstream's `visible` (GET /media/queue, queue.media.visibility). */
	visible: boolean;
	now: NowPlaying | null;
	/** Ducked under a tip being read (with_tts=duck). */
	ducked: boolean;
	failed: FailedVideo[];
	/** Rows of the debug panel (`debug=1`): connection, last event, claim, then the player's own. */
	debug: DebugRows | null;
	paramErrors: string[] | null;
}

export interface MediaTheme {
	font?: string;
	color?: string;
	accent?: string;
	scale: number;
	position: Position;
	/** Width of the player as a share of its box. */
	size: number;
	/** Title, thumbnail, requester and progress under the video. */
	info: boolean;
}

/** The view before anything connects; with `paramErrors`, that of a page that will not connect. */
export const initialMediaView = (paramErrors: string[] | null = null): MediaViewModel =>
	queueView({ visible: true, now: null, ducked: false, failed: [] }, paramErrors);

/** The video a copy starts playing, as the player shows it. */
export function nowPlaying(media: QueueMediaItem): Omit<NowPlaying, 'mirrored'> {
	return {
		orderId: media.order_id,
		title: media.video_title,
		url: media.media_url,
		thumbnail: media.video_thumbnail,
		requester: media.donor_name,
		started: false,
		position: media.media_start_time,
		duration: media.video_duration > 0 ? media.video_duration : null,
		held: false
	};
}
