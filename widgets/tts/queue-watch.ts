// Two things the TTS player watches the queue for, apart from its own claims: tips the token
// endpoint could not decide yet (read again until they are), and, in spectator mode (claim=never),
// the tip another consumer reads, shown silently until it is done.
import type { KnownEvent, QueueTip } from '../../src/contract/index.ts';
import type { ClaimState } from '../../src/core/claim-protocol.ts';
import { backoffDelay } from '../../src/core/backoff.ts';
import { playable } from '../../src/client/tts-queue.ts';

/** Tips the token endpoint could not decide yet (`pending`) are read again on this backoff. */
const PENDING_RETRY = { baseMs: 2_000, maxMs: 30_000 };

/** The token endpoint could not decide the tip (its decision store out of reach). */
export const pending = (tip: QueueTip) => tip.moderation?.outcome === 'pending';

/**
 * A tip the token endpoint could not decide (its decision store out of reach) waits: the queue
 * is read again, less and less often, until it is decided. Nothing runs while none waits.
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
	check(s: Readonly<ClaimState<QueueTip>>): void {
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
export interface SpectatorPort {
	snapshot(): Readonly<ClaimState<QueueTip>>;
	readAgain(): void;
	show(tip: QueueTip): void;
	hide(orderId: string): void;
	/** The order id of the card on screen, if any. */
	shown(): string | null;
}

/**
 * Spectator mode: show the tip another consumer reads, silently, until it is done. Its event
 * carries the upstream's tip (never shown): the tip is shown as the queue read gave it out, with
 * its decision, read again when it is not known that way yet.
 */
export class Spectator {
	readonly #port: SpectatorPort;
	/** The order another consumer started, shown once its decision is known. */
	#wanted: string | null = null;

	constructor(port: SpectatorPort) {
		this.#port = port;
	}

	event(e: KnownEvent): void {
		if (e.type === 'queue.tts.started') {
			this.#wanted = e.data.order_id;
			this.check();
			if (this.#wanted !== null) this.#port.readAgain();
		} else if (
			e.type === 'queue.tts.finished' ||
			e.type === 'queue.tts.skipped' ||
			e.type === 'queue.tts.removed' ||
			e.type === 'queue.tts.released'
		) {
			if (this.#wanted === e.data.order_id) this.#wanted = null;
			this.#port.hide(e.data.order_id);
		} else if (e.type === 'queue.tts.cleared') {
			this.#wanted = null;
			const shown = this.#port.shown();
			if (shown !== null) this.#port.hide(shown);
		}
	}

	/** The started tip, once known with a decision to play it and still claimed (after a read). */
	check(): void {
		const id = this.#wanted;
		if (id === null) return;
		const s = this.#port.snapshot();
		if (s.current !== id) {
			this.#wanted = null;
			return;
		}
		const tip = s.items.find((i) => i.orderId === id)?.data;
		if (!tip || !playable(tip)) return;
		this.#wanted = null;
		this.#port.show(tip);
	}
}
