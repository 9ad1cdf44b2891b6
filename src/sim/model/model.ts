// The simulator's state and every operation on it, free of HTTP and sockets. Each mutation emits the
// event docs/upstream.md names through `sink`; the app layer handles credentials and serialisation.
import {
	COUNTER_NAME,
	OVERLAY_ID,
	type Actor,
	type Counter,
	type EventEnvelope,
	type EventType,
	type HistoryMediaItem,
	type HistoryTip,
	type Overlay,
	type QueueMediaItem,
	type QueueTip,
	type Tenant,
	type TipGoal
} from '../../contract/index.ts';
import { badRequest, notFound, SimError } from '../errors.ts';
import { ClaimQueue } from './claim-queue.ts';
import { IdSource } from './ids.ts';
import { leaderboardOf, mediaItem, type MediaInput } from './records.ts';
import {
	DEMO_TENANTS,
	demoOverlays,
	tipGoalOf,
	type DemoTenant,
	type OverlayState
} from './overlays.ts';
export type { MediaInput } from './records.ts';

export const MAX_COUNTERS = 100;

/** What the model needs from outside: a clock, an event sink and where audio will be served. */
export interface ModelOptions {
	now?: () => Date;
	sink?: (event: EventEnvelope) => void;
	/** Absolute URL of a tip's rendered audio (served by the app). */
	audioUrl: (orderId: string) => string;
	/** Asked to render a tip's audio; calls back `audioReady` when done. */
	requestAudio?: (tip: QueueTip) => void;
	/** Whose account this is (GET /me); absent: the demo streamer. */
	tenant?: DemoTenant;
}

/** A tip as the outside world submits it (POST /tips, demo traffic, tests). */
export interface TipInput {
	name: string;
	amount: number | null;
	message?: string | null;
	source?: string;
	external_source?: string | null;
	external_ref?: string | null;
	paid?: boolean;
	is_sub_reward?: boolean;
	platform?: 'twitch' | 'kick' | null;
	platform_user_id?: string | null;
	/** A video to request with the tip. */
	media?: MediaInput;
}

/** The two claim queues by name (`model.tts`, `model.media`). */
export type QueueName = 'tts' | 'media';
interface Queues {
	tts: ClaimQueue<QueueTip, HistoryTip>;
	media: ClaimQueue<QueueMediaItem, HistoryMediaItem>;
}
/** The key of the item in a queue's started and finished events (docs/upstream.md). */
const ITEM_KEY = { tts: 'tip', media: 'media' } as const;

// A tiny word filter, so name_was_filtered / message_was_filtered can be seen in the demo.
const FILTERED = /\b(badword|slur|scam)\b/gi;

export class SimModel {
	readonly tenant: Tenant;
	readonly tts = new ClaimQueue<QueueTip, HistoryTip>('TTS item', (t) => ({
		...t,
		played_at: this.iso()
	}));
	readonly media = new ClaimQueue<QueueMediaItem, HistoryMediaItem>('media item', (m) => ({
		...m,
		played_at: this.iso()
	}));
	mediaVisible = true;
	accepting = true;
	/** Every tip ever created, for goals and the leaderboard. */
	readonly ledger: QueueTip[] = [];
	readonly counters = new Map<string, Counter>();
	readonly overlays = new Map<string, OverlayState>();
	readonly ids = new IdSource();
	private readonly now: () => Date;

	constructor(private readonly opts: ModelOptions) {
		this.now = opts.now ?? (() => new Date());
		const { overlayIds, ...tenant } = opts.tenant ?? DEMO_TENANTS[0];
		this.tenant = tenant;
		for (const o of demoOverlays(this.now(), overlayIds)) this.overlays.set(o.overlay.id, o);
		for (const [name, value] of [
			['deaths', 3],
			['wins', 1],
			['hype', 12]
		] as const)
			this.counters.set(name, { name, value, created_at: this.iso(), updated_at: this.iso() });
	}

	iso(): string {
		return this.now().toISOString();
	}

	emit<T extends EventType>(type: T, data: Record<string, unknown>, actor?: Actor): EventEnvelope {
		const event: EventEnvelope = { id: this.ids.event(), type, created_at: this.iso(), data };
		if (actor) event.actor = actor;
		this.opts.sink?.(event);
		return event;
	}

	// --- tips ---

	createTip(input: TipInput, actor?: Actor): QueueTip {
		const name = filter(input.name);
		const message = input.message == null ? null : filter(input.message);
		const tip: QueueTip = {
			order_id: this.ids.order('tip'),
			name: name.text,
			amount: input.amount,
			message: message?.text ?? null,
			tts_url: null,
			is_replay: false,
			is_sub_reward: input.is_sub_reward ?? false,
			source: input.source ?? 'api',
			external_source: input.external_source ?? null,
			external_ref: input.external_ref ?? null,
			is_paid: input.paid ?? false,
			platform: input.platform ?? null,
			platform_user_id: input.platform_user_id ?? null,
			name_was_filtered: name.filtered,
			message_was_filtered: message?.filtered ?? false,
			queued_at: this.iso()
		};
		this.ledger.push(tip);
		this.tts.enqueue(tip);
		this.emit('tip.created', { tip }, actor);
		// A video that comes with a tip was requested via `tip` unless the caller says otherwise.
		if (input.media)
			this.enqueueMedia(
				input.media,
				tip.name,
				actor,
				tip.order_id,
				input.media.requested_via ?? 'tip'
			);
		this.opts.requestAudio?.(tip);
		return tip;
	}

	// A viewer's tip (/_sim, the demo traffic) is a checkout, which closing tipping stops
	// (docs/upstream.md, tipping:control); one made with POST /tips is not: see handlers.ts.
	checkout(input: TipInput): QueueTip {
		if (!this.accepting) throw new SimError(409, 'tipping_closed', 'tipping is closed');
		return this.createTip(input);
	}

	/** Rendering finished: the tip's `tts_url` becomes non-null and `tip.tts_ready` fires. */
	audioReady(orderId: string): void {
		const tip = this.tts.find(orderId);
		if (!tip || tip.tts_url !== null) return;
		tip.tts_url = this.opts.audioUrl(orderId);
		this.emit('tip.tts_ready', { order_id: orderId, tts_url: tip.tts_url });
	}

	/** The text a tip's audio speaks. */
	spokenText(tip: Pick<QueueTip, 'name' | 'message'>): string {
		return tip.message ? `${tip.name} says: ${tip.message}` : `${tip.name} sent a tip`;
	}

	/** Any tip ever created (queued, played or gone), by order id. */
	findTip(orderId: string): QueueTip | undefined {
		return this.ledger.find((t) => t.order_id === orderId);
	}

	// --- the two claim queues: the same transitions, each with its queue's event ---

	/** A consumer claims the item (POST /{queue}/{id}/start). */
	start<Q extends QueueName>(q: Q, orderId: string, actor?: Actor): Queues[Q]['items'][number] {
		const item = this.queue(q).start(orderId);
		this.emit(`queue.${q}.started`, { order_id: orderId, [ITEM_KEY[q]]: item }, actor);
		return item;
	}

	finish<Q extends QueueName>(q: Q, orderId: string, actor?: Actor): Queues[Q]['history'][number] {
		const item = this.queue(q).finish(orderId);
		this.emit(`queue.${q}.finished`, { order_id: orderId, [ITEM_KEY[q]]: item }, actor);
		return item;
	}

	release<Q extends QueueName>(
		q: Q,
		orderId: string,
		actor?: Actor
	): { released: boolean; item: Queues[Q]['items'][number] | null } {
		const result = this.queue(q).release(orderId);
		if (result.released) this.emit(`queue.${q}.released`, { order_id: orderId }, actor);
		return result;
	}

	setPaused(q: QueueName, paused: boolean, actor?: Actor): boolean {
		const queue = this.queue(q);
		if (queue.paused !== paused) {
			queue.paused = paused;
			this.emit(`queue.${q}.${paused ? 'paused' : 'resumed'}`, { is_paused: paused }, actor);
		}
		return paused;
	}

	/** Skips the item being played (or the oldest); its order id, null when the queue is empty. */
	skip(q: QueueName, actor?: Actor): string | null {
		const skipped = this.queue(q).skip();
		if (skipped) this.emit(`queue.${q}.skipped`, { order_id: skipped.order_id }, actor);
		return skipped?.order_id ?? null;
	}

	remove(q: QueueName, orderId: string, actor?: Actor): void {
		this.queue(q).remove(orderId);
		this.emit(`queue.${q}.removed`, { order_id: orderId }, actor);
	}

	private queue<Q extends QueueName>(q: Q): Queues[Q] {
		return this[q] as Queues[Q];
	}

	// --- the TTS queue: clear and replay ---

	/** Every queued TTS deleted; media playback state reset too (docs/upstream.md, state table). */
	ttsClear(actor?: Actor): void {
		this.tts.clear();
		this.emit('queue.tts.cleared', {}, actor);
		const mediaClaim = this.media.resetClaim();
		if (mediaClaim) this.emit('queue.media.released', { order_id: mediaClaim }, actor);
	}

	/** Queue a played tip again as a new item with a new order id and the same audio. */
	ttsReplay(orderId: string, actor?: Actor): QueueTip {
		const played = this.tts.history.find((h) => h.order_id === orderId);
		if (!played) throw notFound(`played TTS item ${orderId}`);
		const { played_at: _playedAt, ...rest } = played;
		const tip: QueueTip = {
			...rest,
			order_id: this.ids.order('tip'),
			is_replay: true,
			source: 'replay',
			// A replay is no new money: it must not count twice toward goals and totals.
			is_paid: false,
			tts_url: null,
			queued_at: this.iso()
		};
		this.tts.enqueue(tip);
		this.emit('queue.tts.replayed', { tip }, actor);
		this.opts.requestAudio?.(tip);
		return tip;
	}

	// --- media queue ---

	enqueueMedia(
		input: MediaInput,
		donorName: string,
		actor?: Actor,
		orderId = this.ids.order('med'),
		requestedVia = 'admin'
	): QueueMediaItem {
		const item = mediaItem(input, { orderId, donorName, requestedVia, queuedAt: this.iso() });
		this.media.enqueue(item);
		this.emit('queue.media.added', { media: item }, actor);
		return item;
	}

	mediaSetVisible(visible: boolean, actor?: Actor): boolean {
		if (this.mediaVisible !== visible) {
			this.mediaVisible = visible;
			this.emit('queue.media.visibility', { visible }, actor);
		}
		return visible;
	}

	// --- counters ---

	counter(name: string): Counter {
		const counter = this.counters.get(name);
		if (!counter) throw notFound(`counter ${name}`);
		return counter;
	}

	createCounter(name: string, value = 0, actor?: Actor): Counter {
		if (!COUNTER_NAME.test(name)) throw badRequest('name: 1 to 64 characters of a-z 0-9 _ -');
		if (this.counters.has(name))
			throw new SimError(409, 'counter_exists', `counter ${name} already exists`);
		if (this.counters.size >= MAX_COUNTERS)
			throw badRequest(`at most ${MAX_COUNTERS} counters per streamer`);
		const counter: Counter = { name, value, created_at: this.iso(), updated_at: this.iso() };
		this.counters.set(name, counter);
		this.emit('counter.updated', { counter, previous: null }, actor);
		return counter;
	}

	setCounter(name: string, value: number, actor?: Actor): Counter {
		const previous = this.counter(name);
		const counter: Counter = { ...previous, value, updated_at: this.iso() };
		this.counters.set(name, counter);
		this.emit('counter.updated', { counter, previous: previous.value }, actor);
		return counter;
	}

	incrementCounter(name: string, by = 1, actor?: Actor): Counter {
		return this.setCounter(name, this.counter(name).value + by, actor);
	}

	deleteCounter(name: string, actor?: Actor): void {
		this.counter(name);
		this.counters.delete(name);
		this.emit('counter.deleted', { name }, actor);
	}

	// --- overlays and tip goals ---

	overlay(id: string): OverlayState {
		const state = OVERLAY_ID.test(id) ? this.overlays.get(id) : undefined;
		if (!state) throw notFound(`overlay ${id}`);
		return state;
	}

	overlayList(): Overlay[] {
		return [...this.overlays.values()].map((s) => s.overlay);
	}

	deleteOverlay(id: string): void {
		this.overlay(id);
		this.overlays.delete(id);
	}

	reloadOverlay(id: string | null, actor?: Actor): void {
		if (id !== null) this.overlay(id);
		this.emit('overlay.reload', { overlay_id: id }, actor);
	}

	/** Every overlay (both null), one overlay, or one widget (its overlay is filled in). */
	celebrate(overlayId: string | null, widgetId: string | null, actor?: Actor): void {
		let target = overlayId;
		if (overlayId !== null) this.overlay(overlayId);
		if (widgetId !== null) {
			const owner = [...this.overlays.values()].find((s) =>
				s.overlay.widgets.some((w) => w.id === widgetId)
			);
			if (!owner || (overlayId !== null && owner.overlay.id !== overlayId))
				throw notFound(`widget ${widgetId}`);
			target = owner.overlay.id;
		}
		this.emit('overlay.celebration', { overlay_id: target, widget_id: widgetId }, actor);
	}

	tipGoal(id: string): TipGoal {
		return tipGoalOf(this.overlay(id), this.ledger);
	}

	updateTipGoal(id: string, patch: Partial<Omit<TipGoal, 'current'>>, actor?: Actor): TipGoal {
		const state = this.overlay(id);
		state.goal = { ...state.goal, ...patch };
		const tip_goal = this.tipGoal(id);
		this.emit('overlay.tip_goal.updated', { overlay_id: id, tip_goal }, actor);
		// docs/upstream.md: changing the goal reloads the overlay's browser source.
		this.emit('overlay.reload', { overlay_id: id }, actor);
		return tip_goal;
	}

	addToTipGoal(id: string, amount: number, actor?: Actor): TipGoal {
		const state = this.overlay(id);
		state.goal.added += amount;
		const tip_goal = this.tipGoal(id);
		this.emit('overlay.tip_goal.updated', { overlay_id: id, tip_goal }, actor);
		return tip_goal;
	}

	// --- tipping ---

	/** Opens or closes tipping; announced only on a change, as pause and visibility are. */
	setAccepting(accepting: boolean, actor?: Actor): boolean {
		if (this.accepting === accepting) return accepting;
		this.accepting = accepting;
		this.emit(accepting ? 'tipping.opened' : 'tipping.closed', {}, actor);
		return accepting;
	}

	/** Supporters by paid total (see leaderboardOf). */
	leaderboard(limit: number) {
		return leaderboardOf(this.ledger, limit);
	}
}

function filter(text: string): { text: string; filtered: boolean } {
	const out = text.replace(FILTERED, (w) => '*'.repeat(w.length));
	return { text: out, filtered: out !== text };
}
