// The celebration widget's state: which overlay.celebration events fire it (targeting.ts), how
// many celebrations were asked for and how many have finished. The drawing is Celebration.svelte's;
// other widgets (a tip goal reaching its target) call fire() directly.
import type { ApiClient } from '../../src/client/api.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import type { SettingsRows } from '../../src/client/settings.ts';
import type { KnownEvent } from '../../src/contract/index.ts';
import type { CelebrationParams } from './params.ts';
import { targetsMe } from './targeting.ts';

export type CelebrationStatus = 'connecting' | 'ready' | 'unauthorized' | 'failing';

export interface CelebrationDeps {
	/** Unused today; accepted so every widget state is built the same way. */
	api?: ApiClient;
	events: EventHub;
	params: CelebrationParams;
}

export class CelebrationState {
	status: CelebrationStatus = $state('connecting');
	statusDetail = $state('');
	/** Celebrations asked for so far (events that targeted this widget, and fire() calls). */
	fired = $state(0);
	/** Celebrations whose animation has ended. */
	completed = $state(0);
	/** An animation is on screen. */
	running = $state(false);
	/** Why the last one fired, for the debug panel: `event evt_…` or a caller's reason. */
	lastReason = $state('');
	/** Style, intensity and duration of the next celebration: the stored settings change them. */
	params: CelebrationParams = $state.raw(null!);
	/** Where each parameter came from (debug panel). */
	settingsRows: SettingsRows = $state.raw([]);

	private unsubscribe: (() => void) | null = null;

	constructor(private readonly deps: CelebrationDeps) {
		this.params = deps.params;
	}

	/** The stored settings changed: from the next celebration on (one on screen runs its course). */
	applySettings(params: CelebrationParams): void {
		this.params = params;
	}

	/** Where each parameter came from, for the debug panel. */
	showSettings(rows: SettingsRows): void {
		this.settingsRows = rows;
	}

	start(): void {
		this.unsubscribe = this.deps.events.subscribe({ event: (e) => this.apply(e) });
	}

	destroy(): void {
		this.unsubscribe?.();
		this.unsubscribe = null;
	}

	setConnection(state: RealtimeState, detail: string): void {
		this.status =
			state === 'unauthorized'
				? 'unauthorized'
				: state === 'failing'
					? 'failing'
					: state === 'open'
						? 'ready'
						: 'connecting';
		this.statusDetail = state === 'unauthorized' || state === 'failing' ? detail : '';
	}

	/** A realtime event: an overlay.celebration for this widget fires it; anything else is ignored. */
	apply(e: KnownEvent): void {
		if (e.type !== 'overlay.celebration') return;
		const { overlay, widget } = this.params;
		if (targetsMe(e.data, { overlay, widget })) this.fire(`event ${e.id}`);
	}

	/** Starts a celebration now (one already running gets more particles, not a restart). */
	fire(reason = 'fire()'): void {
		this.lastReason = reason;
		this.fired += 1;
		this.running = true;
	}

	/** Called by the markup when every animation has ended. */
	ended(shots: number): void {
		this.completed += shots;
		if (this.completed >= this.fired) this.running = false;
	}
}
