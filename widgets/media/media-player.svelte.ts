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
import { mayClaim, type ObsBridge, type ObsState } from '../../src/client/obs.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import type { SpeechListener } from '../../src/client/sound-bus.ts';
import type { ClaimState } from '../../src/core/claim-protocol.ts';
import { classifyMedia, mediaTakeoverMs } from '../../src/core/media-source.ts';
import { callsText, claimText, connectionText, showQueueStatus } from '../shared/queue-status.ts';
import { PendingReads, readsAgain, Spectator } from '../shared/queue-watch.ts';
import { adapterFor } from './adapters/index.ts';
import { FailedVideos } from './failed-videos.ts';
import { withVolumeFade } from './adapters/fade.ts';
import { MediaPlayError, type MediaSession } from './adapters/types.ts';
import type { SettingsRows } from '../../src/client/settings.ts';
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

export class MediaPlayer {
	view: MediaViewModel = $state(initialMediaView());
	/** The player's look: a change of the settings reaches it with the next video. */
	theme: MediaTheme = $state.raw(null!);

	readonly #runner: ClaimRunner<QueueMediaItem>;
	readonly #disposers: (() => void)[] = [];
	#connection: RealtimeState = 'connecting';
	#connectionDetail = '';
	#obsState: ObsState;
	#visible = true;
	#host: HTMLElement | null = null;
	#hostWaiters: ((el: HTMLElement) => void)[] = [];
	/** The video playing here and how to end its play() early. */
	#current: Playing | null = null;
	readonly #failures = new FailedVideos(ATTEMPTS);
	#lastEventId: string | null = null;
	#lastNote = '';
	/** The parameters for the next video (applySettings); the one playing keeps its own. */
	#params: MediaParams;
	#settingsRows: SettingsRows = [];
	/** The parameters `theme` was made of. */
	#themeOf: MediaParams | null = null;
	readonly #pending = new PendingReads(() => this.#runner.requestSnapshot(0));
	/** Spectator (claim=never, the preview): what another copy plays, without the video. */
	readonly #spectator = new Spectator<QueueMediaItem>(
		{
			snapshot: () => this.#runner.snapshot,
			readAgain: () => this.#runner.requestSnapshot(0),
			show: (media) => (this.view.now = { ...nowPlaying(media), mirrored: true }),
			hide: (orderId) => {
				if (this.view.now?.orderId === orderId && this.view.now.mirrored) this.view.now = null;
			},
			shown: () => (this.view.now?.mirrored ? this.view.now.orderId : null)
		},
		'media',
		videoPlays
	);

	readonly #deps: MediaPlayerDeps;

	constructor(deps: MediaPlayerDeps) {
		this.#deps = deps;
		this.#params = deps.params;
		this.#look(deps.params);
		this.#obsState = { ...deps.obs };
		this.#runner = new ClaimRunner<QueueMediaItem>({
			queue: mediaQueuePort(deps.api, (visible) => this.#setVisible(visible)),
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
	}

	start(): void {
		const { events, obs, gate, speech } = this.#deps;
		this.#disposers.push(
			events.subscribe({
				event: (e) => this.#onEvent(e),
				resync: () => this.#runner.requestSnapshot(0),
				// A decision changed (a video's, or a tip's that its video follows), or the channel
				// (re)connected: the queue is read again.
				live: (m) => {
					if (readsAgain(m, this.#runner.calls.snapshot)) this.#runner.requestSnapshot(0);
				}
			}),
			obs.subscribe((s) => {
				this.#obsState = s;
				this.#updateEligibility();
			}),
			gate.onUnlockChange(() => this.#updateEligibility()),
			this.#runner.subscribe(() => {
				this.#spectator.check();
				this.#pending.check(this.#runner.snapshot);
				this.#applyHold();
				this.#refresh();
			})
		);
		if (speech) this.#disposers.push(speech.subscribe(() => this.#onSpeech()));
		this.#updateEligibility();
		this.#runner.start();
	}

	/** The markup lends the element the video goes into; returns the detach function. */
	attach(el: HTMLElement): () => void {
		this.#host = el;
		for (const w of this.#hostWaiters.splice(0)) w(el);
		return () => {
			if (this.#host === el) this.#host = null;
		};
	}

	setConnection(state: RealtimeState, detail: string): void {
		this.#connection = state;
		this.#connectionDetail = detail;
		this.#updateEligibility();
	}

	/**
	 * The stored settings changed: from the next video on (look, size, loudness, ducking); the one
	 * playing keeps what it began with. Which videos this copy takes changes at once.
	 */
	applySettings(params: MediaParams): void {
		this.#params = params;
		if (!this.#current) this.#look(params);
		this.#updateEligibility();
	}

	/** Where each parameter came from, for the debug panel. */
	showSettings(rows: SettingsRows): void {
		this.#settingsRows = rows;
		this.#refresh();
	}

	destroy(): void {
		for (const d of this.#disposers.splice(0)) d();
		this.#pending.close();
		this.#runner.close();
		this.#current?.session?.destroy();
	}

	get calls(): Readonly<Record<string, number>> {
		return this.#runner.calls;
	}

	get claimState(): Readonly<ClaimState<QueueMediaItem>> {
		return this.#runner.snapshot;
	}

	#onEvent(e: KnownEvent): void {
		this.#lastEventId = e.id;
		const input = mediaInput(e);
		if (input) {
			if (!isSideInput(input)) this.#runner.dispatch(input);
			else if (input.kind === 'visible') this.#setVisible(input.visible);
			// A TTS clear resets the media playback state too: the snapshot tells what is left.
			else this.#runner.requestSnapshot();
		}
		if (this.#params.claim === 'never') this.#spectator.event(e);
		this.#refresh();
	}

	#setVisible(visible: boolean): void {
		if (visible === this.#visible) return;
		this.#visible = visible;
		this.view.visible = visible;
		this.#updateEligibility();
		this.#applyHold();
	}

	#onSpeech(): void {
		this.#applyVolume();
		this.#updateEligibility();
	}

	#updateEligibility(): void {
		const { gate, speech } = this.#deps;
		const params = this.#params;
		const holdForTts = params.with_tts === 'hold' && (speech?.speaking ?? false);
		const eligible =
			this.#connection !== 'unauthorized' &&
			gate.unlocked &&
			this.#visible &&
			!holdForTts &&
			mayClaim(params.claim, this.#obsState);
		if (eligible !== this.#runner.snapshot.eligible)
			this.#runner.dispatch({ kind: 'eligible', eligible });
		this.#refresh();
	}

	/** The video holds still while the queue is paused or the player hidden. */
	#applyHold(): void {
		const held = !this.#visible || this.#runner.snapshot.paused;
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
		const params = this.#current?.params ?? this.#params;
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
				const cur: Playing = { orderId, params: this.#params, cancel };
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

	#refresh(): void {
		const v = this.view;
		const { gate } = this.#deps;
		const params = this.#params;
		showQueueStatus(v, this.#connection, this.#connectionDetail, gate.unlocked, params.claim);
		if (params.debug) v.debug = this.#diagnostics();
	}

	#diagnostics(): MediaViewModel['debug'] {
		const s = this.#runner.snapshot;
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
			['connection', connectionText(this.#connection, this.#connectionDetail)],
			['last event', this.#lastEventId ?? '–'],
			['claim', claim],
			['instance', this.#deps.instance],
			['visible', this.#visible ? 'yes' : 'no (held in place)'],
			['tip being read', this.#deps.speech?.speaking ? 'yes' : 'no'],
			['calls', callsText(this.#runner.calls)],
			['last note', this.#lastNote || '–'],
			...failed,
			...this.#settingsRows
		];
	}
}
