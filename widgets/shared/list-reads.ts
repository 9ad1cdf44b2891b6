// What the list widgets share: the status from the connection and the last read, and the
// backoff of a failed read (one setTimeout, never a poll).
import type { ApiFailure } from '../../src/client/api.ts';
import type { RealtimeState } from '../../src/client/realtime.ts';
import { backoffDelay } from '../../src/core/backoff.ts';
import type { ListStatus } from '../leaderboard/view.ts';

const RETRY = { baseMs: 1000, maxMs: 30_000 };

export function listStatus(
	connection: RealtimeState,
	connectionDetail: string,
	readFailure: string | null,
	refused: boolean
): { status: ListStatus; detail: string } {
	if (connection === 'unauthorized') return { status: 'unauthorized', detail: connectionDetail };
	if (refused && readFailure) return { status: 'unauthorized', detail: readFailure };
	if (readFailure) return { status: 'failing', detail: readFailure };
	if (connection === 'failing') return { status: 'failing', detail: connectionDetail };
	return { status: connection === 'open' ? 'ready' : 'connecting', detail: '' };
}

export function describeReadFailure(what: string, res: ApiFailure): string {
	if (res.kind === 'http') {
		if (res.status === 401) return 'The server did not accept the key in this URL.';
		if (res.status === 403) return `The upstream API key may not read ${what}.`;
		return `reading ${what} failed: the server answered ${res.status}`;
	}
	if (res.kind === 'network') return `reading ${what} failed: the server could not be reached`;
	return `reading ${what} failed: ${res.error}`;
}

/** The wait before retry number `failures` (1-based), at least what a 429 asked for. */
export function retryDelay(failures: number, res: ApiFailure): number {
	return Math.max(
		backoffDelay(failures - 1, RETRY),
		res.kind === 'http' ? (res.retryAfterMs ?? 0) : 0
	);
}
