// The progress bar's fill, animated with gsap from the wanted state (never a chain of tweens): each
// change kills the running tween and starts one from wherever the bar is to the new width; when it
// ends, gsap's ticker is put to sleep so that an idle goal runs no animation frame.
import { gsap } from 'gsap';
import { prefersReducedMotion, sleepTickerWhenIdle } from '../tts/motion.ts';

export const BAR_S = 0.8;

/** Moves the bar to `fraction` (0 to 1); returns the tween (null when set without animating). */
export function animateBar(
	el: HTMLElement,
	fraction: number,
	previous: gsap.core.Tween | null,
	onComplete?: () => void
): gsap.core.Tween | null {
	previous?.kill();
	const width = `${(Math.min(1, Math.max(0, fraction)) * 100).toFixed(3)}%`;
	if (prefersReducedMotion()) {
		gsap.set(el, { width });
		sleepTickerWhenIdle();
		onComplete?.();
		return null;
	}
	const tween: gsap.core.Tween = gsap.to(el, {
		width,
		duration: BAR_S,
		ease: 'power2.out',
		overwrite: true,
		onComplete: () => {
			sleepTickerWhenIdle(tween);
			onComplete?.();
		}
	});
	return tween;
}

/** Stops the bar where it is (unmount). */
export function stopBar(tween: gsap.core.Tween | null): void {
	tween?.kill();
	sleepTickerWhenIdle();
}
