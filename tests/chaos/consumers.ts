// Chaos consumers: the real client code (ApiClient -> token endpoint, RealtimeConnection over a real
// WebSocket, EventHub, one ClaimRunner per queue with ttsQueuePort / mediaQueuePort) wired the way
// an overlay page with a TTS and a media widget wires it, in Node. Audio "plays" through
// TimedAudioPort (it fetches the WAV, fails where a browser fails, and lasts the WAV's length, sped
// up); a video "plays" by fetching its file and checking it is a video. Each page life records what
// it played, so the ledger can tell a completed play from a stopped one.
//
// A consumer keeps its claim memory across lives: `reload()` is a page reload (OBS refresh), the
// next life finds the remembered claims; `vanish()` is a crash that never comes back.
import WebSocket from 'ws';
import { ApiClient } from '../../src/client/api.ts';
import { TimedAudioPort } from '../../src/client/audio-timed.ts';
import { VolatileClaimMemory } from '../../src/client/claim-memory.ts';
import { ClaimRunner, type PlayerPort } from '../../src/client/claim-runner.ts';
import { EventHub } from '../../src/client/event-hub.ts';
import { isSideInput, mediaInput, mediaQueuePort } from '../../src/client/media-queue.ts';
import { RealtimeConnection } from '../../src/client/realtime.ts';
import { applyTtsEvent, ttsQueuePort } from '../../src/client/tts-queue.ts';
import type { QueueMediaItem, QueueTip } from '../../src/contract/index.ts';
import type { ClaimConfig } from '../../src/core/claim-protocol.ts';
import { classifyMedia } from '../../src/core/media-source.ts';
import { EVENT_CATALOG } from '../../src/contract/events.ts';

export type QueueName = 'tts' | 'media';

export interface PlayRecord {
	queue: QueueName;
	orderId: string;
	/** `consumer#life`: which page life played it. */
	life: string;
	mode: 'normal' | 'fallback';
	startedAt: number;
	endedAt: number | null;
	/** ended: played to its end (audio or video; `text`: the text fallback shown in full). */
	how: 'ended' | 'text' | 'stopped' | 'failed' | null;
	error?: string;
}

/** One page life of a consumer: from its start to its reload, crash or the end of the run. */
export interface LifeSpan {
	life: string;
	startedAt: number;
	endedAt: number | null;
	how?: 'reload' | 'vanish' | 'end';
}

/** What every consumer writes to: one shared record of the run. */
export interface ChaosRecorder {
	plays: PlayRecord[];
	lives: LifeSpan[];
	logs: string[];
}

export interface ChaosTiming {
	/** Real time per second of audio or video (0.1: ten times faster). */
	timeScale: number;
	/** Claim settings for both queues (takeover, head wait, failures). */
	claims: Partial<ClaimConfig>;
	/** How long the text fallback stays "on screen". */
	fallbackMs: number;
	/** Play time of a video whose length is unknown (seconds before `timeScale`). */
	unknownVideoS: number;
}

export const CHAOS_TIMING: ChaosTiming = {
	timeScale: 0.1,
	// Shorter than the real 90 s to keep runs short, yet longer than a chain of injected 429/502
	// bursts (each up to 1.5 s plus a RateLimit-Reset of up to 2 s): a healthy page whose finish
	// is refused that long would be taken over, and its tip read again.
	claims: { takeoverMs: 15_000, headWaitMs: 3_000, gapMs: 0, maxFailures: 2 },
	fallbackMs: 150,
	unknownVideoS: 8
};

/** The takeover time the chaos consumers use for a claim on this item. */
export function chaosTakeoverMs(
	timing: ChaosTiming,
	queue: QueueName,
	item: { video_duration?: number; media_start_time?: number } | undefined
): number {
	const base = timing.claims.takeoverMs ?? 90_000;
	if (queue === 'tts' || !item) return base;
	const d = item.video_duration && item.video_duration > 0 ? item.video_duration : 0;
	const remaining = d > 0 ? d - (item.media_start_time ?? 0) : timing.unknownVideoS;
	return base + Math.max(0, remaining) * 1000 * timing.timeScale;
}

const EBML = [0x1a, 0x45, 0xdf, 0xa3];

class PlayError extends Error {
	constructor(
		message: string,
		readonly permanent = false
	) {
		super(message);
	}
}

export class ChaosConsumer {
	private lives = 0;
	private life: string | null = null;
	private stopLife: (() => void) | null = null;
	private readonly memory = { tts: new VolatileClaimMemory(), media: new VolatileClaimMemory() };
	gone = false;

	constructor(
		readonly name: string,
		private readonly origin: string,
		private readonly overlayKey: string,
		private readonly rec: ChaosRecorder,
		private readonly timing: ChaosTiming = CHAOS_TIMING
	) {}

	get alive(): boolean {
		return this.life !== null;
	}

	start(): this {
		if (this.life || this.gone) return this;
		this.lives += 1;
		const life = `${this.name}#${this.lives}`;
		this.life = life;
		this.rec.lives.push({ life, startedAt: Date.now(), endedAt: null });
		this.stopLife = this.open(life);
		return this;
	}

	/** A page reload: the page dies (no release, nothing finished) and comes back with its memory. */
	reload(): void {
		this.end('reload');
		this.start();
	}

	/** A crash or a closed source that does not come back. */
	vanish(): void {
		this.end('vanish');
		this.gone = true;
	}

	close(): void {
		this.end('end');
	}

	/** The claims this page holds or remembers (diagnostics). */
	remembered(): { tts: string | null; media: string | null } {
		return { tts: this.memory.tts.load(), media: this.memory.media.load() };
	}

	private end(how: NonNullable<LifeSpan['how']>): void {
		if (!this.life) return;
		const span = this.rec.lives.find((l) => l.life === this.life);
		if (span) Object.assign(span, { endedAt: Date.now(), how });
		this.stopLife?.();
		this.life = this.stopLife = null;
	}

	private open(life: string): () => void {
		const { rec, timing } = this;
		const log = (m: string) => rec.logs.push(`${new Date().toISOString()} ${life} ${m}`);
		const api = new ApiClient({ overlayKey: this.overlayKey, baseUrl: this.origin, warn: log });
		const audio = new TimedAudioPort({ timeScale: timing.timeScale, stallTimeoutMs: 5_000 });
		const hub = new EventHub();
		let dead = false;
		const active = new Map<QueueName, { orderId: string; stop: () => void }>();

		const record = (queue: QueueName, orderId: string, mode: 'normal' | 'fallback') => {
			const r: PlayRecord = {
				queue,
				orderId,
				life,
				mode,
				startedAt: Date.now(),
				endedAt: null,
				how: null
			};
			rec.plays.push(r);
			return r;
		};
		const settle = (r: PlayRecord, how: PlayRecord['how'], error?: string) => {
			if (r.endedAt !== null) return;
			r.endedAt = Date.now();
			// A page that died mid-play did not play to the end, whatever its timers say.
			r.how = dead && how !== 'failed' ? 'stopped' : how;
			if (error) r.error = error;
		};

		const ttsPlayer: PlayerPort<QueueTip> = {
			async play(orderId, tip, mode) {
				const r = record('tts', orderId, mode);
				try {
					if (mode === 'fallback' || tip.tts_url === null) {
						const shown = await new Promise<boolean>((resolve) => {
							const t = setTimeout(() => resolve(true), timing.fallbackMs);
							active.set('tts', { orderId, stop: () => (clearTimeout(t), resolve(false)) });
						});
						settle(r, shown ? 'text' : 'stopped');
					} else {
						const handle = audio.play(tip.tts_url, { volume: 1 });
						active.set('tts', { orderId, stop: () => handle.stop() });
						settle(r, await handle.done);
					}
				} catch (err) {
					settle(r, 'failed', String(err));
					throw err;
				} finally {
					if (active.get('tts')?.orderId === orderId) active.delete('tts');
				}
				if (dead) throw Object.assign(new Error('the page died'), { transient: true });
			},
			stop(orderId) {
				const a = active.get('tts');
				if (a?.orderId === orderId) a.stop();
			},
			preload(_orderId, tip) {
				if (tip.tts_url) audio.preload(tip.tts_url);
			}
		};

		const mediaPlayer: PlayerPort<QueueMediaItem> = {
			async play(orderId, item, mode) {
				const r = record('media', orderId, mode);
				// Stoppable from the start, while the file loads too (as the media widget is): a stop
				// during the fetch means the video never plays.
				let stopLoad = false;
				active.set('media', { orderId, stop: () => (stopLoad = true) });
				try {
					const source = classifyMedia(item.media_url, item.platform ?? '');
					if (source.kind !== 'file') throw new PlayError(`cannot play ${source.kind}`, true);
					const res = await fetch(source.url);
					if (!res.ok) throw new PlayError(`the video answered ${res.status}`);
					const bytes = new Uint8Array(await res.arrayBuffer());
					if (!EBML.every((b, i) => bytes[i] === b)) throw new PlayError('not a video file');
					const seconds =
						item.video_duration > 0
							? Math.max(0, item.video_duration - item.media_start_time)
							: timing.unknownVideoS;
					const ended =
						!stopLoad &&
						(await new Promise<boolean>((resolve) => {
							const t = setTimeout(() => resolve(true), seconds * 1000 * timing.timeScale);
							active.set('media', { orderId, stop: () => (clearTimeout(t), resolve(false)) });
						}));
					settle(r, ended ? 'ended' : 'stopped');
				} catch (err) {
					settle(r, 'failed', String(err));
					throw Object.assign(err instanceof Error ? err : new Error(String(err)), {
						permanent: err instanceof PlayError && err.permanent
					});
				} finally {
					if (active.get('media')?.orderId === orderId) active.delete('media');
				}
				if (dead) throw Object.assign(new Error('the page died'), { transient: true });
			},
			stop(orderId) {
				const a = active.get('media');
				if (a?.orderId === orderId) a.stop();
			},
			preload() {}
		};

		const claims = { ...timing.claims };
		const tts = new ClaimRunner<QueueTip>({
			queue: ttsQueuePort(api),
			player: ttsPlayer,
			memory: this.memory.tts,
			config: { ...claims, takeoverMsFor: () => chaosTakeoverMs(timing, 'tts', undefined) },
			log: (m) => log(`[tts] ${m}`)
		});
		const media = new ClaimRunner<QueueMediaItem>({
			queue: mediaQueuePort(api, () => {}),
			player: mediaPlayer,
			memory: this.memory.media,
			config: {
				...claims,
				fallback: false,
				takeoverMsFor: (d) => chaosTakeoverMs(timing, 'media', d as QueueMediaItem | undefined),
				pauseStopsTakeoverClock: true
			},
			log: (m) => log(`[media] ${m}`)
		});
		const unsubscribe = hub.subscribe({
			event: (e) => {
				applyTtsEvent(tts, e);
				const m = mediaInput(e);
				if (m && !isSideInput(m)) media.dispatch(m);
				else if (m?.kind === 'resnapshot') media.requestSnapshot();
			},
			resync: () => {
				tts.requestSnapshot(0);
				media.requestSnapshot(0);
			}
		});
		for (const r of [tts, media] as ClaimRunner<unknown>[]) {
			r.dispatch({ kind: 'eligible', eligible: true });
			r.start();
		}
		const realtime = new RealtimeConnection({
			api,
			events: EVENT_CATALOG,
			WebSocket: WebSocket as never,
			onEvent: (e) => hub.emit(e),
			onResync: () => hub.resync(),
			backoff: { baseMs: 100, maxMs: 1_000 },
			warn: log
		}).start();

		return () => {
			dead = true;
			unsubscribe();
			tts.close();
			media.close();
			realtime.close();
			for (const a of active.values()) a.stop();
		};
	}
}
