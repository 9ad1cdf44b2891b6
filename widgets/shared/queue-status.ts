// What a queue widget (TTS, media) says about its connection: the status its shell shows (an error
// card for a refused key, the click-to-enable-sound card) and the debug panel's connection and call
// and claim rows. One rule for both widgets, so that they cannot disagree about when a copy asks for a click.
import type { RealtimeState } from '../../src/client/realtime.ts';
import type { ClaimState } from '../../src/core/claim-protocol.ts';

export type QueueStatus =
	'connecting' | 'ready' | 'needs-audio-unlock' | 'unauthorized' | 'failing';

/**
 * A queue widget's view before anything connects: its own idle fields (`own`), connecting, no
 * debug rows yet; with `paramErrors`, that of a page that will not connect.
 */
export function queueView<V extends object>(own: V, paramErrors: string[] | null) {
	return { ...own, status: 'connecting' as QueueStatus, debug: null, paramErrors };
}

/** The debug panel's `connection` row: `reconnecting: …`, or the state alone. */
export function connectionText(state: RealtimeState, detail: string): string {
	return detail ? `${state}: ${detail}` : state;
}

/**
 * Writes a queue widget's status and its detail (the refusal or failure in a sentence) into `view`,
 * only what changed. A copy whose sound the browser still blocks asks for a click, unless it never
 * claims (claim=never: the preview).
 */
export function showQueueStatus(
	view: { status: QueueStatus; statusDetail?: string },
	connection: RealtimeState,
	connectionDetail: string,
	soundUnlocked: boolean,
	claim: string
): void {
	const status: QueueStatus =
		connection === 'unauthorized'
			? 'unauthorized'
			: !soundUnlocked && claim !== 'never'
				? 'needs-audio-unlock'
				: connection === 'failing'
					? 'failing'
					: connection === 'open'
						? 'ready'
						: 'connecting';
	if (view.status !== status) view.status = status;
	const detail = status === 'unauthorized' || status === 'failing' ? connectionDetail : '';
	if ((view.statusDetail ?? '') !== detail) view.statusDetail = detail;
}

/** The debug panel's `calls` row: `snapshot 2, start 1, …`. */
export function callsText(calls: Record<string, number>): string {
	return Object.entries(calls)
		.map(([k, n]) => `${k} ${n}`)
		.join(', ');
}

/**
 * The debug panel's `claim` row: what this copy holds, or why it takes nothing; `notClaiming`
 * names the widget's own reasons for not being eligible.
 */
export function claimText(s: Readonly<ClaimState<unknown>>, notClaiming: string): string {
	return s.mine
		? `${s.mine.stage} ${s.mine.orderId}`
		: s.current
			? `waiting: ${s.current} is claimed elsewhere`
			: s.paused
				? 'queue paused'
				: s.eligible
					? `idle, ${s.items.length} queued`
					: notClaiming;
}
