// Fault injection state. Each fault is bounded by a count or a deadline so that tests and the chaos
// run can say exactly what goes wrong and for how long.

export type HttpFault = {
	status: 429 | 502;
	/** Requests still to fail; Infinity with a deadline. */
	remaining: number;
	until: number;
	/** Only paths under {base_url} starting with this, e.g. `/tts/`. */
	match?: string;
};

export type EventFaults = {
	/** Events still to be sent twice. */
	duplicate: number;
	/** Events still to be swapped with the following one. */
	reorder: number;
	/** Events still to be held back by `delayMs`. */
	delay: number;
	delayMs: number;
};

export type AudioBreakMode = 'missing' | 'corrupt';

export class Faults {
	http: HttpFault | null = null;
	events: EventFaults = { duplicate: 0, reorder: 0, delay: 0, delayMs: 0 };
	/** Extra time before a tip's audio is ready (on top of rendering). */
	audioDelayMs: number;
	/** The next N rendered tips get a broken audio URL. */
	breakNextAudio = 0;
	breakMode: AudioBreakMode = 'missing';
	readonly brokenAudio = new Map<string, AudioBreakMode>();
	/** Video paths on the simulator (`/demo/...`) that answer broken. */
	readonly brokenVideo = new Map<string, AudioBreakMode>();
	/** While set, realtime upgrades are refused (the service is "down"). */
	refuseUntil = 0;
	/** Webhook deliveries still to be sent again after their success (their answer "lost"). */
	duplicateDeliveries = 0;

	constructor(
		audioDelayMs: number,
		private readonly now: () => number = Date.now
	) {
		this.audioDelayMs = audioDelayMs;
	}

	failHttp(opts: { status: 429 | 502; count?: number; forMs?: number; match?: string }): void {
		this.http = {
			status: opts.status,
			remaining: opts.count ?? Infinity,
			until: opts.forMs === undefined ? Infinity : this.now() + opts.forMs,
			match: opts.match
		};
		if (opts.count === undefined && opts.forMs === undefined) this.http.remaining = 1;
	}

	/** Whether this request (path relative to {base_url}) should fail, and how. */
	takeHttp(path: string): 429 | 502 | null {
		const f = this.http;
		if (!f) return null;
		if (f.remaining <= 0 || this.now() > f.until) {
			this.http = null;
			return null;
		}
		if (f.match && !path.startsWith(f.match)) return null;
		f.remaining -= 1;
		return f.status;
	}

	/** Decide what happens to the next event sent on the realtime stream. */
	takeEvent(): { duplicate: boolean; reorder: boolean; delayMs: number } {
		const e = this.events;
		const out = { duplicate: e.duplicate > 0, reorder: e.reorder > 0, delayMs: 0 };
		if (e.duplicate > 0) e.duplicate -= 1;
		if (e.reorder > 0) e.reorder -= 1;
		if (e.delay > 0) {
			e.delay -= 1;
			out.delayMs = e.delayMs;
		}
		return out;
	}

	breakAudio(orderId: string, mode: AudioBreakMode = 'missing'): void {
		this.brokenAudio.set(orderId, mode);
	}

	/** Called when a tip's audio is rendered: whether it comes out broken. */
	takeAudioBreak(orderId: string): void {
		if (this.breakNextAudio > 0) {
			this.breakNextAudio -= 1;
			this.brokenAudio.set(orderId, this.breakMode);
		}
	}

	clear(): void {
		this.http = null;
		this.events = { duplicate: 0, reorder: 0, delay: 0, delayMs: 0 };
		this.breakNextAudio = 0;
		this.brokenAudio.clear();
		this.brokenVideo.clear();
		this.refuseUntil = 0;
		this.duplicateDeliveries = 0;
	}

	/** Whether the webhook delivery that just succeeded is sent once more (webhooks.ts). */
	takeDuplicateDelivery(): boolean {
		if (this.duplicateDeliveries <= 0) return false;
		this.duplicateDeliveries -= 1;
		return true;
	}
}
