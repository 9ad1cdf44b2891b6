// The tip goal of one overlay: owns the widget's state. The truth is GET /overlays/{id}/tip-goal,
// re-read on every (re)connect, on overlay.reload and whenever an event cannot be applied with
// certainty; in between, paid tips inside the window move it at once and overlay.tip_goal.updated
// replaces it (docs/upstream.md, records: TipGoal; Event catalog). The reading and its retries are
// the shared UpstreamReader's. Time only matters for the countdown and the window's edges: one
// setTimeout aimed at the next visible change, none when nothing changes.
import type { KnownEvent, TipGoal } from '../../src/contract/index.ts';
import { refusesKey, type ApiFailure, type ApiResult } from '../../src/client/api.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import {
	barFraction,
	countdownParts,
	crossesGoal,
	formatCountdown,
	GoalTally,
	goalPercent,
	goalState,
	nextChangeMs,
	reachedKey
} from '../../src/core/goal.ts';
import { UpstreamReader, type ReaderSource } from '../shared/upstream-reader.ts';
import type { GoalView, TipGoalTheme, TipGoalViewModel } from './view.ts';
import type { SettingsRows } from '../../src/client/settings.ts';
import * as routes from '../../src/contract/routes.ts';

/** The slice of localStorage this class uses. */
export type GoalMemory = Pick<Storage, 'getItem' | 'setItem'>;

export interface TipGoalDeps extends ReaderSource {
	/** The overlay that holds the goal (`o_` + 8 hex). */
	overlayId: string;
	/** The tip_goal widget of that overlay, when composed (diagnostics only). */
	widgetId?: string;
	/** The goal was reached while this page watched: fire the overlay's celebration (once). */
	onReached?: (goal: TipGoal) => void;
	debug?: boolean;
	/** The goal's font, colours, scale and position (absent: the component's defaults). */
	theme?: TipGoalTheme;
	/** Default: window.localStorage when usable. */
	memory?: GoalMemory | null;
	now?: () => number;
}

/** Coalesces a burst of doubtful events into one re-read. */
const REREAD_DEBOUNCE_MS = 50;

/** A read of the goal that succeeded. */
type GoalRead = Extract<ApiResult<{ tip_goal: TipGoal }>, { ok: true }>;
type GoalStatus = { status: TipGoalViewModel['status']; detail: string };

function defaultMemory(): GoalMemory | null {
	try {
		return typeof localStorage === 'undefined' ? null : localStorage;
	} catch {
		// Storage disabled (a sandboxed frame): celebrations are then only once per page life.
		return null;
	}
}

export class TipGoalTracker extends UpstreamReader<TipGoalViewModel, GoalRead> {
	view: TipGoalViewModel = $state({
		status: 'connecting',
		goal: null,
		currency: null,
		debug: null,
		paramErrors: null
	});
	/** The markup's theme: the stored settings change it at once (a goal has nothing in flight). */
	theme: TipGoalTheme | undefined = $state.raw();

	readonly #deps: TipGoalDeps;
	readonly #now: () => number;
	readonly #memory: GoalMemory | null;
	// Events on loopback or a healthy connection trail the read they race by milliseconds; 200 ms
	// of doubt after each read keeps re-reads rare while tips in a burst still move the goal at once.
	readonly #tally = new GoalTally({ doubtMs: 200 });
	/** What was last shown, to tell a crossing of the amount from a goal first seen reached. */
	#shown: TipGoal | null = null;
	#readOk = false;
	/** Changes of the connection state; a read tells which connection it was synced with. */
	#openings = 0;
	/** The opening the running read began in (-1: the connection was not open). */
	#readOpening = -1;
	/** The last read that succeeded started while the current connection was open. */
	#synced = false;
	#readFailure: GoalStatus | null = null;
	#reads = 0;
	#lastEvent = '–';
	#lastVerdict = '–';
	/** Where each parameter came from (debug panel). */
	#settingsRows: SettingsRows = [];
	/** The one countdown timer: the next visible change of the goal (refresh). */
	#tick: ReturnType<typeof setTimeout> | null = null;

	constructor(deps: TipGoalDeps) {
		super(deps);
		this.#deps = deps;
		this.#now = deps.now ?? Date.now;
		this.#memory = deps.memory === undefined ? defaultMemory() : deps.memory;
		this.theme = deps.theme;
	}

	/** The stored settings changed: the theme applies at once; the goal is not read again. */
	applySettings(theme: TipGoalTheme): void {
		this.theme = theme;
	}

	/** Where each parameter came from, for the debug panel. */
	showSettings(rows: SettingsRows): void {
		this.#settingsRows = rows;
		this.refresh();
	}

	override setConnection(state: RealtimeState, detail: string): void {
		if (state !== this.connection) this.#openings += 1;
		super.setConnection(state, detail);
	}

	override destroy(): void {
		super.destroy();
		if (this.#tick !== null) clearTimeout(this.#tick);
		this.#tick = null;
	}

	/** The goal as counted now (null before the first read). */
	get goal(): TipGoal | null {
		return this.#tally.goal;
	}

	/** Applies one realtime event (exposed for the overlay page and tests). */
	apply(e: KnownEvent): void {
		const overlayId = this.#deps.overlayId;
		if (e.type === 'tip.created') {
			this.#lastEvent = `${e.type} ${e.data.tip.order_id}`;
			const verdict = this.#tally.tip(e.data.tip, this.#now());
			this.#lastVerdict = `${e.data.tip.order_id}: ${verdict.kind}`;
			if (verdict.kind === 'applied') this.#show();
			else if (verdict.kind === 'doubt') this.schedule(REREAD_DEBOUNCE_MS);
			else this.refresh();
		} else if (e.type === 'overlay.tip_goal.updated' && e.data.overlay_id === overlayId) {
			this.#lastEvent = e.type;
			this.#tally.takeTruth(e.data.tip_goal, this.#now());
			// A read in flight may answer with an older goal than this event: read once more after it.
			if (this.#tally.readInFlight) this.readAgainAfterRunning();
			this.#show();
		} else if (
			e.type === 'overlay.reload' &&
			(e.data.overlay_id === null || e.data.overlay_id === overlayId)
		) {
			this.#lastEvent = e.type;
			this.wantCurrency();
			this.schedule(0);
		}
	}

	/** Every resync reads the tenant's currency again too (a re-read on doubt needs only the goal). */
	protected override resync(): void {
		this.wantCurrency();
		super.resync();
	}

	protected async fetch(): Promise<GoalRead | ApiFailure> {
		this.#reads += 1;
		this.#readOpening = this.connection === 'open' ? this.#openings : -1;
		this.#tally.beginRead(this.#now());
		const goal = await this.#deps.api.request(routes.tipGoalRead, {
			overlayId: this.#deps.overlayId
		});
		this.#tally.endRead(goal.ok ? goal.body.tip_goal : null, this.#now());
		return goal;
	}

	/** The tally took the goal read (fetch): what is left is the status. */
	protected readSucceeded(): void {
		this.#readOk = true;
		this.#synced = this.#readOpening === this.#openings;
		this.#readFailure = null;
		this.#celebrateCrossing();
	}

	protected readFailed(res: ApiFailure): boolean {
		this.#readFailure = describeFailure(res, this.#deps.overlayId);
		// A missing overlay or scope does not fix itself; anything else is retried with backoff.
		return this.#readFailure.status === 'failing';
	}

	/** The tally changed: celebrate a crossing, then redraw. */
	#show(): void {
		this.#celebrateCrossing();
		this.refresh();
	}

	/** Celebrates a goal reached while this page watched: the one shown before was below it. */
	#celebrateCrossing(): void {
		const goal = this.#tally.goal;
		if (!goal) return;
		if (crossesGoal(this.#shown, goal)) this.#celebrate(goal);
		this.#shown = goal;
	}

	#celebrate(goal: TipGoal): void {
		const key = reachedKey(this.#deps.overlayId, goal);
		try {
			if (this.#memory?.getItem(key)) return;
			this.#memory?.setItem(key, new Date(this.#now()).toISOString());
		} catch {
			// Storage full or refused: celebrate anyway; a reload shows the goal already reached.
		}
		try {
			this.#deps.onReached?.(goal);
		} catch (err) {
			console.error('[tip-goal] the celebration failed', err);
		}
	}

	/** Recomputes the view from the tally and the clock, and aims the one timer at the next change. */
	protected refresh(): void {
		const v = this.view;
		const status = this.#status();
		if (v.status !== status.status) v.status = status.status;
		if ((v.statusDetail ?? '') !== status.detail) v.statusDetail = status.detail;

		const goal = this.#tally.goal;
		const now = this.#now();
		const next = goal ? goalView(goal, now) : null;
		if (!sameGoalView(v.goal, next)) v.goal = next;
		if (this.#deps.debug) v.debug = this.#diagnostics();

		if (this.#tick !== null) clearTimeout(this.#tick);
		this.#tick = null;
		const delay = goal && !this.destroyed ? nextChangeMs(goal, now) : null;
		if (delay !== null)
			this.#tick = setTimeout(() => {
				this.#tick = null;
				this.refresh();
			}, delay);
	}

	#status(): GoalStatus {
		if (this.connection === 'unauthorized')
			return { status: 'unauthorized', detail: this.connectionDetail };
		if (this.#readFailure && this.#readFailure.status !== 'failing') return this.#readFailure;
		if (this.connection === 'failing') return { status: 'failing', detail: this.connectionDetail };
		if (this.#readFailure) return this.#readFailure;
		// Ready: connected, and the goal read since this connection opened (nothing was missed).
		if (this.connection === 'open' && this.#readOk && this.#synced)
			return { status: 'ready', detail: '' };
		return { status: 'connecting', detail: '' };
	}

	#diagnostics(): TipGoalViewModel['debug'] {
		const g = this.#tally.goal;
		return [
			['connection', this.connectionDetail || this.connection],
			[
				'overlay',
				`${this.#deps.overlayId}${this.#deps.widgetId ? ` / ${this.#deps.widgetId}` : ''}`
			],
			['goal', g ? `${g.current} of ${g.amount} (${goalState(g, this.#now())})` : 'not read yet'],
			['reads', String(this.#reads)],
			['last event', this.#lastEvent],
			['last tip', this.#lastVerdict],
			...this.#settingsRows
		];
	}
}

function goalView(goal: TipGoal, now: number): GoalView | null {
	const state = goalState(goal, now);
	if (state === 'disabled') return null;
	const parts = state === 'running' ? countdownParts(goal.ends_at, now) : null;
	return {
		title: goal.title,
		current: goal.current,
		amount: goal.amount,
		percent: goalPercent(goal),
		fraction: barFraction(goal),
		state,
		countdown: parts ? formatCountdown(parts) : null
	};
}

function sameGoalView(a: GoalView | null, b: GoalView | null): boolean {
	if (a === null || b === null) return a === b;
	return (
		a.title === b.title &&
		a.current === b.current &&
		a.amount === b.amount &&
		a.state === b.state &&
		a.countdown === b.countdown
	);
}

function describeFailure(res: ApiFailure, overlayId: string): GoalStatus {
	if (res.kind === 'http') {
		if (refusesKey(res))
			return { status: 'unauthorized', detail: 'The server did not accept the key in this URL.' };
		if (res.status === 403)
			return {
				status: 'unavailable',
				detail: 'The upstream API key of the token endpoint lacks the overlays:manage scope.'
			};
		if (res.status === 404)
			return { status: 'unavailable', detail: `The upstream has no overlay ${overlayId}.` };
		return {
			status: 'failing',
			detail: `reading the goal failed: the server answered ${res.status}`
		};
	}
	if (res.kind === 'network')
		return {
			status: 'failing',
			detail: 'reading the goal failed: the server could not be reached'
		};
	return { status: 'failing', detail: `reading the goal failed: ${res.error}` };
}
