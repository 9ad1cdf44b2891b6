// The simulator's one error type; the app turns it into the documented JSON body.
import type { ErrorCode } from '../contract/index.ts';

export class SimError extends Error {
	constructor(
		readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 502,
		readonly code: ErrorCode | null,
		message: string,
		/** Extra body fields the documents name, e.g. `current_order_id` or `required_scope`. */
		readonly extra: Record<string, unknown> = {}
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
