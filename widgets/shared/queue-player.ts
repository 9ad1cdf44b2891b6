// What the TTS and media players (tts/tts-player.svelte.ts, media/media-player.svelte.ts) share
// around their claim runner: the feeds they follow (realtime events, the OBS state, whether the
// page may play sound, the runner's changes), whether this copy may claim, the status the shell
// shows, and the diagnostics' settings rows. Each player says what it plays and what else holds
// it back (mayPlay).
import type { KnownEvent, TipModeration } from '../../src/contract/index.ts';
import type { UnlockGate } from '../../src/client/autoplay-gate.ts';
import type { ClaimRunner } from '../../src/client/claim-runner.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import { mayClaim, type ClaimRule, type ObsBridge, type ObsState } from '../../src/client/obs.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import type { SettingsRows } from '../../src/client/settings.ts';
import type { ClaimState } from '../../src/core/claim-protocol.ts';
import { connectionText, showQueueStatus, type QueueStatus } from './queue-status.ts';
import { PendingReads, readsAgain } from './queue-watch.ts';

export abstract class QueuePlayer<
	T extends { moderation?: TipModeration },
	P extends { claim: ClaimRule; debug: boolean },
	D
> {
	abstract view: { status: QueueStatus; statusDetail?: string; debug: D | null };
	protected abstract readonly runner: ClaimRunner<T>;
	/** The parameters for the next item (applySettings); a play keeps those it began with. */
	protected params: P;
	protected obsState: ObsState;
	/** Where each parameter came from (debug panel). */
	protected settingsRows: SettingsRows = [];
	readonly #feeds: { events: EventHub; obs: ObsBridge };
	readonly #sound: Pick<UnlockGate, 'unlocked' | 'onUnlockChange'>;
	readonly #disposers: (() => void)[] = [];
	readonly #read = () => this.runner.requestSnapshot(0);
	readonly #pending = new PendingReads(this.#read);
	#connection: RealtimeState = 'connecting';
	#connectionDetail = '';

	constructor(
		deps: { events: EventHub; obs: ObsBridge; params: P },
		sound: Pick<UnlockGate, 'unlocked' | 'onUnlockChange'>
	) {
		this.#feeds = deps;
		this.#sound = sound;
		this.params = deps.params;
		this.obsState = { ...deps.obs };
	}

	start(): void {
		const { events, obs } = this.#feeds;
		this.#disposers.push(
			events.subscribe({
				event: (e) => this.onEvent(e),
				resync: this.#read,
				// A decision changed, or the channel (re)connected: the queue is read again.
				live: (m) => {
					if (readsAgain(m, this.runner.calls.snapshot)) this.#read();
				}
			}),
			obs.subscribe((s) => {
				this.obsState = s;
				this.updateEligibility();
			}),
			this.#sound.onUnlockChange(() => this.updateEligibility()),
			this.runner.subscribe(() => {
				this.#pending.check(this.runner.snapshot);
				this.changed();
				this.refresh();
			})
		);
		this.updateEligibility();
		this.runner.start();
	}

	/** The realtime connection's state, for the status and the diagnostics. */
	setConnection(state: RealtimeState, detail: string): void {
		this.#connection = state;
		this.#connectionDetail = detail;
		this.updateEligibility();
	}

	/** Where each parameter came from, for the debug panel. */
	showSettings(rows: SettingsRows): void {
		this.settingsRows = rows;
		this.refresh();
	}

	destroy(): void {
		for (const d of this.#disposers.splice(0)) d();
		this.#pending.close();
		this.runner.close();
	}

	/** Calls made per kind (diagnostics, bench). */
	get calls(): Readonly<Record<string, number>> {
		return this.runner.calls;
	}

	get claimState(): Readonly<ClaimState<T>> {
		return this.runner.snapshot;
	}

	protected abstract onEvent(e: KnownEvent): void;
	/** After every change of the claim runner's state, before the status is shown again. */
	protected abstract changed(): void;
	/** The debug panel's rows, the connection's state said in a line first. */
	protected abstract diagnostics(connection: string): D;

	/** What else holds this copy back from claiming (none unless the player says so). */
	protected mayPlay(): boolean {
		return true;
	}

	protected updateEligibility(): void {
		const eligible =
			this.#connection !== 'unauthorized' &&
			this.#sound.unlocked &&
			this.mayPlay() &&
			mayClaim(this.params.claim, this.obsState);
		if (eligible !== this.runner.snapshot.eligible)
			this.runner.dispatch({ kind: 'eligible', eligible });
		this.refresh();
	}

	protected refresh(): void {
		const v = this.view;
		const { claim, debug } = this.params;
		showQueueStatus(v, this.#connection, this.#connectionDetail, this.#sound.unlocked, claim);
		if (debug) v.debug = this.diagnostics(connectionText(this.#connection, this.#connectionDetail));
	}
}
