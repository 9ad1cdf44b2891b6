// "A tip is being read aloud": told by the TTS player, heard by the media player, which ducks its
// video or holds the next one (the `with_tts` parameter). One BroadcastChannel carries it, which
// reaches every page of the same origin in the same browser profile: the widgets of one overlay
// page and separate OBS browser sources alike (OBS's CEF shares one profile; Chromium 54+).
//
// No polling and no heartbeat: a message when speech starts and one when it ends. A page that dies
// mid-tip never sends its "ended", so each "speaking" names how long it may last at most, and the
// listener forgets it after that (one timer, only while a tip is being read).

const CHANNEL = 'tok-sound';
/** When the speaker does not know its audio's length. */
const DEFAULT_MAX_MS = 60_000;

interface SpeechMessage {
	type: 'speech';
	/** Who speaks: the order id (unique across pages). */
	id: string;
	speaking: boolean;
	/** With `speaking: true`: forget it after this long, in case the end never comes. */
	maxMs?: number;
}

export interface SpeechAnnouncer {
	speaking(id: string, maxMs?: number): void;
	quiet(id: string): void;
}

function channel(): BroadcastChannel | null {
	return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
}

/** For the TTS player: announces its speech to every media player of this origin. */
export function createSpeechAnnouncer(): SpeechAnnouncer & { close(): void } {
	const ch = channel();
	const post = (m: SpeechMessage) => {
		try {
			ch?.postMessage(m);
		} catch {
			// A closed channel (page going away): nobody is left to tell.
		}
	};
	return {
		speaking: (id, maxMs) => post({ type: 'speech', id, speaking: true, maxMs }),
		quiet: (id) => post({ type: 'speech', id, speaking: false }),
		close: () => ch?.close()
	};
}

/** For the media player: whether any TTS page of this origin is reading a tip now. */
export class SpeechListener {
	readonly #ch = channel();
	/** Speaking ids and when each is forgotten. */
	readonly #active = new Map<string, number>();
	#timer: ReturnType<typeof setTimeout> | null = null;
	readonly #listeners = new Set<(speaking: boolean) => void>();

	constructor(private readonly now: () => number = Date.now) {
		this.#ch?.addEventListener('message', (e: MessageEvent) => this.#onMessage(e.data));
	}

	get speaking(): boolean {
		return this.#active.size > 0;
	}

	subscribe(cb: (speaking: boolean) => void): () => void {
		this.#listeners.add(cb);
		return () => this.#listeners.delete(cb);
	}

	close(): void {
		this.#ch?.close();
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = null;
		this.#listeners.clear();
	}

	#onMessage(data: unknown): void {
		const m = data as Partial<SpeechMessage> | null;
		if (m?.type !== 'speech' || typeof m.id !== 'string') return;
		const before = this.speaking;
		if (m.speaking) {
			const maxMs =
				typeof m.maxMs === 'number' && m.maxMs > 0 ? Math.min(m.maxMs, 600_000) : DEFAULT_MAX_MS;
			this.#active.set(m.id, this.now() + maxMs);
		} else this.#active.delete(m.id);
		this.#settle(before);
	}

	#settle(before: boolean): void {
		const now = this.now();
		for (const [id, until] of this.#active) if (until <= now) this.#active.delete(id);
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = null;
		if (this.#active.size > 0) {
			const next = Math.min(...this.#active.values());
			this.#timer = setTimeout(() => {
				this.#timer = null;
				this.#settle(this.speaking);
			}, next - now);
		}
		if (before !== this.speaking) for (const cb of [...this.#listeners]) cb(this.speaking);
	}
}

// "Celebrate now": an alert tier with `celebrate=1` fires the celebration widgets of every page of
// this origin (separate OBS sources), on a channel of its own so speech listeners never wake for it.
const CELEBRATE_CHANNEL = 'tok-celebrate';

/** For the TTS player on a page without a celebration widget of its own. */
export function announceCelebration(reason: string): void {
	if (typeof BroadcastChannel === 'undefined') return;
	const ch = new BroadcastChannel(CELEBRATE_CHANNEL);
	ch.postMessage({ type: 'celebrate', reason: String(reason).slice(0, 200) });
	ch.close();
}

/** For celebration widgets: calls `fire` for each announced celebration. Returns the unsubscribe. */
export function listenCelebrations(fire: (reason: string) => void): () => void {
	if (typeof BroadcastChannel === 'undefined') return () => {};
	const ch = new BroadcastChannel(CELEBRATE_CHANNEL);
	ch.onmessage = (e: MessageEvent) => {
		const m = e.data as { type?: unknown; reason?: unknown } | null;
		if (m?.type === 'celebrate') fire(typeof m.reason === 'string' ? m.reason : 'an alert');
	};
	return () => ch.close();
}
