// What the TTS and media players watch their queue for, apart from their own claims: items the
// token endpoint could not decide yet (read again until they are), the push channel's hints that
// decisions changed, and, in spectator mode (claim=never), the item another consumer plays, shown
// silently until it is done.
import type { KnownEvent, LiveMessage, TipModeration } from '../../src/contract/index.ts';
import type { ClaimRunner } from '../../src/client/claim-runner.ts';
import type { ClaimState } from '../../src/core/claim-protocol.ts';
import { backoffDelay } from '../../src/core/backoff.ts';

/** Items the token endpoint could not decide yet (`pending`) are read again on this backoff. */
const PENDING_RETRY = { baseMs: 2_000, maxMs: 30_000 };

type Moderated = { moderation?: TipModeration };

/** The token endpoint could not decide the item (its decision store or the tip out of reach). */
export const pending = (item: Moderated) => item.moderation?.outcome === 'pending';

/**
 * Whether a push channel message may change what a page shows of the queues: a decision changed,
 * the rules saved, or the channel (re)connected. Nothing else: stored settings (the page hands
 * them to applySettings: the queues are the same), nor the dock's news (a thanks posted, the
 * Activity, the chat commands), which come with every event and would cost a read each.
 */
export const touchesQueues = (m: LiveMessage) =>
	m.type === 'decision' || m.type === 'rules' || m.type === 'hello' || m.type === 'resync';

/**
 * Whether a push channel message makes a player read its queue again (touchesQueues), but not a
 * hello heard before any read began (the page's first read comes after it anyway).
 */
export function readsAgain(m: LiveMessage, readsMade: number): boolean {
	return touchesQueues(m) && (m.type !== 'hello' || readsMade > 0);
}

/**
 * An item the token endpoint could not decide waits: the queue is read again, less and less
 * often, until it is decided. Nothing runs while none waits.
 */
export class PendingReads {
	readonly #read: () => void;
	#timer: ReturnType<typeof setTimeout> | null = null;
	/** Reads made since none was pending. */
	#reads = 0;

	constructor(read: () => void) {
		this.#read = read;
	}

	/** After every change of the queue. */
	check(s: Readonly<ClaimState<Moderated>>): void {
		const waiting = s.items.some((i) => pending(i.data));
		if (!waiting) this.#reads = 0;
		if (!waiting || this.#timer) return;
		const ms = backoffDelay(this.#reads++, PENDING_RETRY);
		this.#timer = setTimeout(() => {
			this.#timer = null;
			this.#read();
		}, ms);
	}

	close(): void {
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = null;
	}
}

/** What spectator mode uses of the player. */
export interface SpectatorPort<T> {
	show(item: T): void;
	hide(orderId: string): void;
	/** The order id of the card on screen, if any. */
	shown(): string | null;
}

/**
 * Spectator mode: show the item another consumer plays, silently, until it is done. Its event
 * carries the upstream's item (never shown): the item is shown as the queue read gave it out, with
 * its decision, read again when it is not known that way yet.
 */
export class Spectator<T> {
	readonly #runner: Pick<ClaimRunner<T>, 'snapshot' | 'requestSnapshot'>;
	readonly #port: SpectatorPort<T>;
	readonly #queue: 'tts' | 'media';
	readonly #plays: (item: T) => boolean;
	/** The order another consumer started, shown once its decision is known. */
	#wanted: string | null = null;

	constructor(
		runner: Pick<ClaimRunner<T>, 'snapshot' | 'requestSnapshot'>,
		port: SpectatorPort<T>,
		queue: 'tts' | 'media',
		plays: (item: T) => boolean
	) {
		this.#runner = runner;
		this.#port = port;
		this.#queue = queue;
		this.#plays = plays;
	}

	event(e: KnownEvent): void {
		const prefix = `queue.${this.#queue}.`;
		if (!e.type.startsWith(prefix)) return;
		const verb = e.type.slice(prefix.length);
		const orderId = (e.data as { order_id?: string }).order_id ?? null;
		if (verb === 'started' && orderId !== null) {
			this.#wanted = orderId;
			this.check();
			if (this.#wanted !== null) this.#runner.requestSnapshot(0);
		} else if (['finished', 'skipped', 'removed', 'released'].includes(verb) && orderId !== null) {
			if (this.#wanted === orderId) this.#wanted = null;
			this.#port.hide(orderId);
		} else if (verb === 'cleared') {
			this.#wanted = null;
			const shown = this.#port.shown();
			if (shown !== null) this.#port.hide(shown);
		}
	}

	/** The started item, once known with a decision to play it and still claimed (after a read). */
	check(): void {
		const id = this.#wanted;
		if (id === null) return;
		const s = this.#runner.snapshot;
		if (s.current !== id) {
			this.#wanted = null;
			return;
		}
		const item = s.items.find((i) => i.orderId === id)?.data;
		if (!item || !this.#plays(item)) return;
		this.#wanted = null;
		this.#port.show(item);
	}
}
