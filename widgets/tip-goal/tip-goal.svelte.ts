// The tip goal of one overlay: owns the widget's state. The truth is GET /overlays/{id}/tip-goal,
// re-read on every (re)connect, on overlay.reload and whenever an event cannot be applied with
// certainty; in between, paid tips inside the window move it at once and overlay.tip_goal.updated
// replaces it (CONTRACT.md, Records: TipGoal; Event catalog). Time only matters for the countdown
// and the window's edges: one setTimeout aimed at the next visible change, none when nothing changes.
import type { KnownEvent, TipGoal } from '../../src/contract/index.ts';
import type { ApiClient } from '../../src/client/api.ts';
import type { EventHub } from '../../src/client/event-hub.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import { backoffDelay } from '../../src/core/backoff.ts';
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
import type { CurrencyInfo } from '../shared/currency.ts';
import type { GoalView, TipGoalViewModel } from './view.ts';
import * as routes from '../../src/contract/routes.ts';

/** The slice of localStorage this class uses. */
export type GoalMemory = Pick<Storage, 'getItem' | 'setItem'>;

export interface TipGoalDeps {
	api: Pick<ApiClient, 'request'>;
	events: EventHub;
	/** The overlay that holds the goal (`o_` + 8 hex). */
	overlayId: string;
	/** The tip_goal widget of that overlay, when composed (diagnostics only). */
	widgetId?: string;
	/** The goal was reached while this page watched: fire the overlay's celebration (once). */
	onReached?: (goal: TipGoal) => void;
	debug?: boolean;
	/** Default: window.localStorage when usable. */
	memory?: GoalMemory | null;
	now?: () => number;
}

/** Coalesces a burst of doubtful events into one re-read. */
const REREAD_DEBOUNCE_MS = 50;
const RETRY = { baseMs: 1000, maxMs: 30_000 };

function defaultMemory(): GoalMemory | null {
	try {
		return typeof localStorage === 'undefined' ? null : localStorage;
	} catch {
		// Storage disabled (a sandboxed frame): celebrations are then only once per page life.
		return null;
	}
}

export class TipGoalTracker {
	view: TipGoalViewModel = $state({
		status: 'connecting',
		goal: null,
		currency: null,
		debug: null,
		paramErrors: null
	});

	readonly #deps: TipGoalDeps;
	readonly #now: () => number;
	readonly #memory: GoalMemory | null;
	// Events on loopback or a healthy connection trail the read they race by milliseconds; 200 ms
	// of doubt after each read keeps re-reads rare while tips in a burst still move the goal at once.
	readonly #tally = new GoalTally({ doubtMs: 200 });
	readonly #disposers: (() => void)[] = [];
	#connection: RealtimeState = 'connecting';
	#connectionDetail = '';
	/** What was last shown, to tell a crossing of the amount from a goal first seen reached. */
	#shown: TipGoal | null = null;
	#readOk = false;
	/** Changes of the connection state; a read tells which connection it was synced with. */
	#openings = 0;
	/** The last read that succeeded started while the current connection was open. */
	#synced = false;
	#readFailure: { status: TipGoalViewModel['status']; detail: string } | null = null;
	#readAgain = false;
	/** The next read also reads GET /me. */
	#currencyWanted = false;
	#failures = 0;
	#reads = 0;
	#lastEvent = '–';
	#lastVerdict = '–';
	/** The one timer of each kind: countdown step, debounced re-read, retry after a failure. */
	#tick: ReturnType<typeof setTimeout> | null = null;
	#reread: ReturnType<typeof setTimeout> | null = null;
	#retry: ReturnType<typeof setTimeout> | null = null;
	#destroyed = false;

	constructor(deps: TipGoalDeps) {
		this.#deps = deps;
		this.#now = deps.now ?? Date.now;
		this.#memory = deps.memory === undefined ? defaultMemory() : deps.memory;
	}

	start(): this {
		this.#disposers.push(
			this.#deps.events.subscribe({
				event: (e) => this.apply(e),
				resync: () => void this.read(true)
			})
		);
		// Before the socket is up: the goal shows as soon as the read answers.
		void this.read(true);
		return this;
	}

	/** The realtime connection's state, for the status and the diagnostics. */
	setConnection(state: RealtimeState, detail: string): void {
		if (state !== this.#connection) this.#openings += 1;
		this.#connection = state;
		this.#connectionDetail = detail;
		this.#refresh();
	}

	destroy(): void {
		this.#destroyed = true;
		for (const d of this.#disposers.splice(0)) d();
		for (const t of [this.#tick, this.#reread, this.#retry]) if (t !== null) clearTimeout(t);
		this.#tick = this.#reread = this.#retry = null;
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
			else if (verdict.kind === 'doubt') this.#scheduleReread(REREAD_DEBOUNCE_MS);
			else this.#refresh();
		} else if (e.type === 'overlay.tip_goal.updated' && e.data.overlay_id === overlayId) {
			this.#lastEvent = e.type;
			this.#tally.takeTruth(e.data.tip_goal, this.#now());
			// A read in flight may answer with an older goal than this event: read once more after it.
			if (this.#tally.readInFlight) this.#readAgain = true;
			this.#show();
		} else if (
			e.type === 'overlay.reload' &&
			(e.data.overlay_id === null || e.data.overlay_id === overlayId)
		) {
			this.#lastEvent = e.type;
			this.#scheduleReread(0, true);
		}
	}

	/**
	 * Reads the goal, and with `withCurrency` the tenant's currency too (on start and every resync;
	 * a re-read on doubt needs only the goal). A read already running is followed by another.
	 */
	async read(withCurrency = false): Promise<void> {
		if (this.#destroyed) return;
		this.#currencyWanted ||= withCurrency;
		if (this.#tally.readInFlight) {
			this.#readAgain = true;
			return;
		}
		if (this.#retry !== null) clearTimeout(this.#retry);
		this.#retry = null;
		this.#reads += 1;
		const opening = this.#connection === 'open' ? this.#openings : -1;
		this.#tally.beginRead(this.#now());
		const { api, overlayId } = this.#deps;
		const wantsMe = this.#currencyWanted;
		this.#currencyWanted = false;
		const [goal, me] = await Promise.all([
			api.request(routes.tipGoalRead, { overlayId }),
			wantsMe ? api.request(routes.meCurrency) : null
		]);
		if (this.#destroyed) return;
		this.#tally.endRead(goal.ok ? goal.body.tip_goal : null, this.#now());
		if (me && !me.ok) this.#currencyWanted = true;
		if (me?.ok)
			this.view.currency = {
				code: me.body.tenant.currency,
				symbol: me.body.tenant.currency_symbol
			} satisfies CurrencyInfo;
		if (goal.ok) {
			this.#readOk = true;
			this.#synced = opening === this.#openings;
			this.#readFailure = null;
			this.#failures = 0;
			this.#show();
		} else {
			this.#readFailure = describeFailure(goal, overlayId);
			// A missing overlay or scope does not fix itself; anything else is retried with backoff.
			if (this.#readFailure.status === 'failing') {
				this.#failures += 1;
				const wait = Math.max(
					backoffDelay(this.#failures - 1, RETRY),
					goal.kind === 'http' ? (goal.retryAfterMs ?? 0) : 0
				);
				this.#retry = setTimeout(() => {
					this.#retry = null;
					void this.read();
				}, wait);
			}
			this.#refresh();
		}
		if (this.#readAgain) {
			this.#readAgain = false;
			void this.read();
		}
	}

	#scheduleReread(ms: number, withCurrency = false): void {
		this.#currencyWanted ||= withCurrency;
		if (this.#reread !== null) clearTimeout(this.#reread);
		this.#reread = setTimeout(() => {
			this.#reread = null;
			void this.read();
		}, ms);
	}

	/** The tally changed: celebrate a crossing, then redraw. */
	#show(): void {
		const goal = this.#tally.goal;
		if (!goal) return;
		if (crossesGoal(this.#shown, goal)) this.#celebrate(goal);
		this.#shown = goal;
		this.#refresh();
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
	#refresh(): void {
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
		const delay = goal && !this.#destroyed ? nextChangeMs(goal, now) : null;
		if (delay !== null)
			this.#tick = setTimeout(() => {
				this.#tick = null;
				this.#refresh();
			}, delay);
	}

	#status(): { status: TipGoalViewModel['status']; detail: string } {
		if (this.#connection === 'unauthorized')
			return { status: 'unauthorized', detail: this.#connectionDetail };
		if (this.#readFailure && this.#readFailure.status !== 'failing') return this.#readFailure;
		if (this.#connection === 'failing')
			return { status: 'failing', detail: this.#connectionDetail };
		if (this.#readFailure) return this.#readFailure;
		// Ready: connected, and the goal read since this connection opened (nothing was missed).
		if (this.#connection === 'open' && this.#readOk && this.#synced)
			return { status: 'ready', detail: '' };
		return { status: 'connecting', detail: '' };
	}

	#diagnostics(): TipGoalViewModel['debug'] {
		const g = this.#tally.goal;
		return [
			['connection', this.#connectionDetail || this.#connection],
			[
				'overlay',
				`${this.#deps.overlayId}${this.#deps.widgetId ? ` / ${this.#deps.widgetId}` : ''}`
			],
			['goal', g ? `${g.current} of ${g.amount} (${goalState(g, this.#now())})` : 'not read yet'],
			['reads', String(this.#reads)],
			['last event', this.#lastEvent],
			['last tip', this.#lastVerdict]
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

type ReadFailure = Extract<Awaited<ReturnType<ApiClient['request']>>, { ok: false }>;

function describeFailure(
	res: ReadFailure,
	overlayId: string
): { status: TipGoalViewModel['status']; detail: string } {
	if (res.kind === 'http') {
		if (res.status === 401)
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
