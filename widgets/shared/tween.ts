// Small tweens on the Web Animations API (Chrome 84+: implicit start keyframes, commitStyles), in
// place of an animation library: the browser runs them (on the compositor for opacity and
// transform), nothing is scheduled before or after, and an idle page requests no animation frame.
//
// A tween always starts from where the element is now (a running tween is frozen in place
// first), so an interrupted animation turns around instead of jumping. At the end the final pose
// is written to the element's inline style and the animation is dropped: nothing stays "filling".

/** CSS easings close to the curves the widgets used before (gsap's names in comments). */
export const EASE = {
	linear: 'linear',
	/** back.out(1.4): a small overshoot. */
	backOut: 'cubic-bezier(0.34, 1.4, 0.64, 1)',
	/** back.out(2.5): a bigger overshoot (a counter's pop). */
	backOutStrong: 'cubic-bezier(0.34, 2.2, 0.64, 1)',
	/** power2.in */
	quadIn: 'cubic-bezier(0.55, 0.085, 0.68, 0.53)',
	/** power2.out */
	quadOut: 'cubic-bezier(0.25, 0.46, 0.45, 0.94)',
	/** sine.inOut */
	sineInOut: 'cubic-bezier(0.37, 0, 0.63, 1)'
} as const;

/** A pose as inline style values: opacity, transform, width, visibility, ... */
export type Pose = Record<string, string | number>;

export interface Tween {
	/** Stops where it is (the current pose stays); onComplete is not called. */
	kill(): void;
	/** True until it completed or was killed. */
	readonly running: boolean;
}

/** Sets a pose at once (no animation). */
export function setPose(el: HTMLElement, pose: Pose): void {
	for (const [prop, value] of Object.entries(pose))
		el.style.setProperty(cssName(prop), String(value));
}

/** The animation each element is running, so that a new tween can take over from it. */
const running = new WeakMap<Element, Animation>();

/** Freezes `el`'s running tween (if any) at its current pose. */
function freeze(el: HTMLElement): void {
	const current = running.get(el);
	if (!current) return;
	running.delete(el);
	try {
		current.commitStyles();
	} catch {
		// Not rendered (display: none, detached): nothing visible to keep.
	}
	current.cancel();
}

/**
 * Animates `el` from its current pose (or `from`) to `to` over `durationS`. `visibility` is not
 * animated: `visible` is set at the start, `hidden` at the end (an invisible card takes no clicks
 * and costs no paint).
 */
export function tweenTo(
	el: HTMLElement,
	to: Pose,
	opts: { durationS: number; easing?: string; from?: Pose; onComplete?: () => void }
): Tween {
	freeze(el);
	const { visibility, ...props } = to;
	if (visibility === 'visible') el.style.visibility = 'visible';
	if (opts.from) setPose(el, opts.from);
	const finish = () => {
		setPose(el, props);
		if (visibility !== undefined) el.style.visibility = String(visibility);
	};
	const state = { running: true };
	if (opts.durationS <= 0 || typeof el.animate !== 'function') {
		finish();
		state.running = false;
		queueMicrotask(() => opts.onComplete?.());
		return { kill: () => {}, running: false };
	}
	const keyframe: Keyframe = {};
	for (const [prop, value] of Object.entries(props)) keyframe[prop] = value;
	// One keyframe: the browser starts from the element's current (underlying) values.
	const anim = el.animate([keyframe], {
		duration: opts.durationS * 1000,
		easing: opts.easing ?? EASE.linear,
		fill: 'forwards'
	});
	running.set(el, anim);
	anim.onfinish = () => {
		if (running.get(el) !== anim) return;
		running.delete(el);
		finish();
		anim.cancel();
		state.running = false;
		opts.onComplete?.();
	};
	return {
		kill: () => {
			if (!state.running) return;
			state.running = false;
			if (running.get(el) === anim) freeze(el);
			else anim.cancel();
		},
		get running() {
			return state.running;
		}
	};
}

const popping = new WeakMap<Element, Animation>();

/**
 * Runs `keyframes` once (a pop, a glow that returns to rest) and leaves the element's own style as it
 * was; a new one on the same element replaces the running one.
 */
export function play(
	el: HTMLElement,
	keyframes: Keyframe[],
	opts: { durationS: number; easing?: string; onComplete?: () => void }
): Tween {
	popping.get(el)?.cancel();
	const state = { running: true };
	if (typeof el.animate !== 'function') {
		queueMicrotask(() => opts.onComplete?.());
		return { kill: () => {}, running: false };
	}
	const anim = el.animate(keyframes, {
		duration: opts.durationS * 1000,
		easing: opts.easing ?? EASE.linear
	});
	popping.set(el, anim);
	anim.onfinish = () => {
		if (popping.get(el) === anim) popping.delete(el);
		state.running = false;
		opts.onComplete?.();
	};
	return {
		kill: () => {
			if (!state.running) return;
			state.running = false;
			if (popping.get(el) === anim) popping.delete(el);
			anim.cancel();
		},
		get running() {
			return state.running;
		}
	};
}

function cssName(prop: string): string {
	return prop.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
