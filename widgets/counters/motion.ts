// A counter whose value changed: its number counts to the new value (a gsap tween of the number,
// written as text on every frame) while it pops (a short scale; a fade-in with reduced motion,
// and no counting). A change while it counts goes on from the number on screen, up or down.
// gsap's ticker sleeps once both tweens end (shared/motion.ts).
import { gsap } from 'gsap';
import { reducedMotion } from '../shared/motion.ts';

export const COUNT_S = 0.6;
export const BUMP_S = 0.45;

/** The number on screen; `n` is what is written (rounded while counting, exact at the end). */
export interface ShownCount {
	n: number;
}

/** Counts `shown` to `to` and pops `el`; `write` puts the number on screen. */
export function countTo(
	el: HTMLElement,
	shown: ShownCount,
	to: number,
	write: (n: number) => void
): void {
	if (reducedMotion()) {
		gsap.killTweensOf(shown);
		shown.n = to;
		write(to);
		gsap.fromTo(
			el,
			{ opacity: 0.35 },
			{ opacity: 1, duration: 0.3, ease: 'none', overwrite: true }
		);
		return;
	}
	const from = shown.n;
	gsap.to(shown, {
		n: to,
		duration: COUNT_S,
		ease: 'power1.out',
		overwrite: true,
		onUpdate: () => write(Math.round(shown.n)),
		onComplete: () => write(to)
	});
	if (from !== to)
		gsap.fromTo(
			el,
			{ scale: 1.35 },
			{ scale: 1, duration: BUMP_S, ease: 'back.out(2.5)', overwrite: true }
		);
}

/** Stops counting and popping where they are (unmount). */
export function stopCount(el: HTMLElement, shown: ShownCount): void {
	gsap.killTweensOf([el, shown]);
}
