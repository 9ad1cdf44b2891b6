// The bump of a counter whose value changed: a short scale pop (a colour flash with reduced
// motion). The ticker is put back to sleep as soon as it ends, so an idle counter runs no frame.
import { gsap } from 'gsap';
import { sleepTickerWhenIdle } from '../tts/motion.ts';

export const BUMP_S = 0.45;

export function bump(el: HTMLElement, reduced: boolean): gsap.core.Tween {
	const tween: gsap.core.Tween = reduced
		? gsap.fromTo(
				el,
				{ opacity: 0.35 },
				{ opacity: 1, duration: 0.3, ease: 'none', overwrite: true, onComplete: done }
			)
		: gsap.fromTo(
				el,
				{ scale: 1.35 },
				{ scale: 1, duration: BUMP_S, ease: 'back.out(2.5)', overwrite: true, onComplete: done }
			);
	function done() {
		sleepTickerWhenIdle(tween);
	}
	return tween;
}
