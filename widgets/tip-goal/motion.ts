// The progress bar's fill, tweened by gsap to the wanted width from wherever it is: a change while
// the bar moves overwrites the running tween, so the bar turns around instead of jumping. With
// reduced motion the bar is set at once. gsap's ticker sleeps once the tween ends (shared/motion.ts).
import { gsap } from 'gsap';
import { reducedMotion } from '../shared/motion.ts';

export const BAR_S = 0.8;

/** Moves the bar to `fraction` (0 to 1); `onComplete` runs once it is at rest. */
export function animateBar(el: HTMLElement, fraction: number, onComplete?: () => void): void {
	const width = `${(Math.min(1, Math.max(0, fraction)) * 100).toFixed(3)}%`;
	if (reducedMotion()) {
		gsap.killTweensOf(el);
		gsap.set(el, { width });
		onComplete?.();
		return;
	}
	gsap.to(el, { width, duration: BAR_S, ease: 'power2.out', overwrite: true, onComplete });
}

/** Stops the bar where it is (unmount). */
export function stopBar(el: HTMLElement | undefined): void {
	if (el) gsap.killTweensOf(el);
}
