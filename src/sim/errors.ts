// The simulator's one error type; the app turns it into the documented JSON body.
import type { ErrorCode } from '../contract/index.ts';

/**
 * Codes of the simulator's own control API (/_sim), which the upstream does not have:
 * `tipping_closed` refuses a viewer's tip (a checkout) while tipping is closed.
 */
type SimOnlyCode = 'tipping_closed';

export class SimError extends Error {
	constructor(
		readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 502,
		readonly code: ErrorCode | SimOnlyCode | null,
		message: string,
		/** Extra body fields the documents name, e.g. `current_order_id` or `required_scope`. */
		readonly extra: Record<string, unknown> = {},
		/** A 429's Retry-After, in seconds. */
		readonly retryAfter?: number
	) {
		super(message);
	}

	body(): Record<string, unknown> {
		return this.code === null
			? { error: this.message, ...this.extra }
			: { error: this.message, code: this.code, ...this.extra };
	}
}

export const notFound = (what: string) => new SimError(404, 'not_found', `${what} not found`);
export const badRequest = (message: string) => new SimError(400, 'bad_request', message);
