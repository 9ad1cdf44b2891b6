// gsap as the widgets use it: one tween of an element, run to its end.
import { gsap } from 'gsap';

export function use(target: HTMLElement): string {
	gsap.fromTo(target, { opacity: 0 }, { opacity: 1, duration: 0.2 });
	return 'tween';
}
