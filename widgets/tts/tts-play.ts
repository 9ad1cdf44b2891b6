// One TTS play: what happens between the claim runner's "play this tip" and the end it reports.
// The tier's sound, the card, the voice and the card's minimum display time; or, when the audio
// kept failing, the message as text for a readable time. A tip the token endpoint decided
// `no_voice` is shown the same way from the start, with no sound either. The player (tts-player.svelte.ts) makes
// one per play and can stop it; what the end means for the claim (finish when it played, release
// when it failed) is decided by the claim runner, never here (docs/claim-protocol.md).
import { AudioError, type AudioPort, type PlayHandle } from '../../src/client/audio-port.ts';
import type { SpeechAnnouncer } from '../../src/client/sound-bus.ts';
import type { QueueTip } from '../../src/contract/index.ts';
import { textFallbackSeconds } from './format.ts';
import type { TtsParams } from './params.ts';
import type { AlertStyle } from './tiers.ts';

/** A tier's sound that has not started this soon is skipped: it never holds the speech. */
const SOUND_START_MS = 2_500;
/** A sound URL that turns out long is cut here: the speech is what the tip paid for. */
const SOUND_MAX_MS = 8_000;

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

/** What a play uses of the player that runs it: its dependencies, and three ways to show. */
export interface PlayStage {
	audio: AudioPort;
	params: Pick<TtsParams, 'volume' | 'sound_volume'>;
	/** Tells media players while the tip is heard (they duck or hold their videos). */
	speech?: SpeechAnnouncer;
	/** Fires the celebration (an alert tier with celebrate=1). */
	celebrate?: (reason: string) => void;
	/** Puts the tip's card on screen; `textOnly`: the message without its voice. */
	show(tip: QueueTip, textOnly: boolean, style: AlertStyle): void;
	/** The voice started: its caption runs for `seconds` from now (null: length unknown). */
	voiceStarted(seconds: number | null): void;
	/** A note for the diagnostics (an alert sound skipped). */
	note(message: string): void;
}

/** The tip to play, as the claim runner hands it over, and the style of its alert tier. */
export interface PlayItem {
	orderId: string;
	tip: QueueTip;
	/** 'fallback': the audio kept failing, the message is shown as text alone. */
	mode: 'normal' | 'fallback';
	/** 1 for the first play of the tip; more after failed ones. */
	attempt: number;
	style: AlertStyle;
}

export class TtsPlay {
	readonly orderId: string;
	readonly #item: PlayItem;
	readonly #stage: PlayStage;
	/** The loudness of this play, as the settings were when it began (a change waits for the next). */
	readonly #params: PlayStage['params'];
	/**
	 * The tier's sound to play before the voice. The sound and the celebration belong to the
	 * alert's first showing: a retry after a failed speech shows the card again, quietly.
	 */
	readonly #sound: string | null;
	/**
	 * The voice to play. Null: the audio kept failing (the fallback), the tip has none, or it is
	 * not to be heard (`no_voice`), so the message is shown as text alone for a readable time.
	 */
	readonly #voice: string | null;
	/** stop() was called: the claim is no longer ours, nothing more is shown or heard. */
	#stopped = false;
	/**
	 * The card waits for the voice to start and is not on screen yet: when nothing plays before
	 * the voice, the voice is heard first and its card follows (CARD_WAIT_MS).
	 */
	#cardWaiting: boolean;
	/** When the card went up: the minimum display time counts from there. */
	#shownAt = Date.now();
	/** The audio heard now (the sound, then the voice), for stop(). */
	#audio: PlayHandle | undefined;
	/** Ends the wait in progress (the text alone, the rest of the display time), for stop(). */
	#cancelWait: (() => void) | undefined;

	constructor(stage: PlayStage, item: PlayItem) {
		this.#stage = stage;
		this.#params = stage.params;
		this.#item = item;
		this.orderId = item.orderId;
		// Decided `no_voice`: nothing of it is heard, not even the tier's sound.
		const silent = item.tip.moderation?.outcome !== 'read';
		this.#sound = !silent && item.attempt === 1 && item.style.sound ? item.style.sound : null;
		this.#voice = silent || item.mode === 'fallback' ? null : item.tip.tts_url;
		this.#cardWaiting = this.#voice !== null && this.#sound === null;
	}

	/** The card waits for the voice to start: it will replace the card on screen (hand-off). */
	get cardWaitsForVoice(): boolean {
		return this.#cardWaiting;
	}

	/** The start of the audio heard now (resolves when it started or failed); undefined if none. */
	get audioStart(): Promise<boolean> | undefined {
		return this.#stopped ? undefined : this.#audio?.started;
	}

	/**
	 * Plays the tip. Resolves true when it played to its end, false when it was stopped; rejects
	 * when the voice failed (marked `transient` when the page is locked: not the tip's fault).
	 */
	async run(): Promise<boolean> {
		const { orderId, style, attempt } = this.#item;
		if (!this.#cardWaiting) this.#showCard();
		if (attempt === 1 && style.celebrate) this.#stage.celebrate?.(`${style.tier} alert ${orderId}`);
		try {
			if (this.#sound !== null) await this.#playSound(this.#sound);
			if (this.#stopped) return false;
			if (this.#voice === null) {
				const { message } = this.#item.tip;
				return await this.#wait(textFallbackSeconds(message, style.minDisplayS) * 1000);
			}
			return await this.#speak(this.#voice);
		} finally {
			this.#cardWaiting = false;
			this.#stage.speech?.quiet(orderId);
		}
	}

	/** Stops the audio or the wait in progress: run() then resolves false. */
	stop(): void {
		this.#stopped = true;
		this.#audio?.stop();
		this.#cancelWait?.();
	}

	#showCard(): void {
		this.#stage.show(this.#item.tip, this.#item.mode === 'fallback', this.#item.style);
		this.#shownAt = Date.now();
	}

	/** The card that waited for the voice goes up (once), unless the play was stopped. */
	#showWaitingCard(): void {
		if (!this.#cardWaiting) return;
		this.#cardWaiting = false;
		if (!this.#stopped) this.#showCard();
	}

	/** The voice, then the rest of the card's display time; true when both ran to their end. */
	async #speak(url: string): Promise<boolean> {
		const { audio, speech } = this.#stage;
		const voice = audio.play(url, { volume: this.#params.volume });
		this.#audio = voice;
		const cardWait = this.#cardWaiting ? sleep(CARD_WAIT_MS) : null;
		void cardWait?.done.then((waited) => waited && this.#showWaitingCard());
		void voice.started.then((started) => {
			cardWait?.cancel();
			if (!started || this.#stopped) return;
			this.#showWaitingCard();
			const seconds = voice.duration();
			speech?.speaking(this.orderId, seconds ? seconds * 1000 + 5_000 : undefined);
			this.#stage.voiceStarted(seconds);
		});
		const how = await voice.done.catch((err: unknown) => {
			// A locked page is not the tip's fault: give the claim back uncounted.
			if (err instanceof AudioError && err.reason === 'locked')
				throw Object.assign(new Error(err.message), { transient: true });
			throw err;
		});
		// The voice ended: a ducked video comes back up now, not after the display time.
		speech?.quiet(this.orderId);
		if (how === 'stopped') return false;
		const rest = this.#shownAt + this.#item.style.minDisplayS * 1000 - Date.now();
		if (rest > 0 && !this.#stopped) await this.#wait(rest);
		return !this.#stopped;
	}

	/** Waits `ms`: true when the time ran out, false when stop() cut it short. */
	#wait(ms: number): Promise<boolean> {
		const wait = sleep(ms);
		this.#cancelWait = wait.cancel;
		return wait.done;
	}

	/**
	 * The tier's sound before the speech, inside the claim. A sound that fails, or has not started
	 * within SOUND_START_MS, is skipped with a note: it never blocks the speech or the queue.
	 */
	async #playSound(url: string): Promise<void> {
		const { audio, speech } = this.#stage;
		const sound = audio.play(url, { volume: this.#params.sound_volume });
		this.#audio = sound;
		const ended = sound.done.then(
			() => true,
			(err: unknown) => {
				this.#stage.note(
					`alert sound skipped (${err instanceof Error ? err.message : String(err)})`
				);
				return false;
			}
		);
		const startWait = sleep(SOUND_START_MS);
		const started = await Promise.race([sound.started, startWait.done.then(() => false)]);
		startWait.cancel();
		if (started) {
			// Videos duck for the sound as they do for the speech.
			speech?.speaking(this.orderId, SOUND_MAX_MS + 5_000);
			const cap = sleep(SOUND_MAX_MS);
			await Promise.race([ended, cap.done]);
			cap.cancel();
		} else {
			sound.stop();
			// true: it was still loading when we stopped it (a failure already said why).
			if (await ended) this.#stage.note('alert sound skipped (it did not start within 2.5 s)');
		}
		sound.stop();
		this.#audio = undefined;
	}
}
