// A finish's thanks bookkeeping that the chat store did not take (it failed, or did not answer in
// the pool's time while the database was away): tried again with growing waits until the store
// takes it, or until its thanks would come too late (THANKS_GIVE_UP_MS after the finish). So a
// store away for a while costs no thanks; only a process that stops meanwhile loses what it held.
import { backoffDelay } from '../../core/backoff.ts';
import { THANKS_GIVE_UP_MS } from './ledger.ts';

export class SettleLater {
	readonly #timers = new Set<ReturnType<typeof setTimeout>>();
	#closed = false;

	constructor(private readonly now: () => number) {}

	/**
	 * Runs `work(attempt + 1)` after a wait that grows with `attempt` (1 s, doubling, at most 30 s);
	 * false when that would be past `since + THANKS_GIVE_UP_MS`, or once closed: given up.
	 */
	again(since: number, attempt: number, work: (attempt: number) => void): boolean {
		if (this.#closed) return false;
		const wait = backoffDelay(attempt, { baseMs: 1000, maxMs: 30_000 });
		if (this.now() + wait > since + THANKS_GIVE_UP_MS) return false;
		const timer = setTimeout(() => {
			this.#timers.delete(timer);
			work(attempt + 1);
		}, wait);
		timer.unref?.();
		this.#timers.add(timer);
		return true;
	}

	close(): void {
		this.#closed = true;
		for (const timer of this.#timers) clearTimeout(timer);
		this.#timers.clear();
	}
}
