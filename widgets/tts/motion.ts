// Entrance and exit of the alert card with gsap, built from the wanted state (shown or hidden)
// and the card's current pose, so an interrupted animation turns around instead of jumping.
// OBS pauses requestAnimationFrame in hidden sources: a tween then just resumes when shown.
import { gsap } from 'gsap';

export const ENTER_S = 0.5;
export const EXIT_S = 0.35;
/** The reduced-motion fade, both ways. */
export const FADE_S = 0.2;

export function prefersReducedMotion(): boolean {
	return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * gsap's ticker runs requestAnimationFrame from import on and only dozes off 120 idle frames after
 * the last tween. An idle overlay should not run a frame loop at all: stop it as soon as no
 * animation is pending. Any new tween wakes it again (gsap's Animation constructor does).
 */
export function sleepTickerWhenIdle(except?: gsap.core.Animation): void {
	const pending = gsap.globalTimeline
		.getChildren(false, true, true)
		.some((a) => a !== except && !a.paused() && a.progress() < 1);
	if (!pending) gsap.ticker.sleep();
}

// gsap wakes its ticker when it is imported; nothing is animating yet.
sleepTickerWhenIdle();

function hiddenPose(fromBelow: boolean, reduced: boolean): gsap.TweenVars {
	return reduced ? { autoAlpha: 0 } : { autoAlpha: 0, y: fromBelow ? 40 : -40, scale: 0.96 };
}

/** Puts a freshly mounted card in its hidden pose without animating. */
export function placeHidden(el: HTMLElement, opts: { fromBelow: boolean; reduced: boolean }): void {
	gsap.set(el, hiddenPose(opts.fromBelow, opts.reduced));
	sleepTickerWhenIdle();
}

/**
 * Animates the card from wherever it is toward shown or hidden. With reduced motion it only
 * fades. `onComplete` runs once the card is at rest; afterwards no frame is requested.
 */
export function animateCard(
	el: HTMLElement,
	shown: boolean,
	opts: { fromBelow: boolean; reduced: boolean; onComplete?: () => void }
): gsap.core.Tween {
	const target: gsap.TweenVars = shown
		? opts.reduced
			? { autoAlpha: 1 }
			: { autoAlpha: 1, y: 0, scale: 1 }
		: hiddenPose(opts.fromBelow, opts.reduced);
	const tween: gsap.core.Tween = gsap.to(el, {
		...target,
		duration: opts.reduced ? FADE_S : shown ? ENTER_S : EXIT_S,
		ease: opts.reduced ? 'none' : shown ? 'back.out(1.4)' : 'power2.in',
		overwrite: 'auto',
		onComplete: () => {
			sleepTickerWhenIdle(tween);
			opts.onComplete?.();
		}
	});
	return tween;
}
