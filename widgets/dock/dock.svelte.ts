// The dock's state: the snapshots read after every (re)connect, the realtime events applied in
// between (dock-model.ts), and the actions with their outcomes. Reads run one batch at a time;
// events that arrive meanwhile are applied again on top of what the batch read, since the read
// may predate them. An event the model cannot apply with certainty asks for a debounced re-read.
// Idle, nothing runs: one-shot timers only (a re-read, a retry, a wait for an action's event).
import { refusesKey } from '../../src/client/api.ts';
import { RealtimeConnection, type RealtimeState } from '../../src/client/realtime.ts';
import { backoffDelay } from '../../src/core/backoff.ts';
import {
	COUNTER_EVENTS,
	MEDIA_EVENTS,
	OTHER_EVENTS,
	OVERLAY_EVENTS,
	TTS_EVENTS
} from '../../src/contract/events.ts';
import type { KnownEvent, LiveMessage } from '../../src/contract/index.ts';
import { readCurrency, type CurrencyInfo } from '../shared/currency.ts';
import {
	actionOutcome,
	actionSnapshot,
	readFailure,
	type ActionName,
	type Outcome
} from './actions.ts';
import type { ControlClient } from './control-client.ts';
import { DockChat } from './chat.svelte.ts';
import { liveReads, readsChat, type DockPart, type LiveState, type OpenLive } from './dock-live.ts';
import { DockModeration } from './moderation.svelte.ts';
import { undecided } from './moderation.ts';
import { DockShow } from './show.svelte.ts';
import {
	applyEvent,
	applySnapshot,
	emptyModel,
	type DockModel,
	type Snapshot
} from './dock-model.ts';

/** The events the dock reads: both queues, tipping, the counters and the tip goals. */
const DOCK_EVENTS = {
	...TTS_EVENTS,
	...MEDIA_EVENTS,
	...COUNTER_EVENTS,
	'overlay.tip_goal.updated': OVERLAY_EVENTS['overlay.tip_goal.updated'],
	'tipping.opened': OTHER_EVENTS['tipping.opened'],
	'tipping.closed': OTHER_EVENTS['tipping.closed']
};

const ALL: readonly Snapshot[] = ['tts', 'media', 'ttsHistory', 'mediaHistory', 'tipping'];
/** The queues whose items the token endpoint decides. */
const QUEUES = ['tts', 'media'] as const;
/** A burst of uncertain events is read once, this long after the first. */
const REREAD_MS = 300;
/** An action that succeeded is followed by its event within this, else the dock reads. */
const EXPECT_EVENT_MS = 2000;
/** How long "done" and "already" stay beside their button (refusals stay until the next press). */
const OUTCOME_MS = 8000;
const RETRY = { baseMs: 1000, maxMs: 30_000 };

/** The snapshot whose events these are (a wait for an action's event ends with any of them). */
function snapshotOf(e: KnownEvent): Snapshot {
	if (e.type.startsWith('tipping.')) return 'tipping';
	return e.type.startsWith('queue.media.') ? 'media' : 'tts';
}

export interface DockOptions {
	client: ControlClient;
	/** Where "New control key" takes the page (default: location.replace). */
	navigate?: (url: string) => void;
	/** The push channel (GET /control/live); without it, moderation changes made elsewhere show
	 *  at the dock's next read. */
	live?: OpenLive;
}

/** The props of a dock section: the dock's state, which it reads and presses through. */
export interface SectionProps {
	dock: DockState;
}

export class DockState {
	model = $state.raw<DockModel>(emptyModel());
	currency = $state.raw<CurrencyInfo | null>(null);
	connection = $state<RealtimeState>('connecting');
	connectionDetail = $state('');
	/** Why the dock cannot work (its key or sign-in refused); null while it can. */
	refused = $state<string | null>(null);
	/** A snapshot that could not be read, in words; null when the last reads succeeded. */
	readProblem = $state<string | null>(null);
	/** The last outcome beside each button, by button id. */
	outcomes = $state<Record<string, Outcome>>({});
	/** Buttons whose action is running (each is disabled meanwhile). */
	busy = $state<Record<string, boolean>>({});
	/** The push channel's state; null without one. */
	live = $state<LiveState | null>(null);
	readonly moderation: DockModeration;
	/** The counters, the tip goals and the celebration (show.svelte.ts). */
	readonly show: DockShow;
	readonly chat: DockChat;

	readonly client: ControlClient;
	#realtime: RealtimeConnection | null = null;
	readonly #openLive: OpenLive | undefined;
	#closeLive: (() => void) | null = null;
	/** Reads of each queue in a row that found items the token endpoint had not decided yet. */
	#undecidedReads = { tts: 0, media: 0 };
	readonly #navigate: (url: string) => void;
	#closed = false;
	#wanted = new Set<Snapshot>();
	#reading = false;
	/** Events that arrived while a batch was being read (null when none is). */
	#arrived: KnownEvent[] | null = null;
	#failures = 0;
	#timer: ReturnType<typeof setTimeout> | null = null;
	#timerDue = 0;
	#expect = new Map<Snapshot, ReturnType<typeof setTimeout>>();
	#fades = new Map<string, ReturnType<typeof setTimeout>>();
	readonly #parts = new Set<DockPart>();

	constructor(options: DockOptions) {
		this.client = options.client;
		this.#navigate = options.navigate ?? ((url) => location.replace(url));
		this.client.onRefused = (why) => this.#refuse(why);
		this.#openLive = options.live;
		this.moderation = new DockModeration({
			client: this.client,
			press: (id, show, run) => this.#press(id, show, run),
			reread: (snapshots) => this.#want(snapshots, 0)
		});
		this.show = new DockShow({
			client: this.client,
			press: (id, show, run) => this.#press(id, show, run)
		});
		this.chat = new DockChat(this.client);
	}

	start(): this {
		this.#realtime = new RealtimeConnection({
			// Its reads name the last events it heard: the token endpoint answers them holding them.
			api: { mintToken: this.client.mintToken, sawEvent: (id) => this.client.api.sawEvent(id) },
			events: DOCK_EVENTS,
			onEvent: (e) => this.apply(e),
			onResync: () => this.resync(),
			onState: (state, detail) => this.setConnection(state, detail)
		}).start();
		this.listen();
		return this;
	}

	/** Moderation's part of the start: the push channel opened (its hello reads the rules), or
	 *  without one, the rules read once. */
	listen(): void {
		if (!this.#openLive) {
			void this.moderation.readRules();
			void this.chat.read();
			return;
		}
		if (this.#closeLive !== null || this.#closed) return;
		this.live = 'connecting';
		this.#closeLive = this.#openLive(
			(m) => this.onLive(m),
			(state) => this.#liveState(state)
		);
	}

	#liveState(state: LiveState): void {
		this.live = state;
		// A channel that cannot connect says no hello: the Rules section still gets the rules.
		if (state === 'down' && this.moderation.stored === null && !this.#closed)
			void this.moderation.readRules();
		if (state === 'down' && this.chat.status === null && !this.#closed) void this.chat.read();
	}

	/** A push channel message: read again what it says changed. */
	onLive(m: LiveMessage): void {
		const { snapshots, rules } = liveReads(m);
		if (snapshots.length) this.#want(snapshots, 0);
		if (rules && !this.#closed) void this.moderation.readRules();
		if (readsChat(m) && !this.#closed) void this.chat.read();
		for (const part of this.#parts) part.onLive(m);
	}

	/** A part loaded later joins the dock: it hears the push channel from now on. */
	attach(part: DockPart): void {
		if (this.#closed) part.close();
		else this.#parts.add(part);
	}

	/** One press of a part's button `id`, as the dock's own (one at a time, its outcome beside it). */
	press(id: string, run: () => Promise<Outcome | null>): Promise<void> {
		return this.#press(id, id, run);
	}

	/** The connection is (again) ready: nothing is replayed, the snapshots are the truth. */
	resync(): void {
		this.#want(ALL, 0);
		if (!this.#closed) void this.show.read();
	}

	/** The realtime connection, for the page's test handle. */
	get realtime(): RealtimeConnection | null {
		return this.#realtime;
	}

	close(): void {
		this.#closed = true;
		this.#realtime?.close();
		this.#closeLive?.();
		this.#closeLive = null;
		this.#schedule(null);
		for (const t of [...this.#expect.values(), ...this.#fades.values()]) clearTimeout(t);
		this.#expect.clear();
		this.#fades.clear();
		for (const part of this.#parts) part.close();
		this.#parts.clear();
	}

	/** The realtime connection's state, for the connection line. */
	setConnection(state: RealtimeState, detail: string): void {
		this.connection = state;
		this.connectionDetail = detail;
		if (state === 'unauthorized') this.#refuse(detail);
		// Never connected yet: show the upstream's state anyway while the socket keeps trying.
		else if ((state === 'retrying' || state === 'failing') && this.model.tts === null)
			this.#want(ALL, 0);
	}

	#refuse(why: string): void {
		if (this.refused !== null) return;
		this.refused = why;
		this.close();
	}

	/** A realtime event (checked and de-duplicated by the connection). */
	apply(e: KnownEvent): void {
		if (this.show.apply(e)) return;
		const family = snapshotOf(e);
		const waiting = this.#expect.get(family);
		if (waiting !== undefined) {
			clearTimeout(waiting);
			this.#expect.delete(family);
		}
		this.#arrived?.push(e);
		const { model, reread } = applyEvent(this.model, e);
		this.model = model;
		if (reread.length) this.#want(reread, REREAD_MS);
	}

	/** Reads these snapshots within `ms` (a read already due sooner stands). */
	#want(snapshots: readonly Snapshot[], ms: number): void {
		if (this.#closed) return;
		for (const s of snapshots) this.#wanted.add(s);
		if (this.#reading) return; // the running batch reads them next
		if (this.#timer !== null && this.#timerDue <= Date.now() + ms) return;
		this.#schedule(ms);
	}

	#schedule(ms: number | null): void {
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
		if (ms === null || this.#closed) return;
		this.#timerDue = Date.now() + ms;
		this.#timer = setTimeout(() => {
			this.#timer = null;
			void this.#read();
		}, ms);
	}

	async #read(): Promise<void> {
		if (this.#reading || this.#closed || this.#wanted.size === 0) return;
		const batch = [...this.#wanted];
		this.#wanted.clear();
		this.#reading = true;
		this.#arrived = [];
		const [results, currency] = await Promise.all([
			Promise.all(batch.map((s) => this.client.read(s))),
			this.currency ? null : readCurrency(this.client.api)
		]);
		if (currency) this.currency = currency;
		const arrived = this.#arrived;
		this.#reading = false;
		this.#arrived = null;
		if (this.#closed) return;
		this.#land(batch, results, arrived);
	}

	/** A batch's answers applied, the events that came meanwhile on top, failures retried. */
	#land(
		batch: Snapshot[],
		results: Awaited<ReturnType<ControlClient['read']>>[],
		arrived: KnownEvent[]
	): void {
		let model = this.model;
		const failed: string[] = [];
		let retry = false;
		results.forEach((r, i) => {
			if (r.ok) model = applySnapshot(model, r.read);
			else {
				failed.push(`${batch[i]}: ${readFailure(r)}`);
				// A refused credential, a missing scope or a route the server does not forward: no
				// retry helps.
				const lasting = refusesKey(r) || (r.kind === 'http' && [403, 404].includes(r.status));
				if (!lasting) {
					this.#wanted.add(batch[i]);
					retry = true;
				}
			}
		});
		const again = new Set<Snapshot>();
		for (const e of arrived) {
			const applied = applyEvent(model, e);
			model = applied.model;
			for (const s of applied.reread) if (!batch.includes(s)) again.add(s);
		}
		this.model = model;
		this.readProblem = failed.length ? `could not read ${failed.join('; ')}` : null;
		this.#failures = retry ? this.#failures + 1 : 0;
		for (const s of again) this.#wanted.add(s);
		// Tips or videos the token endpoint could not decide (its decision store unreachable, a
		// video's tip unreadable): read again, later and later, until it has.
		const pending = QUEUES.filter((q) => !this.#wanted.has(q) && undecided(model[q]?.items));
		for (const q of QUEUES)
			if (batch.includes(q))
				this.#undecidedReads[q] = pending.includes(q) ? this.#undecidedReads[q] + 1 : 0;
		if (retry) {
			const wait = results.find((r) => !r.ok && r.kind === 'http' && r.retryAfterMs);
			const floor = wait && !wait.ok && wait.kind === 'http' ? (wait.retryAfterMs ?? 0) : 0;
			this.#schedule(Math.max(backoffDelay(this.#failures - 1, RETRY), floor));
		} else if (this.#wanted.size) this.#schedule(REREAD_MS);
		else for (const q of pending) this.#want([q], backoffDelay(this.#undecidedReads[q] - 1, RETRY));
	}

	/**
	 * Runs one action of a button (`id`), one at a time: the button is disabled meanwhile, and its
	 * outcome shows beside it. The state then follows from the events; if none comes, a re-read.
	 */
	act(id: string, action: ActionName, orderId?: string): Promise<void> {
		return this.#press(id, id, async () => {
			const outcome = actionOutcome(await this.client.act(action, orderId));
			if (this.#closed) return null;
			const snapshot = actionSnapshot(action);
			if (outcome.reread) this.#want([snapshot], 0);
			else if (outcome.kind === 'done' || outcome.kind === 'already') this.#awaitEvent(snapshot);
			return outcome;
		});
	}

	/** One press of button `id` (disabled until `run` answers); its outcome shows under `show`. */
	async #press(id: string, show: string, run: () => Promise<Outcome | null>): Promise<void> {
		if (this.busy[id] || this.refused !== null) return;
		this.busy[id] = true;
		this.#fade(show, null);
		delete this.outcomes[show];
		const outcome = await run();
		this.busy[id] = false;
		if (this.#closed || outcome === null) return;
		this.outcomes[show] = outcome;
		if (outcome.kind === 'done' || outcome.kind === 'already') this.#fade(show, OUTCOME_MS);
	}

	/** An action succeeded: its event should follow; if none does in time, read the snapshot. */
	#awaitEvent(snapshot: Snapshot): void {
		clearTimeout(this.#expect.get(snapshot));
		const timer = setTimeout(() => {
			this.#expect.delete(snapshot);
			this.#want([snapshot], 0);
		}, EXPECT_EVENT_MS);
		this.#expect.set(snapshot, timer);
	}

	/** Takes a button's outcome away after `ms`; null: cancels that. */
	#fade(id: string, ms: number | null): void {
		clearTimeout(this.#fades.get(id));
		this.#fades.delete(id);
		if (ms === null) return;
		this.#fades.set(
			id,
			setTimeout(() => {
				this.#fades.delete(id);
				delete this.outcomes[id];
			}, ms)
		);
	}

	/**
	 * "New control key" (single mode): the server makes a new key and the old one stops at once,
	 * so the page moves to the new URL. null: done; else why not.
	 */
	async renewKey(): Promise<string | null> {
		const res = await this.client.newKey();
		if (!res.ok) return res.error;
		this.close();
		const url = new URL(location.href);
		url.search = new URLSearchParams({ key: res.key }).toString();
		// The new page says to update the dock's URL in OBS (#new-key), which still has the old one.
		url.hash = 'new-key';
		this.#navigate(url.toString());
		return null;
	}
}
