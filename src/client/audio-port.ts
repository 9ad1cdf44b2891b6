// The audio port: what the TTS player needs from a sound card (load ahead, play, stop, hear the
// start and the end), whatever plays the sound. The widgets' adapter is HowlerAudioPort (audio.ts);
// the tests and the bench use a timed fake (audio-timed.ts).

export interface AudioPort {
	/** Start loading a URL so that play() of it starts at once. Idempotent. */
	preload(url: string): void;
	/** Play from the beginning. The returned handle reports the start and the end. */
	play(url: string, opts: { volume: number }): PlayHandle;
	/** false in a normal browser until a user gesture unlocks audio; true in OBS (autoplay allowed). */
	readonly unlocked: boolean;
	onUnlockChange(cb: (unlocked: boolean) => void): () => void;
}

export interface PlayHandle {
	/**
	 * Resolves with 'ended' when the audio played to the end, or 'stopped' when stop() was called;
	 * rejects with an AudioError (reason in message) if it cannot load/decode/play or stalls.
	 */
	done: Promise<'ended' | 'stopped'>;
	/** Resolves true when playback really started (start the captions), false if it never did. */
	started: Promise<boolean>;
	/** Duration in seconds once known (for captions), else null. */
	duration(): number | null;
	/** Current position in seconds. */
	position(): number;
	stop(): void;
}

/** Why playback failed. 'locked' is not the audio's fault: the page needs a click first. */
export type AudioFailure = 'load' | 'decode' | 'stall' | 'locked' | 'play';

export class AudioError extends Error {
	readonly reason: AudioFailure;
	constructor(reason: AudioFailure, message: string) {
		super(`${reason}: ${message}`);
		this.name = 'AudioError';
		this.reason = reason;
	}
}
