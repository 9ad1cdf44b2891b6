// What every widget's motion shares: gsap's ticker asleep whenever nothing moves, and the viewer's
// reduced-motion preference. Import gsap's setup from here, never configure it elsewhere.
import { gsap } from 'gsap';

// gsap's ticker runs requestAnimationFrame while it is awake. Its own autoSleep only checks every
// `autoSleep` frames (120 by default: two seconds of frames after the last tween), and a smaller
// value races: the tick it runs when it wakes happens inside the constructor of the tween that
// woke it, before that tween is on the timeline (gsap-core.js, Animation()), so with a check on
// that tick it falls asleep at once and the tween never plays. So the sleep is ours: on every
// frame after gsap has rendered, if no animation on its global timeline is left to play (finished
// tweens leave it by themselves; a paused one, like the alert card holding, does not count), the
// ticker sleeps, on the frame the last tween ended: an idle overlay runs no animation frame
// (STYLE.md, practice 8). The first frame after a sleep is skipped, being that waking tick. A new
// tween, a play() or a ticker listener wakes it again; a listener (the celebration painter) only
// lives alongside a tween of its own.
let sleptAt = -1;
gsap.ticker.add(() => {
	const frame = gsap.ticker.frame;
	if (frame === sleptAt + 1) return;
	if (gsap.globalTimeline.getChildren(false, true, true).some((a) => !a.paused())) return;
	sleptAt = frame;
	gsap.ticker.sleep();
});

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
