// Draws celebrations on a canvas. Each shot has a clock (seconds since it started); one
// requestAnimationFrame loop draws every live shot from its clock (particles.ts: the pose is a
// function of time) and runs only while a shot is live: when the last shot ends the loop stops and
// the canvas is cleared, so an idle overlay requests no animation frame (STYLE.md, practice 8).
// With reduced motion there are no particles: a soft glow fades in and out once (Web Animations).
import { EASE, play, type Tween } from '../shared/tween.ts';
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
	/** performance.now() when it started. */
	startedAt: number;
	durationS: number;
	count: number;
	/** The glow's animation (reduced motion). */
	glow: Tween | null;
}

export class CelebrationPainter {
	private readonly shots = new Set<Shot>();
	private ended = 0;
	/** The pending animation frame, while a particle shot is live. */
	private frame: number | null = null;
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
			startedAt: performance.now(),
			durationS: opts.durationS,
			count: opts.count ?? 1,
			glow: null
		};
		this.shots.add(shot);
		if (opts.reduced) {
			// In, then out again: two glow lengths, eased each way.
			shot.glow = play(this.glow, [{ opacity: 0 }, { opacity: 0.85 }, { opacity: 0 }], {
				durationS: GLOW_S * 2,
				easing: EASE.sineInOut,
				onComplete: () => this.finish(shot)
			});
		} else {
			this.resize();
			shot.particles = createParticles(opts.style, opts.intensity, opts.durationS);
			this.frame ??= requestAnimationFrame(this.draw);
		}
	}

	/** Stops everything at once (the component is going away). */
	destroy(): void {
		for (const shot of this.shots) shot.glow?.kill();
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
		if (this.frame !== null) cancelAnimationFrame(this.frame);
		this.frame = null;
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

	private readonly draw = (now: number): void => {
		this.frame = null;
		// Shots whose time is up end first (the last one stops the loop and clears the canvas).
		for (const shot of [...this.shots])
			if (!shot.glow && (now - shot.startedAt) / 1000 >= shot.durationS) this.finish(shot);
		const live = [...this.shots].filter((s) => !s.glow);
		if (!live.length) return;
		this.frame = requestAnimationFrame(this.draw);
		const ctx = this.canvas.getContext('2d');
		if (!ctx) return;
		const { width: W, height: H } = this;
		const unit = Math.min(W, H);
		ctx.clearRect(0, 0, W, H);
		for (const shot of live) {
			const t = Math.max(0, (now - shot.startedAt) / 1000);
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
