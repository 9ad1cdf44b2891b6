// Demo traffic: realistic tips, video requests, counter bumps "from chat" and the odd celebration at
// a configurable rate, so `npm start` shows a living stream. Off unless started.
import type { SimCore } from './core.ts';
import { createRng, randomTipInput } from './demo-data.ts';
import { demoVideos } from './demo-videos.ts';

const CHAT_COUNTERS = ['deaths', 'wins', 'hype'];

export class DemoTraffic {
	private timer: ReturnType<typeof setTimeout> | null = null;
	private perMinute = 0;
	private readonly rng;

	constructor(
		private readonly core: SimCore,
		seed = Date.now() % 2 ** 31
	) {
		this.rng = createRng(seed);
	}

	get running(): boolean {
		return this.timer !== null;
	}

	start(perMinute: number): void {
		this.stop();
		this.perMinute = perMinute;
		this.schedule();
	}

	stop(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
	}

	/**
	 * One step of traffic: mostly tips, sometimes a video, a counter bump or a celebration. The
	 * tips are viewers' checkouts: while tipping is closed none is sent (the step does nothing).
	 */
	step(): void {
		const { model } = this.core;
		const roll = this.rng.next();
		if (roll < 0.6) {
			if (!model.accepting) return;
			const input = randomTipInput(this.rng);
			const withVideo = this.rng.chance(0.2);
			const video = withVideo ? this.rng.pick(demoVideos) : null;
			model.checkout({
				...input,
				media: video
					? {
							url: `${this.core.origin}${video.file}`,
							...this.core.videoInfo(`${this.core.origin}${video.file}`),
							requested_via: 'tip'
						}
					: undefined
			});
		} else if (roll < 0.9) {
			const name = this.rng.pick(CHAT_COUNTERS);
			if (model.counters.has(name)) model.incrementCounter(name, 1);
			else model.createCounter(name, 1);
		} else if (roll < 0.95) {
			model.celebrate(null, null);
		} else {
			const video = this.rng.pick(demoVideos);
			const url = `${this.core.origin}${video.file}`;
			model.enqueueMedia(
				{ url, ...this.core.videoInfo(url) },
				'chat',
				undefined,
				undefined,
				'chat'
			);
		}
	}

	private schedule(): void {
		// Poisson-like spacing around the mean rate.
		const mean = 60_000 / this.perMinute;
		const wait = Math.max(50, -Math.log(1 - this.rng.next() * 0.999) * mean);
		this.timer = setTimeout(() => {
			this.step();
			this.schedule();
		}, wait);
	}
}
