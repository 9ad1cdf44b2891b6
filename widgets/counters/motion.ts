// The bump of a counter whose value changed: a short scale pop (a colour flash with reduced
// motion), run by the browser (Web Animations); nothing runs once it ends.
import { EASE, play, type Tween } from '../shared/tween.ts';

export const BUMP_S = 0.45;

export function bump(el: HTMLElement, reduced: boolean): Tween {
	return reduced
		? play(el, [{ opacity: 0.35 }, { opacity: 1 }], { durationS: 0.3 })
		: play(el, [{ transform: 'scale(1.35)' }, { transform: 'scale(1)' }], {
				durationS: BUMP_S,
				easing: EASE.backOutStrong
			});
}
