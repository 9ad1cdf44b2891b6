// The one small interface every video player sits behind (HTML5 <video>, YouTube's IFrame Player).
// The media player (media-player.svelte.ts) opens a session per claimed item and knows nothing of
// the platform behind it.

export interface SessionOptions {
	/** Where to start, in seconds (`media_start_time`). */
	startAt: number;
	/** 0 to 1. */
	volume: number;
	/** The first frame plays (hide the poster, start the progress bar). */
	onStarted(): void;
	/** Position and length in seconds (length null while unknown); called as playback moves. */
	onProgress(position: number, duration: number | null): void;
}

export interface MediaSession {
	/** Resolves when the video really played to its end; rejects with a MediaPlayError. */
	readonly done: Promise<void>;
	/** Holds the picture and the position (queue paused, player hidden). */
	pause(): void;
	/** Plays on from where it was held. */
	resume(): void;
	setVolume(volume: number): void;
	/** Stops and removes the player; `done` then never settles. */
	destroy(): void;
}

export interface MediaAdapter {
	/** Starts playing into `host` (an empty element the adapter fills and empties). */
	open(host: HTMLElement, opts: SessionOptions): MediaSession;
}

/**
 * Why a video could not be played. `permanent`: another attempt cannot help (unsupported, removed,
 * not embeddable). `transient`: not the video's fault (the page may not autoplay until a click).
 */
export class MediaPlayError extends Error {
	readonly permanent: boolean;
	readonly transient: boolean;
	constructor(message: string, o: { permanent?: boolean; transient?: boolean } = {}) {
		super(message);
		this.name = 'MediaPlayError';
		this.permanent = o.permanent ?? false;
		this.transient = o.transient ?? false;
	}
}

/** How long a video may take to show its first frame, and to move again once it played. */
export const START_TIMEOUT_MS = 12_000;
export const STALL_TIMEOUT_MS = 15_000;
