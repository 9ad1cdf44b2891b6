// The TTS player: owns the widget's state and connects the claim runner (exactly-once playback of
// the TTS queue), the realtime events, the audio port and the OBS bridge. One play of a tip (its
// sound, card, voice and display time) is a TtsPlay (tts-play.ts); the player keeps what lasts
// between plays (the card handed over to the next one). The markup only renders `view`
// (TtsWidget.svelte). It obeys the token endpoint's moderation decisions (tts-queue.ts): a tip's
// message is shown only as the token endpoint handed it out with a decision to play it. New
// parameters from the stored settings (applySettings) apply from the next alert.
import type { KnownEvent, QueueTip } from '../../src/contract/index.ts';
import type { ApiClient } from '../../src/client/api.ts';
import type { AudioPort } from '../../src/client/audio-port.ts';
import { openClaimMemory, type ClaimMemory } from '../../src/client/claim-memory.ts';
import { ClaimRunner, type PlayerPort } from '../../src/client/claim-runner.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import type { LiveState } from '../../src/client/live.ts';
import type { ObsBridge } from '../../src/client/obs.ts';
import type { SpeechAnnouncer } from '../../src/client/sound-bus.ts';
import { applyTtsEvent, playable, ttsQueuePort } from '../../src/client/tts-queue.ts';
import { readCurrency } from '../shared/currency.ts';
import { QueuePlayer } from '../shared/queue-player.ts';
import { callsText, claimText } from '../shared/queue-status.ts';
import type { TtsParams } from './params.ts';
import { pending, Spectator } from '../shared/queue-watch.ts';
import { alertStyle, type AlertStyle } from './tiers.ts';
import { TtsPlay, type PlayStage } from './tts-play.ts';
import {
	alertView,
	initialTtsView,
	type AlertView,
	type TtsTheme,
	type TtsViewModel
} from './view.ts';

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

/**
 * With `gap=0`, a card whose tip played to its end waits this long at most for the next alert to
 * take its place (the finish and the next start are two calls) before it leaves on its own.
 */
const HANDOFF_MS = 250;

/** What the claim runner takes of the parameters. */
const claimConfig = (p: TtsParams) => ({
	maxFailures: p.audio_failures,
	fallback: p.text_fallback === 'on',
	gapMs: p.gap * 1000
});

export class TtsPlayer extends QueuePlayer<QueueTip, TtsParams, TtsViewModel['debug']> {
	view: TtsViewModel = $state(initialTtsView());
	/** The card's theme: a change of the settings reaches it once the card on screen has left. */
	theme: TtsTheme = $state.raw({ scale: 1, position: 'top' });

	/** A player with the claim memory of its instance (that of the page before a reload). */
	static async open(deps: Omit<TtsPlayerDeps, 'memory'>): Promise<TtsPlayer> {
		return new TtsPlayer({ ...deps, memory: await openClaimMemory('tts', deps.instance) });
	}

	protected readonly runner: ClaimRunner<QueueTip>;
	#currency: AlertView['currency'] = null;
	/** The push channel's state (debug panel); the page may not open one. */
	#live = 'not opened';
	readonly #spectator: Spectator<QueueTip>;
	/** The play in progress, from the claim runner's play until it settles (even once stopped). */
	#play: TtsPlay | null = null;
	/** What a play uses of this player: its dependencies and the ways to show a card. */
	readonly #stage: PlayStage;
	/**
	 * With gap=0, the card of a tip that played to its end, left on screen while its finish and
	 * then the next tip's start are on their way (#handOff).
	 */
	#handoff: string | null = null;
	#lastEventId: string | null = null;
	#lastEventAt: number | null = null;
	#lastError = '';

	readonly #deps: TtsPlayerDeps;

	constructor(deps: TtsPlayerDeps) {
		super(deps, deps.audio);
		this.#deps = deps;
		this.theme = deps.params;
		this.#stage = {
			...deps,
			show: (tip, textOnly, style) => this.#show(tip, textOnly, style),
			voiceStarted: (seconds) => {
				this.view.captionDurationS = seconds;
				this.view.captionStartedAt = Date.now();
			},
			note: (message) => this.#note(message)
		};
		this.runner = new ClaimRunner<QueueTip>({
			queue: ttsQueuePort(deps.api, () => this.params.claim !== 'never'),
			player: this.#playerPort(),
			memory: deps.memory,
			now: deps.now,
			config: claimConfig(deps.params),
			log: (m) => this.#note(m)
		});
		this.#spectator = new Spectator(
			this.runner,
			{
				show: (tip) => this.#show(tip, false),
				hide: (orderId) => this.#hide(orderId),
				shown: () => this.view.alert?.id ?? null
			},
			'tts',
			playable
		);
	}

	override start(): void {
		void this.#loadCurrency();
		super.start();
	}

	/** The push channel's state, for the diagnostics. */
	setLive(state: LiveState, detail: string): void {
		this.#live = detail ? `${state}: ${detail}` : state;
		this.refresh();
	}

	/** The exit animation finished: drop the alert unless a new one took its place. */
	alertExited(): void {
		if (this.view.alertVisible) return;
		this.view.alert = null;
		this.theme = this.params;
	}

	/**
	 * The stored settings changed: the next alert has the new look, tiers, sounds, volume and
	 * times; the card on screen keeps its look, theme included, and its play its sound and volume.
	 */
	applySettings(params: TtsParams): void {
		this.params = params;
		this.#stage.params = params;
		this.runner.configure(claimConfig(params));
		if (this.view.alert === null) this.theme = params;
		this.updateEligibility();
	}

	protected onEvent(e: KnownEvent): void {
		this.#lastEventId = e.id;
		this.#lastEventAt = Date.now();
		applyTtsEvent(this.runner, e);
		if (this.params.claim === 'never') this.#spectator.event(e);
		else if (this.view.debug) this.refresh();
	}

	protected changed(): void {
		this.#checkHandoff();
		this.#spectator.check();
	}

	protected diagnostics(connection: string): TtsViewModel['debug'] {
		const s = this.runner.snapshot;
		const claim = claimText(s, 'not claiming (hidden or audio locked)');
		const { inObs, visible, active, controlLevel } = this.obsState;
		return {
			connection,
			lastEventId: this.#lastEventId,
			lastEventAt: this.#lastEventAt,
			claim,
			obs: { inObs, visible, active, controlLevel },
			audioUnlocked: this.#deps.audio.unlocked,
			extra: [
				['instance', this.#deps.instance],
				['calls', callsText(this.runner.calls)],
				['live channel', this.#live],
				// Only those the token endpoint could not decide: a tip heard of by event is not waiting
				// (its start is the gate).
				['awaiting a decision', String(s.items.filter((i) => pending(i.data)).length)],
				['last note', this.#lastError || '–'],
				...this.settingsRows
			]
		};
	}

	async #loadCurrency(): Promise<void> {
		const currency = await readCurrency(this.#deps.api);
		if (currency) this.#currency = currency;
	}

	#show(tip: QueueTip, textOnly: boolean, style?: AlertStyle): void {
		const s = style ?? alertStyle(this.params.alertTiers, tip, this.params.min_display);
		// A new card takes the settings' theme as it is now; it keeps it until it leaves.
		this.theme = this.params;
		this.view.alert = alertView(tip, this.#currency, textOnly, s);
		this.view.alertVisible = true;
		this.view.captionStartedAt = null;
		this.view.captionDurationS = null;
	}

	#hide(orderId: string): void {
		if (this.#handoff === orderId) this.#handoff = null;
		if (this.view.alert?.id === orderId) {
			this.view.alertVisible = false;
			this.view.captionStartedAt = null;
		}
	}

	#playerPort(): PlayerPort<QueueTip> {
		return {
			play: async (orderId, tip, mode, attempt) => {
				// Defence in depth: the queue never makes such a tip ready. Permanent: given back.
				if (!playable(tip))
					throw Object.assign(new Error(`${orderId} has no decision to be played`), {
						permanent: true
					});
				const params = this.params;
				const style = alertStyle(params.alertTiers, tip, params.min_display);
				const play = new TtsPlay(this.#stage, { orderId, tip, mode, attempt, style });
				this.#play = play;
				/** Played to its end (not stopped, not failed): the card may wait for the next one. */
				let playedToEnd = false;
				try {
					playedToEnd = await play.run();
				} finally {
					if (this.#play === play) this.#play = null;
					if (playedToEnd && params.gap === 0) this.#handOff(orderId);
					else this.#hide(orderId);
				}
			},
			stop: (orderId) => {
				if (this.#play?.orderId === orderId) this.#play.stop();
				this.#hide(orderId);
			},
			preload: (_orderId, tip) => {
				const url = tip.tts_url;
				if (!url || tip.moderation?.outcome !== 'read') return;
				const load = () => this.#deps.audio.preload(url);
				// Called right after the start of the tip before it: loading now would compete with that
				// tip's audio starting, so it waits until that plays (or fails).
				const started = this.#play?.audioStart;
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
		this.#handoff = orderId;
		// Once the next card has taken its place, hiding this one does nothing.
		setTimeout(() => this.#hide(orderId), HANDOFF_MS);
	}

	/** The card in hand-off leaves once neither its finish nor the next tip's start is on its way. */
	#checkHandoff(): void {
		const id = this.#handoff;
		const m = this.runner.snapshot.mine;
		// On its way: this tip's finish (it is ours until that lands), or another tip's start.
		const callOnItsWay =
			m &&
			!m.cancelled &&
			m.retryAt === undefined &&
			(m.orderId === id) !== (m.stage === 'starting');
		// A card that waits for its voice to start will take its place.
		const cardComing = this.#play?.cardWaitsForVoice ?? false;
		if (id !== null && !callOnItsWay && !cardComing) this.#hide(id);
	}

	#note(message: string): void {
		this.#lastError = message;
		console.info('[tts]', message);
	}
}
