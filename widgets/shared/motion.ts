// What every widget's motion shares: gsap's ticker asleep whenever nothing moves, and the viewer's
// reduced-motion preference. Import gsap's setup from here, never configure it elsewhere.
import { gsap } from 'gsap';

// gsap's ticker runs requestAnimationFrame while it is awake and, every `autoSleep` frames, goes to
// sleep if its global timeline has no active child and nothing else listens to it (gsap-core.js,
// Timeline.updateRoot). Finished tweens leave that timeline by themselves (autoRemoveChildren) and a
// paused one (the alert card holding) is not active, so checking on every frame puts the ticker to
// sleep on the first frame after the last tween: an idle overlay runs no animation frame (STYLE.md,
// practice 8). A new tween, a play() or a ticker listener wakes it again.
gsap.config({ autoSleep: 1 });

const REDUCE = '(prefers-reduced-motion: reduce)';
let reduced = false;

// One gsap.matchMedia for the page, not one per component: gsap never removes the listener it puts
// on each MediaQueryList, so a matchMedia per alert card would pile them up over a stream. gsap runs
// the function when the preference turns on and its cleanup when it turns off (OBS and browsers may
// change it while the page is open); motion built afterwards follows it.
if (typeof window !== 'undefined' && typeof window.matchMedia === 'function') {
	gsap.matchMedia().add(REDUCE, () => {
		reduced = true;
		return () => {
			reduced = false;
		};
	});
}

/** The viewer asked for reduced motion: fades instead of movement, numbers without counting. */
export function reducedMotion(): boolean {
	return reduced;
}
