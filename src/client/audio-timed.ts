// An AudioPort without a sound card, for node integration tests: it "plays" a WAV by fetching it,
// reading its length from the RIFF header, and ending after that much real time. It fails where
// the real port fails on the same URL (HTTP errors, bytes that are not audio, a stalled download),
// so the claim protocol meets the same outcomes as in a browser.
import { AudioError, type AudioPort, type PlayHandle } from './audio-port.ts';

export interface TimedAudioOptions {
	/** A download that has not finished after this long fails with 'stall'. */
	stallTimeoutMs?: number;
	/** Preloaded files kept at most. */
	cacheSize?: number;
	/** Real time per audio second; 0.1 plays ten times faster (default 1). */
	timeScale?: number;
	fetch?: typeof fetch;
}

const DEFAULTS = { stallTimeoutMs: 10_000, cacheSize: 3, timeScale: 1 } satisfies TimedAudioOptions;

/** The playing time of a RIFF/WAVE file in seconds; throws a 'decode' AudioError otherwise. */
export function wavDurationSeconds(bytes: Uint8Array): number {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const fourCc = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
	if (bytes.length < 12 || fourCc(0) !== 'RIFF' || fourCc(8) !== 'WAVE') {
		throw new AudioError('decode', 'not a WAV file (no RIFF/WAVE header)');
	}
	let blockAlign = 0;
	let sampleRate = 0;
	for (let offset = 12; offset + 8 <= bytes.length;) {
		const id = fourCc(offset);
		const size = view.getUint32(offset + 4, true);
		const body = offset + 8;
		if (id === 'fmt ' && size >= 16 && body + 16 <= bytes.length) {
			sampleRate = view.getUint32(body + 4, true);
			blockAlign = view.getUint16(body + 12, true);
		} else if (id === 'data') {
			if (!sampleRate || !blockAlign) throw new AudioError('decode', 'WAV without a usable format');
			// A header streamed from a pipe claims ~4 GB of data; only the bytes present count.
			const dataBytes = Math.min(size, bytes.length - body);
			return Math.floor(dataBytes / blockAlign) / sampleRate;
		}
		offset = body + size + (size % 2); // chunks are padded to an even length
	}
	throw new AudioError('decode', 'WAV without a data chunk');
}

export class TimedAudioPort implements AudioPort {
	/** Node has no autoplay policy. */
	readonly unlocked = true;
	/** Durations by URL, oldest first; a failed load is forgotten so a retry fetches again. */
	private readonly cache = new Map<string, Promise<number>>();
	private readonly opts: Required<Omit<TimedAudioOptions, 'fetch'>> & { fetch: typeof fetch };
	/** URLs fetched, in order: lets tests check that a preload was reused. */
	readonly fetched: string[] = [];

	constructor(options: TimedAudioOptions = {}) {
		this.opts = { ...DEFAULTS, fetch: globalThis.fetch.bind(globalThis), ...options };
	}

	/** Never changes: there is nothing to unlock. */
	onUnlockChange(_cb: (unlocked: boolean) => void): () => void {
		return () => {};
	}

	preload(url: string): void {
		void this.load(url).catch(() => {}); // the failure is reported by play()
	}

	play(url: string, _opts: { volume: number }): PlayHandle {
		const loading = this.load(url);
		this.cache.delete(url); // played once: free it, as the <audio> port does
		let length: number | null = null;
		let startedAt: number | null = null;
		let timer: ReturnType<typeof setTimeout> | undefined;
		let settled = false;
		let finish!: (outcome: 'ended' | 'stopped' | AudioError) => void;
		let resolveStarted!: (started: boolean) => void;
		const started = new Promise<boolean>((resolve) => (resolveStarted = resolve));
		const done = new Promise<'ended' | 'stopped'>((resolve, reject) => {
			finish = (outcome) => {
				if (settled) return;
				settled = true;
				clearTimeout(timer);
				resolveStarted(false); // no effect once started
				if (outcome instanceof AudioError) reject(outcome);
				else resolve(outcome);
			};
		});
		loading.then(
			(seconds) => {
				if (settled) return; // stopped while loading
				length = seconds;
				startedAt = Date.now();
				resolveStarted(true);
				timer = setTimeout(() => finish('ended'), seconds * 1000 * this.opts.timeScale);
			},
			(err: AudioError) => finish(err)
		);

		return {
			done,
			started,
			duration: () => length,
			position: () =>
				startedAt === null || length === null
					? 0
					: Math.min((Date.now() - startedAt) / 1000 / this.opts.timeScale, length),
			stop: () => finish('stopped')
		};
	}

	private load(url: string): Promise<number> {
		const cached = this.cache.get(url);
		if (cached) return cached;
		const loading = this.fetchDuration(url);
		this.cache.set(url, loading);
		while (this.cache.size > this.opts.cacheSize) {
			this.cache.delete(this.cache.keys().next().value as string);
		}
		loading.catch(() => {
			if (this.cache.get(url) === loading) this.cache.delete(url);
		});
		return loading;
	}

	private async fetchDuration(url: string): Promise<number> {
		this.fetched.push(url);
		const abort = new AbortController();
		const timer = setTimeout(() => abort.abort(), this.opts.stallTimeoutMs);
		try {
			const res = await this.opts.fetch(url, { signal: abort.signal });
			if (!res.ok) throw new AudioError('load', `HTTP ${res.status} for ${url}`);
			const bytes = new Uint8Array(await res.arrayBuffer());
			return wavDurationSeconds(bytes);
		} catch (err) {
			if (err instanceof AudioError) throw err;
			if (abort.signal.aborted) {
				throw new AudioError(
					'stall',
					`download did not finish in ${this.opts.stallTimeoutMs / 1000} s`
				);
			}
			throw new AudioError('load', `cannot fetch ${url}: ${(err as Error).message}`);
		} finally {
			clearTimeout(timer);
		}
	}
}
