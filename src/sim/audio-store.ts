// Rendered TTS audio by order id. Rendering is real (espeak-ng or a tone) and takes real time, which
// is why `tts_url` starts null. A small LRU keeps memory flat over long demo runs; an evicted tip is
// rendered again on request.
import { LRUCache } from 'lru-cache';
import { renderClip, renderSpeech } from './audio.ts';

export class AudioStore {
	private readonly cache: LRUCache<string, Uint8Array>;
	/** What each known tip says, so an evicted entry can be rendered again. */
	private readonly texts = new Map<string, string>();

	constructor(
		capacity = 64,
		/** Set: every tip is a tone of this many ms instead of its message (SimOptions.audioClipMs). */
		private readonly clipMs?: number
	) {
		this.cache = new LRUCache({ max: capacity });
	}

	async render(orderId: string, text: string): Promise<Uint8Array> {
		this.texts.set(orderId, text);
		const bytes = this.clipMs === undefined ? await renderSpeech(text) : renderClip(this.clipMs);
		this.cache.set(orderId, bytes);
		return bytes;
	}

	/** Alias audio: a replay speaks the same words under a new order id. */
	knows(orderId: string): boolean {
		return this.texts.has(orderId);
	}

	async get(orderId: string): Promise<Uint8Array | null> {
		const hit = this.cache.get(orderId);
		if (hit) return hit;
		const text = this.texts.get(orderId);
		return text === undefined ? null : this.render(orderId, text);
	}
}
