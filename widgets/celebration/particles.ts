// The particles of one celebration as pure data and closed-form motion: where each one is at time
// t is a function of t, so a frame is drawn from the clock alone (gsap drives the clock), nothing
// accumulates between frames, and a throttled OBS source just jumps ahead. Sizes are fractions of
// the canvas, so the same shot fits a 1920x1080 page and a small box of an overlay.

export const CELEBRATION_STYLES = ['confetti', 'fireworks'] as const;
export type CelebrationStyle = (typeof CELEBRATION_STYLES)[number];

/** Hard upper bound of particles in one celebration, whatever the intensity. */
export const MAX_PARTICLES = 360;
const CONFETTI_PER_INTENSITY = 120;
const FIREWORK_SPARKS = 36;

const COLORS = ['#ffc940', '#ff5e7e', '#4fd1ff', '#7cf29a', '#b58cff', '#ffffff', '#ff9f43'];

export interface Particle {
	/** Seconds after the shot starts when this particle appears. */
	start: number;
	/** Seconds it lives. */
	life: number;
	/** Start position, as fractions of width and height. */
	x0: number;
	y0: number;
	/** Initial velocity in canvas fractions per second (vx of the width, vy of the height). */
	vx: number;
	vy: number;
	/** Linear drag (1/s) and gravity (height fractions per s²). */
	drag: number;
	gravity: number;
	/** Side-to-side flutter (confetti): amplitude (width fraction) and angular frequency. */
	wobble: number;
	wobbleHz: number;
	phase: number;
	spin: number;
	/** Size as a fraction of the shorter side. */
	size: number;
	color: string;
	shape: 'rect' | 'dot';
}

export interface ParticlePose {
	x: number;
	y: number;
	rotation: number;
	alpha: number;
	/** The flutter's foreshortening: 1 flat on, near 0 edge on. */
	tilt: number;
}

/** How many particles a celebration of this style and intensity has (bounded by MAX_PARTICLES). */
export function particleCount(style: CelebrationStyle, intensity: number): number {
	const k = Math.min(Math.max(intensity, 0.1), 3);
	if (style === 'confetti') return Math.min(MAX_PARTICLES, Math.round(CONFETTI_PER_INTENSITY * k));
	return burstCount(k) * FIREWORK_SPARKS;
}

function burstCount(intensity: number): number {
	return Math.min(
		Math.floor(MAX_PARTICLES / FIREWORK_SPARKS),
		Math.max(1, Math.round(4 * intensity))
	);
}

const between = (r: () => number, a: number, b: number) => a + (b - a) * r();

/**
 * Every particle of one celebration lasting `durationS`; all are gone by then. The two styles'
 * recipes stay side by side in one function: each is one loop filling one particle literal, and
 * as two functions they would add bytes to the overlay, whose weight budget counts every byte.
 */
// eslint-disable-next-line max-lines-per-function -- two short recipes, one particle literal each
export function createParticles(
	style: CelebrationStyle,
	intensity: number,
	durationS: number,
	random: () => number = Math.random
): Particle[] {
	const pick = () => COLORS[Math.floor(random() * COLORS.length) % COLORS.length];
	const out: Particle[] = [];
	if (style === 'confetti') {
		const n = particleCount(style, intensity);
		for (let i = 0; i < n; i++) {
			// Two cannons in the bottom corners, shooting up and inward.
			const left = i % 2 === 0;
			const start = between(random, 0, Math.min(0.4, durationS * 0.1));
			out.push({
				start,
				life: durationS - start,
				x0: left ? 0 : 1,
				y0: 1,
				vx: (left ? 1 : -1) * between(random, 0.15, 0.6),
				vy: -between(random, 0.9, 1.6),
				drag: 1.4,
				gravity: 0.9,
				wobble: between(random, 0.005, 0.02),
				wobbleHz: between(random, 4, 9),
				phase: between(random, 0, Math.PI * 2),
				spin: between(random, -8, 8),
				size: between(random, 0.008, 0.016),
				color: pick(),
				shape: random() < 0.8 ? 'rect' : 'dot'
			});
		}
		return out;
	}
	const bursts = burstCount(Math.min(Math.max(intensity, 0.1), 3));
	const life = Math.min(1.6, durationS * 0.6);
	for (let b = 0; b < bursts; b++) {
		const start = bursts === 1 ? 0 : (b / (bursts - 1)) * (durationS - life);
		const x0 = between(random, 0.15, 0.85);
		const y0 = between(random, 0.15, 0.55);
		const color = pick();
		for (let i = 0; i < FIREWORK_SPARKS; i++) {
			const angle = (i / FIREWORK_SPARKS) * Math.PI * 2 + between(random, -0.08, 0.08);
			const speed = between(random, 0.25, 0.45);
			out.push({
				start,
				life,
				x0,
				y0,
				vx: Math.cos(angle) * speed * 0.6,
				vy: Math.sin(angle) * speed,
				drag: 2.2,
				gravity: 0.12,
				wobble: 0,
				wobbleHz: 0,
				phase: 0,
				spin: 0,
				size: between(random, 0.004, 0.008),
				color: random() < 0.2 ? '#ffffff' : color,
				shape: 'dot'
			});
		}
	}
	return out;
}

/** Where a particle is `t` seconds after the shot started; null when it is not on screen. */
export function poseAt(p: Particle, t: number): ParticlePose | null {
	const age = t - p.start;
	// The epsilon absorbs float error in start + life, so at the end of the shot nothing is left.
	if (age < 0 || age >= p.life - 1e-9) return null;
	// Linear drag in closed form: velocity decays as e^(-kt) toward the terminal velocity g/k.
	const k = p.drag;
	const decay = (1 - Math.exp(-k * age)) / k;
	const terminal = p.gravity / k;
	const x = p.x0 + p.vx * decay + p.wobble * Math.sin(p.wobbleHz * age + p.phase);
	const y = p.y0 + p.vy * decay + terminal * (age - decay);
	// Fade out over the last quarter of its life.
	const fade = (p.life - age) / (p.life * 0.25);
	return {
		x,
		y,
		rotation: p.phase + p.spin * age,
		alpha: Math.max(0, Math.min(1, fade)),
		tilt: p.wobbleHz === 0 ? 1 : Math.abs(Math.cos(p.wobbleHz * age + p.phase))
	};
}
