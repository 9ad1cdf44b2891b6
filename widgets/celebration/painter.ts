// Draws celebrations on a canvas. gsap drives one clock per shot; a single gsap.ticker listener
// draws every live shot from its clock (particles.ts: the pose is a function of time), and is
// registered only while a shot lives. When the last shot ends the listener is removed and the
// canvas cleared, and gsap's ticker falls asleep (shared/motion.ts), so an idle overlay requests no
// animation frame (STYLE.md, practice 8). With reduced motion there are no particles: a soft glow
// fades in and out once.
import { gsap } from 'gsap';
import '../shared/motion.ts';
import { createParticles, poseAt, type CelebrationStyle, type Particle } from './particles.ts';

export const GLOW_S = 0.6;

export interface ShotOptions {
	style: CelebrationStyle;
	intensity: number;
	durationS: number;
	reduced: boolean;
	/** How many celebrations this shot stands for (several asked for in one tick share a shot). */
	count?: number;
}

interface Shot {
	particles: Particle[];
	clock: { t: number };
	count: number;
	tween: gsap.core.Animation;
}

export class CelebrationPainter {
	private readonly shots = new Set<Shot>();
	private ended = 0;
	private drawing = false;
	private width = 0;
	private height = 0;

	constructor(
		private readonly canvas: HTMLCanvasElement,
		private readonly glow: HTMLElement,
		/** Every shot has ended: `shots` celebrations since the last call. */
		private readonly onIdle: (shots: number) => void
	) {}

	get active(): boolean {
		return this.shots.size > 0;
	}

	shoot(opts: ShotOptions): void {
		const shot: Shot = {
			particles: [],
			clock: { t: 0 },
			count: opts.count ?? 1,
			tween: null as unknown as gsap.core.Animation
		};
		if (opts.reduced) {
			// Back to opacity 0 at the end (yoyo): nothing to reset after the last shot.
			shot.tween = gsap.fromTo(
				this.glow,
				{ opacity: 0 },
				{
					opacity: 0.85,
					duration: GLOW_S,
					ease: 'sine.inOut',
					yoyo: true,
					repeat: 1,
					onComplete: () => this.finish(shot)
				}
			);
		} else {
			this.resize();
			shot.particles = createParticles(opts.style, opts.intensity, opts.durationS);
			shot.tween = gsap.to(shot.clock, {
				t: opts.durationS,
				duration: opts.durationS,
				ease: 'none',
				onComplete: () => this.finish(shot)
			});
			if (!this.drawing) {
				gsap.ticker.add(this.draw);
				this.drawing = true;
			}
		}
		this.shots.add(shot);
	}

	/** Stops everything at once (the component is going away). */
	destroy(): void {
		for (const shot of this.shots) shot.tween.kill();
		this.shots.clear();
		this.stopDrawing();
	}

	private finish(shot: Shot): void {
		if (!this.shots.delete(shot)) return;
		this.ended += shot.count;
		if (!this.shots.size) {
			this.stopDrawing();
			const n = this.ended;
			this.ended = 0;
			this.onIdle(n);
		}
	}

	private stopDrawing(): void {
		if (this.drawing) gsap.ticker.remove(this.draw);
		this.drawing = false;
		this.canvas.getContext('2d')?.clearRect(0, 0, this.canvas.width, this.canvas.height);
	}

	private resize(): void {
		const ratio = Math.min(window.devicePixelRatio || 1, 2);
		const w = Math.max(1, Math.round(this.canvas.clientWidth * ratio));
		const h = Math.max(1, Math.round(this.canvas.clientHeight * ratio));
		if (this.canvas.width !== w) this.canvas.width = w;
		if (this.canvas.height !== h) this.canvas.height = h;
		this.width = w;
		this.height = h;
	}

	private readonly draw = (): void => {
		const ctx = this.canvas.getContext('2d');
		if (!ctx) return;
		const { width: W, height: H } = this;
		const unit = Math.min(W, H);
		ctx.clearRect(0, 0, W, H);
		for (const shot of this.shots) {
			const t = shot.clock.t;
			for (const p of shot.particles) {
				const pose = poseAt(p, t);
				if (!pose || pose.alpha <= 0) continue;
				const size = p.size * unit;
				ctx.globalAlpha = pose.alpha;
				ctx.fillStyle = p.color;
				if (p.shape === 'dot') {
					ctx.beginPath();
					ctx.arc(pose.x * W, pose.y * H, size / 2, 0, Math.PI * 2);
					ctx.fill();
				} else {
					ctx.setTransform(1, 0, 0, 1, pose.x * W, pose.y * H);
					ctx.rotate(pose.rotation);
					ctx.fillRect(-size / 2, (-size * 0.3 * pose.tilt) / 2, size, size * 0.6 * pose.tilt + 1);
					ctx.setTransform(1, 0, 0, 1, 0, 0);
				}
			}
		}
		ctx.globalAlpha = 1;
	};
}
