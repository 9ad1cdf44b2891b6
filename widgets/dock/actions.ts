// The dock's actions (POST /control/actions/:action, docs/dock.md) and what their answers mean to
// the streamer: done, already (pressed twice, or another dock did it), refused with the server's
// reason, or the upstream unreachable (try again). Pure: the dock's state shows the outcome next
// to the button and re-reads what the answer leaves uncertain.
import { keyRefusal, refusesKey, type ApiFailure } from '../../src/client/api.ts';
import type { Snapshot } from './dock-model.ts';

export type ActionName =
	| 'tts-skip'
	| 'tts-pause'
	| 'tts-resume'
	| 'tts-remove'
	| 'tts-replay'
	| 'media-skip'
	| 'media-pause'
	| 'media-resume'
	| 'media-remove'
	| 'media-replay'
	| 'media-show'
	| 'media-hide'
	| 'tipping-open'
	| 'tipping-close';

/** The snapshot an action changes: its events are awaited, else it is read again. */
export function actionSnapshot(action: ActionName): Snapshot {
	if (action.startsWith('tts-')) return 'tts';
	return action.startsWith('media-') ? 'media' : 'tipping';
}

export type OutcomeKind = 'done' | 'already' | 'refused' | 'unreachable' | 'unauthorized';

export interface Outcome {
	kind: OutcomeKind;
	/** What the streamer reads next to the button. */
	text: string;
	/** The answer leaves the state uncertain (unknown, or the dock's view was stale): re-read. */
	reread: boolean;
}

/** What ApiClient.send answers. */
export type SendResult = { ok: true; status: number; body: unknown } | ApiFailure;

export const UNREACHABLE = 'could not reach the upstream: try again';

function field(body: unknown, name: string): string | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const value = (body as Record<string, unknown>)[name];
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A refusal in words: the server's own message, else its code. */
function refusal(res: Extract<ApiFailure, { kind: 'http' }>): string {
	if (res.code === 'missing_scope') {
		const scope = field(res.body, 'required_scope');
		return `not allowed: the connection lacks the ${scope ?? 'needed'} scope`;
	}
	return field(res.body, 'error') ?? res.code ?? `refused (${res.status})`;
}

/** The outcome of one action's answer. */
export function actionOutcome(res: SendResult): Outcome {
	if (res.ok) {
		const outcome = field(res.body, 'outcome');
		const message = field(res.body, 'message');
		if (outcome === 'already')
			return { kind: 'already', text: message ?? 'already done', reread: false };
		// A 2xx the dock cannot read: done, as far as it can tell; the snapshot says for sure.
		return { kind: 'done', text: message ?? 'done', reread: outcome !== 'done' };
	}
	switch (res.kind) {
		case 'network':
			return { kind: 'unreachable', text: 'no answer from the server: try again', reread: true };
		case 'invalid':
		case 'malformed':
			return { kind: 'refused', text: res.error, reread: false };
	}
	// 429 too_many_attempts refuses the credential too (api.ts, keyRefusal): never a wait.
	if (refusesKey(res)) {
		const text = res.status === 401 ? field(res.body, 'error') : keyRefusal(res)?.error;
		return { kind: 'unauthorized', text: text ?? 'refused', reread: false };
	}
	if (res.status === 429) {
		const s = Math.ceil((res.retryAfterMs ?? 0) / 1000);
		const wait = s > 0 ? `try again in ${s} s` : 'try again';
		return { kind: 'unreachable', text: `too many calls to the upstream: ${wait}`, reread: false };
	}
	// 502/503 (the upstream is unreachable, or its answer unknown), or any other server error.
	if (res.status >= 500) return { kind: 'unreachable', text: UNREACHABLE, reread: true };
	// 409 and 404 say the dock's view may be stale (not playing, gone); 400 and 403 do not.
	return { kind: 'refused', text: refusal(res), reread: res.status === 409 || res.status === 404 };
}

/** Why a read failed, in words (the dock's read problem line). */
export function readFailure(r: ApiFailure): string {
	switch (r.kind) {
		case 'http':
			if (r.status === 403) return 'not allowed for this connection';
			return r.status >= 500 ? 'the upstream could not be reached' : `answered ${r.status}`;
		case 'network':
			return 'no answer from the server';
		default:
			return r.error;
	}
}
