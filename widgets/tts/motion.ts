// The alert card's life as one gsap timeline: entrance, a pause for as long as the alert is shown
// (the audio decides how long, so the hold is a pause, not a duration), exit. Showing or hiding
// moves the playhead from wherever it is, so an interrupted animation turns around instead of
// jumping: hidden during the entrance it plays the entrance backwards, shown again during the exit
// it plays back to the hold. OBS pauses requestAnimationFrame in hidden sources: the timeline then
// just resumes when shown. While it holds, the timeline is paused and gsap's ticker sleeps.
import { gsap } from 'gsap';
import { reducedMotion } from '../shared/motion.ts';

export const ENTER_S = 0.5;
export const EXIT_S = 0.35;
/** The reduced-motion fade, both ways. */
export const FADE_S = 0.2;
const HOLD = 'hold';

export interface CardMotion {
	/** The card sits at the bottom: it enters from below and leaves downward. */
	fromBelow: boolean;
	/** The card is hidden again, whether by its exit or by its entrance played backwards. */
	onExited: () => void;
}

/** The card's timeline, paused in the hidden pose (it is applied at once: no flash of the card). */
export function cardTimeline(el: HTMLElement, opts: CardMotion): gsap.core.Timeline {
	const reduced = reducedMotion();
	const hidden: gsap.TweenVars = reduced
		? { autoAlpha: 0 }
		: { autoAlpha: 0, y: opts.fromBelow ? 40 : -40, scale: 0.96 };
	const shown: gsap.TweenVars = reduced ? { autoAlpha: 1 } : { autoAlpha: 1, y: 0, scale: 1 };
	return gsap
		.timeline({ paused: true, onComplete: opts.onExited, onReverseComplete: opts.onExited })
		.fromTo(el, hidden, {
			...shown,
			duration: reduced ? FADE_S : ENTER_S,
			ease: reduced ? 'none' : 'back.out(1.4)'
		})
		.addPause(HOLD)
		.to(el, {
			...hidden,
			duration: reduced ? FADE_S : EXIT_S,
			ease: reduced ? 'none' : 'power2.in'
		});
}

/** The card has nowhere to go but in: never shown, or all the way out (it may not play again). */
export function cardAtRest(tl: gsap.core.Timeline): boolean {
	return !tl.isActive() && (tl.time() === 0 || tl.progress() === 1);
}

/** Turns the card toward shown or hidden from wherever its timeline is. */
export function turnCard(tl: gsap.core.Timeline, shown: boolean): void {
	const t = tl.time();
	const hold = tl.labels[HOLD];
	if (shown) {
		if (t < hold) tl.play();
		else if (t > hold) tl.reverse(); // back to the hold, where the pause stops it again
	} else if (t > 0 && t < hold) tl.reverse();
	else if (t >= hold && tl.progress() < 1) tl.play();
}
