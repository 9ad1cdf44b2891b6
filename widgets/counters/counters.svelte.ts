// The counters widget's state: reads GET /counters after every (re)connect, applies
// counter.updated / counter.deleted as they come, and decides which counters are shown (one named
// by the URL or the overlay widget's settings, or all). The markup only renders it (Counters.svelte).
import { refusesKey, type ApiClient, type ApiFailure } from '../../src/client/api.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import type { KnownEvent } from '../../src/contract/index.ts';
import { backoffDelay } from '../../src/core/backoff.ts';
import {
	mergeSnapshot,
	nameFromOverlays,
	nameFromSettings,
	removeCounter,
	upsertCounter,
	type SettingsPick
} from './counter-list.ts';
import type { SettingsRows } from '../../src/client/settings.ts';
import type { CountersParams } from './params.ts';
import type { CounterView, CountersStatus } from './view.ts';
import * as routes from '../../src/contract/routes.ts';

export interface CountersDeps {
	api: ApiClient;
	events: EventHub;
	params: CountersParams;
	/** The overlay widget's settings when the caller already has them (the overlay page). */
	settings?: Readonly<Record<string, unknown>>;
}

const RETRY = { baseMs: 1000, maxMs: 30_000 };

export class CountersState {
	status: CountersStatus = $state('connecting');
	/** Why the status is what it is, in a sentence (error card, debug panel). */
	statusDetail = $state('');
	/** Every counter known, in the upstream's order. */
	counters: CounterView[] = $state([]);
	/** The counter to show; null = all; undefined = not known yet (overlay settings unread). */
	selected: string | null | undefined = $state(undefined);
	/** A GET /counters answer has been applied since the page started. */
	loaded = $state(false);
	/** Counter events applied so far (diagnostics and tests). */
	applied = $state(0);
	/** Something worth telling the streamer with debug=1 (e.g. a widget id that is not there). */
	note = $state('');
	/** The parameters the markup reads (theme, format, label): the stored settings change them. */
	params: CountersParams = $state.raw(null!);
	/** Where each parameter came from (debug panel). */
	settingsRows: SettingsRows = $state.raw([]);

	/** What the markup lists: the selected counter (when it exists), or all. */
	readonly shown: CounterView[] = $derived(
		this.selected === undefined
			? []
			: this.selected === null
				? this.counters
				: this.counters.filter((c) => c.name === this.selected)
	);

	private connection: RealtimeState = 'connecting';
	/** Events since the snapshot request went out; null when no request is under way. */
	private touched: Map<string, number | null> | null = null;
	private generation = 0;
	private failures = 0;
	private retry: ReturnType<typeof setTimeout> | null = null;
	private unsubscribe: (() => void) | null = null;

	constructor(private readonly deps: CountersDeps) {
		this.params = deps.params;
		this.select();
	}

	/** The caption of a counter: the `label` parameter in single mode, else its name. */
	labelOf(name: string): string {
		return this.selected !== null && this.params.label ? this.params.label : name;
	}

	/**
	 * The stored settings changed: theme, format and label apply at once (counters have nothing in
	 * flight). Another `name` shows another counter of the list, which holds them all: read again
	 * only when the overlay's widget settings must name it.
	 */
	applySettings(params: CountersParams): void {
		const name = this.params.name;
		this.params = params;
		if (params.name === name) return;
		this.select();
		if (this.selected === undefined) void this.resync();
	}

	/** Where each parameter came from, for the debug panel. */
	showSettings(rows: SettingsRows): void {
		this.settingsRows = rows;
	}

	start(): void {
		this.unsubscribe = this.deps.events.subscribe({
			event: (e) => this.apply(e),
			resync: () => void this.resync()
		});
	}

	destroy(): void {
		this.unsubscribe?.();
		this.unsubscribe = null;
		this.generation += 1;
		this.clearRetry();
	}

	/** The realtime connection's state, for the status. */
	setConnection(state: RealtimeState, detail: string): void {
		this.connection = state;
		if (state === 'unauthorized' || state === 'failing') this.statusDetail = detail;
		this.refresh();
	}

	/** A realtime event; anything but counter events is ignored. */
	apply(e: KnownEvent): void {
		if (e.type === 'counter.updated') {
			const { name, value } = e.data.counter;
			this.touched?.set(name, value);
			this.counters = upsertCounter(this.counters, name, value);
		} else if (e.type === 'counter.deleted') {
			this.touched?.set(e.data.name, null);
			this.counters = removeCounter(this.counters, e.data.name);
		} else return;
		this.applied += 1;
	}

	/** Re-reads the snapshot (and, once, the overlay widget's settings). */
	async resync(): Promise<void> {
		const gen = ++this.generation;
		this.clearRetry();
		this.touched = new Map();
		if (this.selected === undefined) {
			const failure = await this.resolveSelection();
			if (gen !== this.generation) return;
			if (failure) return this.failed(gen, failure, 'the overlay');
		}
		const res = await this.deps.api.request(routes.countersList);
		if (gen !== this.generation) return;
		if (!res.ok) return this.failed(gen, res, 'the counters');
		this.counters = mergeSnapshot(this.counters, res.body.counters, this.touched ?? new Map());
		this.touched = null;
		this.failures = 0;
		this.loaded = true;
		if (this.statusDetail && this.connection === 'open') this.statusDetail = '';
		this.refresh();
	}

	/** The counter to show: the `name` parameter, the overlay widget's, or (unknown yet) undefined. */
	private select(): void {
		const { params } = this;
		const { settings } = this.deps;
		if (params.name !== undefined) this.selected = params.name;
		else if (settings !== undefined) this.pick(nameFromSettings(settings));
		else this.selected = params.widget === undefined ? null : undefined;
	}

	/** The counter named by the overlay widget's settings (overlay and widget parameters). */
	private async resolveSelection(): Promise<ApiFailure | null> {
		const { params } = this;
		const widget = params.widget!;
		if (params.overlay !== undefined) {
			const res = await this.deps.api.request(routes.overlayRead, { overlayId: params.overlay });
			if (res.ok) this.pick(nameFromOverlays([res.body.overlay], widget));
			else if (res.kind === 'http' && res.status === 404)
				this.pick({ ok: false, problem: `no overlay ${params.overlay}; showing every counter` });
			else return res;
		} else {
			const res = await this.deps.api.request(routes.overlaysList);
			if (!res.ok) return res;
			this.pick(nameFromOverlays(res.body.overlays, widget));
		}
		return null;
	}

	private pick(p: SettingsPick): void {
		if (p.ok) this.selected = p.name;
		else {
			this.selected = null;
			this.note = p.problem;
		}
	}

	private failed(gen: number, res: ApiFailure, what: string): void {
		this.touched = null;
		if (refusesKey(res)) {
			this.status = 'unauthorized';
			this.statusDetail = 'The server did not accept the key in this URL.';
			return;
		}
		this.failures += 1;
		this.statusDetail =
			res.kind === 'http'
				? `reading ${what} failed: ${res.status}${res.code ? ` ${res.code}` : ''}`
				: `reading ${what} failed: ${res.error}`;
		const wait =
			res.kind === 'http' && res.retryAfterMs !== undefined
				? res.retryAfterMs
				: backoffDelay(this.failures - 1, RETRY);
		// The one timer of this widget, armed only while a read is failing.
		this.retry = setTimeout(() => {
			this.retry = null;
			if (gen === this.generation) void this.resync();
		}, wait);
		this.refresh();
	}

	private clearRetry(): void {
		if (this.retry !== null) clearTimeout(this.retry);
		this.retry = null;
	}

	private refresh(): void {
		if (this.status === 'unauthorized') return;
		this.status =
			this.connection === 'unauthorized'
				? 'unauthorized'
				: this.connection === 'failing' || (this.failures >= 3 && !this.loaded)
					? 'failing'
					: this.connection === 'open' && this.loaded
						? 'ready'
						: 'connecting';
	}
}
