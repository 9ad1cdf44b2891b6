// The short deadline of a store on an alert's path (docs/reliability.md): a page's start or finish
// never waits on a store (moderation decisions, the thanks ledger, an overlay key's row) longer than
// STORE_DEADLINE_MS. Past it the alert goes on, and the store's work settles afterwards.

/** The longest a start or finish waits on a store. */
export const STORE_DEADLINE_MS = 250;

/** What a wait with a deadline found: the promise's value, or that it was not there in time. */
export type InTime<T> = { done: true; value: T } | { done: false };

/**
 * Waits for `work` at most `ms`. A rejection within the deadline is thrown; one after it is left
 * to whoever else holds `work` (it is marked handled here, so it never goes unhandled).
 */
export function withinDeadline<T>(work: Promise<T>, ms = STORE_DEADLINE_MS): Promise<InTime<T>> {
	work.catch(() => {});
	let timer: ReturnType<typeof setTimeout> | undefined;
	const late = new Promise<InTime<T>>((resolve) => {
		timer = setTimeout(() => resolve({ done: false }), ms);
	});
	return Promise.race([work.then((value): InTime<T> => ({ done: true, value })), late]).finally(
		() => clearTimeout(timer)
	);
}

/**
 * After a call missed its deadline, later calls do not wait at all for this long (or until every
 * late call has settled); then one waits the deadline again, a probe of whether the store is back.
 */
const AWAY_MS = 5_000;

/**
 * A store's deadline with memory: once a call of the store has missed its deadline and not
 * settled yet (the store is away), later calls do not wait at all, for AWAY_MS at most; so a
 * page's few calls of one alert do not each wait the deadline while the store does not answer.
 * A call answered at once (a store in memory) is still in time.
 */
export class StoreDeadline {
	#late = 0;
	#lateAt = -Infinity;

	constructor(private readonly ms = STORE_DEADLINE_MS) {}

	/** Whether a call missed its deadline lately and has not settled yet. */
	get away(): boolean {
		return this.#late > 0 && performance.now() - this.#lateAt < AWAY_MS;
	}

	async wait<T>(work: Promise<T>): Promise<InTime<T>> {
		const away = this.away;
		const inTime = await withinDeadline(work, away ? 0 : this.ms);
		if (!inTime.done) {
			if (!away) this.#lateAt = performance.now();
			this.#late += 1;
			void work.then(
				() => (this.#late -= 1),
				() => (this.#late -= 1)
			);
		}
		return inTime;
	}
}
