// The progress bar's fill, animated from the wanted state (never a chain of tweens): each change
// takes over from wherever the bar is and moves it to the new width (Web Animations); when it
// ends nothing runs, so an idle goal requests no animation frame.
import { prefersReducedMotion } from '../tts/motion.ts';
import { EASE, setPose, tweenTo, type Tween } from '../shared/tween.ts';

export const BAR_S = 0.8;

/** Moves the bar to `fraction` (0 to 1); returns the tween (null when set without animating). */
export function animateBar(
	el: HTMLElement,
	fraction: number,
	previous: Tween | null,
	onComplete?: () => void
): Tween | null {
	previous?.kill();
	const width = `${(Math.min(1, Math.max(0, fraction)) * 100).toFixed(3)}%`;
	if (prefersReducedMotion()) {
		setPose(el, { width });
		onComplete?.();
		return null;
	}
	return tweenTo(el, { width }, { durationS: BAR_S, easing: EASE.quadOut, onComplete });
}

/** Stops the bar where it is (unmount). */
export function stopBar(tween: Tween | null): void {
	tween?.kill();
}
