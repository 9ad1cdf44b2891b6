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
