// Whether this page may start a video with sound, for the media player (the TTS player's audio
// port learns it from howler's AudioContext, but a media page does not load howler). OBS allows
// autoplay (CEF runs with --autoplay-policy=no-user-gesture-required); a normal browser tab needs
// one click first. Probed with a silent sound (autoplay.ts); gestures anywhere re-probe.
import { probeAutoplay } from './autoplay.ts';

export interface UnlockGate {
	readonly unlocked: boolean;
	onUnlockChange(cb: (unlocked: boolean) => void): () => void;
	/** Ask again (call from a click handler). */
	unlock(): Promise<boolean>;
}

const GESTURES = ['pointerdown', 'keydown', 'touchend'] as const;

export class AutoplayGate implements UnlockGate {
	private isUnlocked: boolean;
	private probing: Promise<boolean> | null = null;
	private readonly listeners = new Set<(unlocked: boolean) => void>();
	private removeGestures: (() => void) | null = null;

	constructor() {
		const inObs = typeof (window as { obsstudio?: unknown }).obsstudio === 'object';
		this.isUnlocked = inObs || (navigator.userActivation?.hasBeenActive ?? false);
		if (!inObs) void this.unlock();
	}

	get unlocked(): boolean {
		return this.isUnlocked;
	}

	onUnlockChange(cb: (unlocked: boolean) => void): () => void {
		this.listeners.add(cb);
		return () => this.listeners.delete(cb);
	}

	unlock(): Promise<boolean> {
		this.probing ??= probeAutoplay().then((result) => {
			this.probing = null;
			// Inconclusive (no audio device): do not ask for a click that cannot help.
			this.set(result ?? true);
			return this.isUnlocked;
		});
		return this.probing;
	}

	/** A video was refused for lack of a gesture: locked until a click. */
	locked(): void {
		this.set(false);
	}

	dispose(): void {
		this.removeGestures?.();
		this.listeners.clear();
	}

	private set(unlocked: boolean): void {
		if (!unlocked && !this.removeGestures) {
			const onGesture = () => void this.unlock();
			const o = { capture: true, passive: true };
			for (const t of GESTURES) document.addEventListener(t, onGesture, o);
			this.removeGestures = () => {
				for (const t of GESTURES) document.removeEventListener(t, onGesture, o);
			};
		}
		if (unlocked) {
			this.removeGestures?.();
			this.removeGestures = null;
		}
		if (unlocked === this.isUnlocked) return;
		this.isUnlocked = unlocked;
		for (const cb of [...this.listeners]) cb(unlocked);
	}
}
