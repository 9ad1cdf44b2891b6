// The media player: owns the widget's state and connects the claim runner (exactly-once playback
// of the media queue, src/core/claim-protocol.ts), the realtime events, the video adapters, the
// OBS bridge and the "a tip is being read" signal. The markup renders `view` and lends the player
// one host element for the video (attach).
//
// Rules on top of the claim protocol (README, "The media widget"):
// - a video starts at `media_start_time` and is finished only after its real end;
// - `is_paused` and `visible: false` hold the video in place (picture and position kept) and claim
//   nothing new; resume / show plays on from the same frame;
// - a video that cannot play is released, never finished: a broken file or a YouTube error that
//   may pass is tried once more after a short backoff, an unsupported platform or a permanent
//   YouTube error (removed, not embeddable) is not; then this copy remembers it failed, leaves it
//   queued for the streamer to skip or remove, and plays the next one. Each attempt ends within
//   START_TIMEOUT_MS, so no video holds the queue for as long as a minute.
import type { KnownEvent, QueueMediaItem } from '../../src/contract/index.ts';
import type { ApiClient } from '../../src/client/api.ts';
import type { UnlockGate } from '../../src/client/autoplay-gate.ts';
import type { ClaimMemory } from '../../src/client/claim-memory.ts';
import { ClaimRunner, type PlayerPort } from '../../src/client/claim-runner.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import {
	isSideInput,
	mediaInput,
	mediaQueuePort,
	videoPlays
} from '../../src/client/media-queue.ts';
import type { ObsBridge } from '../../src/client/obs.ts';
import type { SpeechListener } from '../../src/client/sound-bus.ts';
import { classifyMedia, mediaTakeoverMs } from '../../src/core/media-source.ts';
import { QueuePlayer } from '../shared/queue-player.ts';
import { callsText, claimText } from '../shared/queue-status.ts';
import { Spectator } from '../shared/queue-watch.ts';
import { adapterFor } from './adapters/index.ts';
import { FailedVideos } from './failed-videos.ts';
import { withVolumeFade } from './adapters/fade.ts';
import { MediaPlayError, type MediaSession } from './adapters/types.ts';
import { mediaTheme, type MediaParams } from './params.ts';
import { initialMediaView, nowPlaying, type MediaTheme, type MediaViewModel } from './view.ts';

export interface MediaPlayerDeps {
	api: ApiClient;
	events: EventHub;
	obs: ObsBridge;
	memory: ClaimMemory;
	params: MediaParams;
	instance: string;
	/** Whether the page may start sound (OBS: always; a browser tab: after a click). */
	gate: UnlockGate & { locked?(): void };
	/** "A tip is being read aloud" from TTS players of this origin (duck / hold). */
	speech?: SpeechListener;
	now?: () => number;
}

/** Attempts per video before this copy gives up on it (a permanent failure is the last at once). */
const ATTEMPTS = 2;

/** The item being played, the parameters it began with, and how to stop it. */
type Playing = {
	orderId: string;
	params: MediaParams;
	session?: MediaSession;
	cancel: () => void;
};

export class MediaPlayer extends QueuePlayer<QueueMediaItem, MediaParams, MediaViewModel['debug']> {
	view: MediaViewModel = $state(initialMediaView());
	/** The player's look: a change of the settings reaches it with the next video. */
	theme: MediaTheme = $state.raw(null!);

	protected readonly runner: ClaimRunner<QueueMediaItem>;
	#visible = true;
	/** Stops listening to the tips read aloud. */
	#unheard?: () => void;
	#host: HTMLElement | null = null;
	#hostWaiters: ((el: HTMLElement) => void)[] = [];
	/** The video playing here and how to end its play() early. */
	#current: Playing | null = null;
	readonly #failures = new FailedVideos(ATTEMPTS);
	#lastEventId: string | null = null;
	#lastNote = '';
	/** The parameters `theme` was made of. */
	#themeOf: MediaParams | null = null;
	/** Spectator (claim=never, the preview): what another copy plays, without the video. */
	readonly #spectator: Spectator<QueueMediaItem>;

	readonly #deps: MediaPlayerDeps;

	constructor(deps: MediaPlayerDeps) {
		super(deps, deps.gate);
		this.#deps = deps;
		this.#look(deps.params);
		this.runner = new ClaimRunner<QueueMediaItem>({
			queue: mediaQueuePort(
				deps.api,
				(visible) => this.#setVisible(visible),
				() => this.params.claim !== 'never'
			),
			player: this.#playerPort(),
			memory: deps.memory,
			now: deps.now,
			config: {
				maxFailures: ATTEMPTS,
				fallback: false,
				gapMs: 0,
				// A healthy copy holds a claim for the whole video.
				takeoverMsFor: (data) => mediaTakeoverMs(data as QueueMediaItem | undefined),
				pauseStopsTakeoverClock: true
			},
			log: (m) => {
				this.#lastNote = m;
				console.info('[media]', m);
			}
		});
		this.#spectator = new Spectator(
			this.runner,
			{
				show: (media) => (this.view.now = { ...nowPlaying(media), mirrored: true }),
				hide: (orderId) => {
					if (this.view.now?.orderId === orderId && this.view.now.mirrored) this.view.now = null;
				},
				shown: () => (this.view.now?.mirrored ? this.view.now.orderId : null)
			},
			'media',
			videoPlays
		);
	}

	override start(): void {
		this.#unheard = this.#deps.speech?.subscribe(() => this.#onSpeech());
		super.start();
	}

	/** The markup lends the element the video goes into; returns the detach function. */
	attach(el: HTMLElement): () => void {
		this.#host = el;
		for (const w of this.#hostWaiters.splice(0)) w(el);
		return () => {
			if (this.#host === el) this.#host = null;
		};
	}

	/**
	 * The stored settings changed: from the next video on (look, size, loudness, ducking); the one
	 * playing keeps what it began with. Which videos this copy takes changes at once.
	 */
	applySettings(params: MediaParams): void {
		this.params = params;
		if (!this.#current) this.#look(params);
		this.updateEligibility();
	}

	override destroy(): void {
		super.destroy();
		this.#unheard?.();
		this.#current?.session?.destroy();
	}

	protected changed(): void {
		this.#spectator.check();
		this.#applyHold();
	}

	protected onEvent(e: KnownEvent): void {
		this.#lastEventId = e.id;
		const input = mediaInput(e);
		if (input) {
			if (!isSideInput(input)) this.runner.dispatch(input);
			else if (input.kind === 'visible') this.#setVisible(input.visible);
			// A TTS clear resets the media playback state too: the snapshot tells what is left.
			else this.runner.requestSnapshot();
		}
		if (this.params.claim === 'never') this.#spectator.event(e);
		this.refresh();
	}

	#setVisible(visible: boolean): void {
		if (visible === this.#visible) return;
		this.#visible = visible;
		this.view.visible = visible;
		this.updateEligibility();
		this.#applyHold();
	}

	#onSpeech(): void {
		this.#applyVolume();
		this.updateEligibility();
	}

	/** A hidden player, or one holding for a tip read aloud, claims nothing. */
	protected override mayPlay(): boolean {
		const holdForTts = this.params.with_tts === 'hold' && (this.#deps.speech?.speaking ?? false);
		return this.#visible && !holdForTts;
	}

	/** The video holds still while the queue is paused or the player hidden. */
	#applyHold(): void {
		const held = !this.#visible || this.runner.snapshot.paused;
		const cur = this.#current;
		if (cur?.session) {
			if (held) cur.session.pause();
			else cur.session.resume();
		}
		if (this.view.now && this.view.now.held !== held && !this.view.now.mirrored)
			this.view.now.held = held;
	}

	#volume(): number {
		const { speech } = this.#deps;
		const params = this.#current?.params ?? this.params;
		const ducked = params.with_tts === 'duck' && (speech?.speaking ?? false);
		if (this.view.ducked !== ducked) this.view.ducked = ducked;
		return params.volume * (ducked ? params.duck_volume : 1);
	}

	#applyVolume(): void {
		const v = this.#volume();
		this.#current?.session?.setVolume(v);
	}

	/** The player's look from `params` (untouched when they are the same). */
	#look(params: MediaParams): void {
		if (this.#themeOf === params) return;
		this.#themeOf = params;
		this.theme = mediaTheme(params);
	}

	#hostReady(): Promise<HTMLElement> {
		if (this.#host) return Promise.resolve(this.#host);
		return new Promise((resolve) => this.#hostWaiters.push(resolve));
	}

	#noteFailure(media: QueueMediaItem, reason: string, permanent: boolean): void {
		this.view.failed = this.#failures.note(media, reason, permanent);
	}

	/**
	 * The claim runner's view of this player: play one item in the host element until it ends,
	 * fails or is stopped, and stop it. Kept as one object literal: play and stop share the item
	 * playing (#current) and its cancel, and the overlay's weight budget counts every byte a split
	 * would add.
	 */
	// eslint-disable-next-line max-lines-per-function -- play and stop share the playing item
	#playerPort(): PlayerPort<QueueMediaItem> {
		return {
			play: async (orderId, media) => {
				const source = classifyMedia(media.media_url, media.platform);
				const adapter = adapterFor(source);
				if (!adapter) {
					const reason = source.kind === 'unsupported' ? source.reason : 'unsupported';
					this.#noteFailure(media, reason, true);
					throw new MediaPlayError(reason, { permanent: true });
				}
				let cancel = () => {};
				const cancelled = new Promise<void>((resolve) => (cancel = resolve));
				const cur: Playing = { orderId, params: this.params, cancel };
				this.#current = cur;
				this.#look(cur.params);
				this.view.now = { ...nowPlaying(media), mirrored: false };
				try {
					const host = await this.#hostReady();
					if (this.#current !== cur) return; // stopped meanwhile
					const volume = this.#volume();
					const opened = adapter.open(host, {
						startAt: media.media_start_time,
						volume,
						onStarted: () => {
							if (this.view.now?.orderId === orderId) this.view.now.started = true;
						},
						onProgress: (position, duration) => {
							const now = this.view.now;
							if (now?.orderId !== orderId) return;
							now.position = position;
							if (duration !== null && now.duration !== duration) now.duration = duration;
						}
					});
					const session = withVolumeFade(opened, volume);
					cur.session = session;
					this.#applyHold();
					await Promise.race([session.done, cancelled]);
				} catch (err) {
					const e =
						err instanceof MediaPlayError ? err : new MediaPlayError(String(err ?? 'error'));
					// A page that may not autoplay: not the video's fault; wait for a click.
					if (e.transient) this.#deps.gate.locked?.();
					else this.#noteFailure(media, e.message, e.permanent);
					throw e;
				} finally {
					cur.session?.destroy();
					if (this.#current === cur) {
						this.#current = null;
						if (this.view.now?.orderId === orderId) this.view.now = null;
					}
				}
			},
			stop: (orderId, why) => {
				const cur = this.#current;
				if (cur?.orderId !== orderId) return;
				this.#lastNote = `stopped ${orderId}: ${why}`;
				this.#current = null;
				cur.session?.destroy();
				cur.cancel();
				if (this.view.now?.orderId === orderId) this.view.now = null;
			},
			preload: () => {}
		};
	}

	protected diagnostics(connection: string): MediaViewModel['debug'] {
		const s = this.runner.snapshot;
		// A hidden player is never eligible (updateEligibility).
		const claim = claimText(
			s,
			this.#visible
				? 'not claiming (OBS hides it, audio locked, or holding for a tip)'
				: 'player hidden'
		);
		const failed = this.view.failed.map(
			(f) => [`failed ${f.orderId}`, `${f.reason}${f.givenUp ? ' (given up)' : ''}`] as const
		);
		return [
			['connection', connection],
			['last event', this.#lastEventId ?? '–'],
			['claim', claim],
			['instance', this.#deps.instance],
			['visible', this.#visible ? 'yes' : 'no (held in place)'],
			['tip being read', this.#deps.speech?.speaking ? 'yes' : 'no'],
			['calls', callsText(this.runner.calls)],
			['last note', this.#lastNote || '–'],
			...failed,
			...this.settingsRows
		];
	}
}
