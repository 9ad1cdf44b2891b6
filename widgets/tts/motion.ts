// Entrance and exit of the alert card (Web Animations, widgets/shared/tween.ts), built from the
// wanted state (shown or hidden) and the card's current pose, so an interrupted animation turns
// around instead of jumping. OBS pauses animations in hidden sources: they resume when shown.
import { EASE, setPose, tweenTo, type Pose, type Tween } from '../shared/tween.ts';

export const ENTER_S = 0.5;
export const EXIT_S = 0.35;
/** The reduced-motion fade, both ways. */
export const FADE_S = 0.2;

export function prefersReducedMotion(): boolean {
	return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function hiddenPose(fromBelow: boolean, reduced: boolean): Pose {
	return reduced
		? { opacity: 0, visibility: 'hidden' }
		: {
				opacity: 0,
				visibility: 'hidden',
				transform: `translateY(${fromBelow ? 40 : -40}px) scale(0.96)`
			};
}

/** Puts a freshly mounted card in its hidden pose without animating. */
export function placeHidden(el: HTMLElement, opts: { fromBelow: boolean; reduced: boolean }): void {
	setPose(el, hiddenPose(opts.fromBelow, opts.reduced));
}

/**
 * Animates the card from wherever it is toward shown or hidden. With reduced motion it only
 * fades. `onComplete` runs once the card is at rest; afterwards nothing runs.
 */
export function animateCard(
	el: HTMLElement,
	shown: boolean,
	opts: { fromBelow: boolean; reduced: boolean; onComplete?: () => void }
): Tween {
	const target: Pose = shown
		? opts.reduced
			? { opacity: 1, visibility: 'visible' }
			: { opacity: 1, visibility: 'visible', transform: 'translateY(0px) scale(1)' }
		: hiddenPose(opts.fromBelow, opts.reduced);
	return tweenTo(el, target, {
		durationS: opts.reduced ? FADE_S : shown ? ENTER_S : EXIT_S,
		easing: opts.reduced ? EASE.linear : shown ? EASE.backOut : EASE.quadIn,
		onComplete: opts.onComplete
	});
}
