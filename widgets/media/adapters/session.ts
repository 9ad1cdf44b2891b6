// What every video session keeps, whatever the player behind it (html5.ts, youtube.ts): whether
// it started, is held or is closed, its outcome, and its watchdog: no first frame within
// START_TIMEOUT_MS, or no movement for STALL_TIMEOUT_MS while it plays. Nothing runs while the
// video is held or gone. The adapter says how its own player stops (`stop`).
import {
	MediaPlayError,
	START_TIMEOUT_MS,
	STALL_TIMEOUT_MS,
	type SessionOptions
} from './types.ts';

export interface SessionCore {
	/** The session's outcome (MediaSession.done). */
	readonly done: Promise<void>;
	readonly held: boolean;
	readonly closed: boolean;
	/** The video plays: the first time, the widget is told; then a stall is watched for. */
	playing(): void;
	/** The position moved: the stall timer starts again (the player sends nothing once closed). */
	moved(): void;
	/** Played to its end (`e` absent), or failed with `e`. */
	end(e?: MediaPlayError): void;
	/** Holds the session; false when it was already held or is closed (nothing to do). */
	hold(): boolean;
	/** Plays on; false when it was not held or is closed (nothing to do). */
	release(): boolean;
	/** Stops the player; `done` then never settles. */
	close(): void;
}

/**
 * `what` names the video in the watchdog's words ("video", "YouTube video"). The methods use no
 * `this`: an adapter may hand them on as they are.
 */
// eslint-disable-next-line max-lines-per-function -- the session's methods share its state
export function sessionCore(what: string, opts: SessionOptions, stop: () => void): SessionCore {
	let started = false;
	let timer: ReturnType<typeof setTimeout> | undefined;
	let resolve!: () => void;
	let reject!: (e: MediaPlayError) => void;
	const arm = (ms?: number) => {
		clearTimeout(timer);
		if (ms)
			timer = setTimeout(
				() =>
					core.end(
						new MediaPlayError(
							started
								? `the ${what} stopped moving for ${STALL_TIMEOUT_MS / 1000} s`
								: `the ${what} did not start within ${START_TIMEOUT_MS / 1000} s`
						)
					),
				ms
			);
	};
	const core = {
		done: new Promise<void>((y, n) => {
			resolve = y;
			reject = n;
		}),
		held: false,
		closed: false,
		playing() {
			if (!started) {
				started = true;
				opts.onStarted();
			}
			core.moved();
		},
		moved() {
			if (started && !core.held) arm(STALL_TIMEOUT_MS);
		},
		end(e?: MediaPlayError) {
			if (core.closed) return;
			core.close();
			if (e) reject(e);
			else resolve();
		},
		hold() {
			if (core.closed || core.held) return false;
			core.held = true;
			arm();
			return true;
		},
		release() {
			if (core.closed || !core.held) return false;
			core.held = false;
			arm(started ? STALL_TIMEOUT_MS : START_TIMEOUT_MS);
			return true;
		},
		close() {
			if (core.closed) return;
			core.closed = true;
			arm();
			stop();
		}
	};
	arm(START_TIMEOUT_MS);
	return core;
}

/** A volume from 0 to 1, whatever was asked. */
export function clampVolume(v: number): number {
	return Math.min(1, Math.max(0, v));
}
