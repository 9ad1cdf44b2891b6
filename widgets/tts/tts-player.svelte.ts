// The TTS player: owns the widget's state and connects the claim runner (exactly-once playback of
// the TTS queue), the realtime events, the audio port and the OBS bridge. The markup only renders
// `view` (TtsWidget.svelte).
import type { KnownEvent, QueueTip } from '../../src/contract/index.ts';
import type { ApiClient } from '../../src/client/api.ts';
import { AudioError, type AudioPort, type PlayHandle } from '../../src/client/audio-port.ts';
import { openClaimMemory, type ClaimMemory } from '../../src/client/claim-memory.ts';
import { ClaimRunner, type PlayerPort } from '../../src/client/claim-runner.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import { mayClaim, type ObsBridge, type ObsState } from '../../src/client/obs.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import type { SpeechAnnouncer } from '../../src/client/sound-bus.ts';
import { ttsInput, ttsQueuePort } from '../../src/client/tts-queue.ts';
import type { ClaimState } from '../../src/core/claim-protocol.ts';
import { readCurrency } from '../shared/currency.ts';
import { callsText, claimText, connectionText, showQueueStatus } from '../shared/queue-status.ts';
import { textFallbackSeconds } from './format.ts';
import type { TtsParams } from './params.ts';
import { alertStyle, type AlertStyle } from './tiers.ts';
import { initialTtsView, type AlertView, type TtsViewModel } from './view.ts';

export interface TtsPlayerDeps {
	api: ApiClient;
	events: EventHub;
	audio: AudioPort;
	obs: ObsBridge;
	memory: ClaimMemory;
	params: TtsParams;
	/** Identifies this widget instance (claim memory, diagnostics). */
	instance: string;
	/** Tells media players of this origin while a tip is read aloud (ducking, holding videos). */
	speech?: SpeechAnnouncer;
	/** Fires the celebration (an alert tier with celebrate=1). */
	celebrate?: (reason: string) => void;
	now?: () => number;
}

/** A tier's sound that has not started this soon is skipped: it never holds the speech. */
const SOUND_START_MS = 2_500;
/** A sound URL that turns out long is cut here: the speech is what the tip paid for. */
const SOUND_MAX_MS = 8_000;

/**
 * With `gap=0`, a card whose tip played to its end waits this long at most for the next alert to
 * take its place (the finish and the next start are two calls) before it leaves on its own.
 */
const HANDOFF_MS = 250;

/**
 * A tip that speaks at once shows its card when its audio has started, or after this long if the
 * audio is slower: the card's first render, done before the element's `play()`, held the start
 * of the voice back by about 5 ms (the element's start waits for the page's main thread).
 */
const CARD_WAIT_MS = 100;

/** A wait that `cancel()` ends early (resolving false). */
function sleep(ms: number): { done: Promise<boolean>; cancel: () => void } {
	let cancel = () => {};
	const done = new Promise<boolean>((resolve) => {
		const t = setTimeout(() => resolve(true), ms);
		cancel = () => {
			clearTimeout(t);
			resolve(false);
		};
	});
	return { done, cancel };
}

export class TtsPlayer {
	view: TtsViewModel = $state(initialTtsView());

	/** A player with the claim memory of its instance (that of the page before a reload). */
	static async open(deps: Omit<TtsPlayerDeps, 'memory'>): Promise<TtsPlayer> {
		return new TtsPlayer({ ...deps, memory: await openClaimMemory('tts', deps.instance) });
	}

	readonly #runner: ClaimRunner<QueueTip>;
	readonly #disposers: (() => void)[] = [];
	#currency: AlertView['currency'] = null;
	#connection: RealtimeState = 'connecting';
	#connectionDetail = '';
	#obsState: ObsState;
	/** The item on screen and how to stop it. */
	#playing: { orderId: string; handle?: PlayHandle; wait?: () => void } | null = null;
	/**
	 * With gap=0, the card of a tip that played to its end, left on screen while its finish and
	 * then the next tip's start are on their way (#handOff).
	 */
	#handoff: string | null = null;
	/** The tip whose card waits for its audio to start (CARD_WAIT_MS). */
	#cardPending: string | null = null;
	#lastEventId: string | null = null;
	#lastEventAt: number | null = null;
	#lastError = '';

	readonly #deps: TtsPlayerDeps;

	constructor(deps: TtsPlayerDeps) {
		this.#deps = deps;
		const { params } = deps;
		this.#obsState = { ...deps.obs };
		this.#runner = new ClaimRunner<QueueTip>({
			queue: ttsQueuePort(deps.api),
			player: this.#playerPort(),
			memory: deps.memory,
			now: deps.now,
			config: {
				maxFailures: params.audio_failures,
				fallback: params.text_fallback === 'on',
				gapMs: params.gap * 1000
			},
			log: (m) => {
				this.#lastError = m;
				console.info('[tts]', m);
			}
		});
	}

	start(): void {
		const { events, obs, audio } = this.#deps;
		this.#disposers.push(
			events.subscribe({
				event: (e) => {
					this.#lastEventId = e.id;
					this.#lastEventAt = Date.now();
					const input = ttsInput(e, (id) => this.#find(id));
					if (input) this.#runner.dispatch(input);
					if (this.#deps.params.claim === 'never') this.#mirror(e);
					else if (this.view.debug) this.#refresh();
				},
				resync: () => this.#runner.requestSnapshot(0)
			}),
			obs.subscribe((s) => {
				this.#obsState = s;
				this.#updateEligibility();
			}),
			audio.onUnlockChange(() => this.#updateEligibility()),
			this.#runner.subscribe(() => {
				this.#checkHandoff();
				this.#refresh();
			})
		);
		void this.#loadCurrency();
		this.#updateEligibility();
		this.#runner.start();
	}

	/** The realtime connection's state, for the status and the diagnostics. */
	setConnection(state: RealtimeState, detail: string): void {
		this.#connection = state;
		this.#connectionDetail = detail;
		this.#updateEligibility();
	}

	/** The exit animation finished: drop the alert unless a new one took its place. */
	alertExited(): void {
		if (!this.view.alertVisible) this.view.alert = null;
	}

	destroy(): void {
		for (const d of this.#disposers.splice(0)) d();
		this.#runner.close();
	}

	/** Calls made per kind (diagnostics, bench). */
	get calls(): Readonly<Record<string, number>> {
		return this.#runner.calls;
	}

	get claimState(): Readonly<ClaimState<QueueTip>> {
		return this.#runner.snapshot;
	}

	/** Spectator mode: show the tip another consumer reads, silently, until it is done. */
	#mirror(e: KnownEvent): void {
		if (e.type === 'queue.tts.started') this.#show(e.data.tip, false);
		else if (
			e.type === 'queue.tts.finished' ||
			e.type === 'queue.tts.skipped' ||
			e.type === 'queue.tts.removed' ||
			e.type === 'queue.tts.released'
		)
			this.#hide(e.data.order_id);
		else if (e.type === 'queue.tts.cleared' && this.view.alert) this.#hide(this.view.alert.id);
	}

	#find(orderId: string): QueueTip | undefined {
		return this.#runner.snapshot.items.find((i) => i.orderId === orderId)?.data;
	}

	#updateEligibility(): void {
		const { params, audio } = this.#deps;
		const eligible =
			this.#connection !== 'unauthorized' &&
			audio.unlocked &&
			mayClaim(params.claim, this.#obsState);
		if (eligible !== this.#runner.snapshot.eligible)
			this.#runner.dispatch({ kind: 'eligible', eligible });
		this.#refresh();
	}

	#refresh(): void {
		const v = this.view;
		const { audio, params } = this.#deps;
		showQueueStatus(v, this.#connection, this.#connectionDetail, audio.unlocked, params.claim);
		if (params.debug) v.debug = this.#diagnostics();
	}

	#diagnostics(): TtsViewModel['debug'] {
		const s = this.#runner.snapshot;
		const claim = claimText(s, 'not claiming (hidden or audio locked)');
		return {
			connection: connectionText(this.#connection, this.#connectionDetail),
			lastEventId: this.#lastEventId,
			lastEventAt: this.#lastEventAt,
			claim,
			obs: {
				inObs: this.#obsState.inObs,
				visible: this.#obsState.visible,
				active: this.#obsState.active,
				controlLevel: this.#obsState.controlLevel
			},
			audioUnlocked: this.#deps.audio.unlocked,
			extra: [
				['instance', this.#deps.instance],
				['calls', callsText(this.#runner.calls)],
				['last note', this.#lastError || '–']
			]
		};
	}

	async #loadCurrency(): Promise<void> {
		const currency = await readCurrency(this.#deps.api);
		if (currency) this.#currency = currency;
	}

	#show(tip: QueueTip, textOnly: boolean, style?: AlertStyle): void {
		const s = style ?? alertStyle(this.#deps.params.alertTiers, tip, this.#deps.params.min_display);
		this.view.alert = {
			id: tip.order_id,
			name: tip.name,
			amount: tip.amount,
			currency: this.#currency,
			message: tip.message,
			isSubReward: tip.is_sub_reward,
			isReplay: tip.is_replay,
			textOnly,
			style: {
				tier: s.tier,
				look: s.look,
				color: s.color,
				accent: s.accent,
				scale: s.scale,
				image: s.image
			}
		};
		this.view.alertVisible = true;
		this.view.captionStartedAt = null;
		this.view.captionDurationS = null;
	}

	#hide(orderId: string): void {
		if (this.#playing?.orderId === orderId) this.#playing = null;
		if (this.#handoff === orderId) this.#handoff = null;
		if (this.view.alert?.id === orderId) {
			this.view.alertVisible = false;
			this.view.captionStartedAt = null;
		}
	}

	#playerPort(): PlayerPort<QueueTip> {
		return {
			play: async (orderId, tip, mode, attempt) => {
				const { params, audio } = this.#deps;
				const style = alertStyle(params.alertTiers, tip, params.min_display);
				/** When the card went up: the display time counts from there. */
				let shownAt = Date.now();
				// The sound and the celebration belong to the alert's first showing: a retry after a
				// failed speech shows the card again, quietly.
				const first = attempt === 1;
				// The voice first, then its card (CARD_WAIT_MS), when nothing plays before the speech.
				const voiceFirst = mode === 'normal' && tip.tts_url !== null && !(first && style.sound);
				if (voiceFirst) this.#cardPending = orderId;
				else this.#show(tip, mode === 'fallback', style);
				this.#playing = { orderId };
				const minDisplayMs = style.minDisplayS * 1000;
				if (first && style.celebrate) this.#deps.celebrate?.(`${style.tier} alert ${orderId}`);
				/** Played to its end (not stopped, not failed): the card may wait for the next one. */
				let done = false;
				try {
					if (first && style.sound) await this.#playSound(orderId, style.sound);
					if (this.#playing?.orderId !== orderId) return; // stopped during the sound
					if (mode === 'fallback' || tip.tts_url === null) {
						// The audio kept failing: the message as text for a readable time, then done.
						const wait = sleep(textFallbackSeconds(tip.message, style.minDisplayS) * 1000);
						this.#playing.wait = wait.cancel;
						done = await wait.done;
						return;
					}
					const handle = audio.play(tip.tts_url, { volume: params.volume });
					this.#playing.handle = handle;
					const showCard = () => {
						if (this.#cardPending !== orderId) return;
						this.#cardPending = null;
						if (this.#playing?.orderId !== orderId) return;
						this.#show(tip, false, style);
						shownAt = Date.now();
					};
					const cardWait = voiceFirst ? sleep(CARD_WAIT_MS) : null;
					void cardWait?.done.then((waited) => waited && showCard());
					void handle.started.then((ok) => {
						cardWait?.cancel();
						if (!ok || this.#playing?.orderId !== orderId) return;
						showCard();
						const seconds = handle.duration();
						this.#deps.speech?.speaking(orderId, seconds ? seconds * 1000 + 5_000 : undefined);
						this.view.captionDurationS = seconds;
						this.view.captionStartedAt = Date.now();
					});
					const how = await handle.done.catch((err: unknown) => {
						// A locked page is not the tip's fault: give the claim back uncounted.
						if (err instanceof AudioError && err.reason === 'locked')
							throw Object.assign(new Error(err.message), { transient: true });
						throw err;
					});
					// The voice ended: a ducked video comes back up now, not after the display time.
					this.#deps.speech?.quiet(orderId);
					if (how === 'stopped') return;
					const rest = shownAt + minDisplayMs - Date.now();
					if (rest > 0 && this.#playing?.orderId === orderId) {
						const wait = sleep(rest);
						this.#playing.wait = wait.cancel;
						await wait.done;
					}
					done = this.#playing?.orderId === orderId;
				} finally {
					if (this.#cardPending === orderId) this.#cardPending = null;
					this.#deps.speech?.quiet(orderId);
					if (done && params.gap === 0) this.#handOff(orderId);
					else this.#hide(orderId);
				}
			},
			stop: (orderId) => {
				if (this.#playing?.orderId === orderId) {
					this.#playing.handle?.stop();
					this.#playing.wait?.();
				}
				this.#hide(orderId);
			},
			preload: (_orderId, tip) => {
				const url = tip.tts_url;
				if (!url) return;
				const load = () => this.#deps.audio.preload(url);
				// Called right after the start of the tip before it: loading now would compete with that
				// tip's audio starting, so it waits until that plays (or fails).
				const started = this.#playing?.handle?.started;
				if (started) void started.then(load);
				else load();
			}
		};
	}

	/**
	 * With no pause between alerts, a card whose tip has played does not start its exit only to be
	 * replaced a moment later: it stays until the next alert takes its place (#show), and leaves as
	 * soon as none will (#checkHandoff) or after HANDOFF_MS. The page meanwhile has nothing to
	 * render, and sends the finish, then the next start, at once.
	 */
	#handOff(orderId: string): void {
		this.#playing = null;
		this.#handoff = orderId;
		// Once the next card has taken its place, hiding this one does nothing.
		setTimeout(() => this.#hide(orderId), HANDOFF_MS);
	}

	/** The card in hand-off leaves once neither its finish nor the next tip's start is on its way. */
	#checkHandoff(): void {
		const id = this.#handoff;
		const m = this.#runner.snapshot.mine;
		// On its way: this tip's finish (it is ours until that lands), or another tip's start.
		const next =
			m &&
			!m.cancelled &&
			m.retryAt === undefined &&
			(m.orderId === id) !== (m.stage === 'starting');
		// A card that waits for its audio to start (CARD_WAIT_MS) will take its place.
		if (id !== null && !next && this.#cardPending === null) this.#hide(id);
	}

	/**
	 * The tier's sound before the speech, inside the claim. A sound that fails, or has not started
	 * within SOUND_START_MS, is skipped with a note: it never blocks the speech or the queue.
	 */
	async #playSound(orderId: string, url: string): Promise<void> {
		const handle = this.#deps.audio.play(url, { volume: this.#deps.params.sound_volume });
		if (this.#playing?.orderId === orderId) this.#playing.handle = handle;
		const ended = handle.done.then(
			() => true,
			(err: unknown) => {
				this.#note(`alert sound skipped (${err instanceof Error ? err.message : String(err)})`);
				return false;
			}
		);
		const startWait = sleep(SOUND_START_MS);
		const started = await Promise.race([handle.started, startWait.done.then(() => false)]);
		startWait.cancel();
		if (started) {
			// Videos duck for the sound as they do for the speech.
			this.#deps.speech?.speaking(orderId, SOUND_MAX_MS + 5_000);
			const cap = sleep(SOUND_MAX_MS);
			await Promise.race([ended, cap.done]);
			cap.cancel();
		} else {
			handle.stop();
			// true: it was still loading when we stopped it (a failure already said why).
			if (await ended) this.#note('alert sound skipped (it did not start within 2.5 s)');
		}
		handle.stop();
		if (this.#playing?.orderId === orderId) this.#playing.handle = undefined;
	}

	#note(message: string): void {
		this.#lastError = message;
		console.info('[tts]', message);
	}
}
