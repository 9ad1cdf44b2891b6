// The dock's way to the token endpoint's /control routes (docs/dock.md): the page's ApiClient with
// the control credential instead of the overlay key, and /control in front of every path, so that
// /control/token mints the realtime handoff token and /control/api/<path> forwards the dock's
// reads. The credential is the control key of the URL (X-Control-Key) or, on the hosted
// dashboard, the signed-in session's CSRF token (X-CSRF-Token, with the session cookie).
import {
	ApiClient,
	keyRefusal,
	refusesKey,
	type ApiFailure,
	type FetchLike,
	type TokenResult
} from '../../src/client/api.ts';
import { StoredRules, type ModerationRules } from '../../src/contract/moderation.ts';
import * as routes from '../../src/contract/routes.ts';
import { HISTORY_LIMIT, type Snapshot, type SnapshotBody } from './dock-model.ts';
import type { ActionName, SendResult } from './actions.ts';

export type DockCredential = { key: string } | { csrf: string };

export type ReadResult = { ok: true; read: SnapshotBody } | ApiFailure;
export type RulesResult = { ok: true; stored: StoredRules } | ApiFailure;
export type MessageResult = { ok: true; message: string | null } | ApiFailure;

/** The control key's format (docs/dock.md: like the overlay key). */
export const CONTROL_KEY = /^[A-Za-z0-9_-]{16,128}$/;

/** The headers that carry the dock's credential (every /control call, GET /control/live too). */
export function credentialHeaders(credential: DockCredential): Record<string, string> {
	return 'key' in credential
		? { 'X-Control-Key': credential.key }
		: { 'X-CSRF-Token': credential.csrf };
}

/**
 * A refused credential in words: a 401 (the server's own sentence, or a plain one), or 429
 * too_many_attempts, which the token endpoint sends only to a wrong key (api.ts, keyRefusal).
 */
function refusedText(res: ApiFailure): string | null {
	if (res.kind !== 'http' || !refusesKey(res)) return null;
	if (res.status !== 401) return keyRefusal(res)?.error ?? 'the dock was refused';
	const error = (res.body as { error?: unknown } | null)?.error;
	return typeof error === 'string' && error ? error : 'the dock was refused';
}

export class ControlClient {
	readonly api: ApiClient;
	/** Called when a call is refused for the dock's credential (401): nothing else will work. */
	onRefused: ((why: string) => void) | null = null;

	constructor(credential: DockCredential, fetch?: FetchLike) {
		this.api = new ApiClient({
			credential: credentialHeaders(credential),
			baseUrl: '/control',
			fetch
		});
	}

	/** POST /control/token; a refused credential stops the realtime connection (no retry helps). */
	readonly mintToken = async (): Promise<TokenResult> => {
		const res = await this.api.mintToken();
		if (res.ok) return res;
		if (res.kind === 'unauthorized') {
			this.onRefused?.(res.error);
			return res;
		}
		const why = this.#refused(res);
		return why === null ? res : { ok: false, kind: 'unauthorized', status: 401, error: why };
	};

	/** One snapshot through GET /control/api/<path>. */
	async read(snapshot: Snapshot): Promise<ReadResult> {
		const query = { query: { limit: HISTORY_LIMIT } };
		const res = await this.#request(snapshot, query);
		if (!res.ok) this.#refused(res);
		return res;
	}

	async #request(snapshot: Snapshot, query: { query: { limit: number } }): Promise<ReadResult> {
		const api = this.api;
		switch (snapshot) {
			case 'tts': {
				const r = await api.request(routes.ttsQueue);
				return r.ok ? { ok: true, read: { snapshot, body: r.body } } : r;
			}
			case 'media': {
				const r = await api.request(routes.mediaQueue);
				return r.ok ? { ok: true, read: { snapshot, body: r.body } } : r;
			}
			case 'ttsHistory': {
				const r = await api.request(routes.ttsHistory, {}, query);
				return r.ok ? { ok: true, read: { snapshot, body: r.body } } : r;
			}
			case 'mediaHistory': {
				const r = await api.request(routes.mediaHistory, {}, query);
				return r.ok ? { ok: true, read: { snapshot, body: r.body } } : r;
			}
			case 'tipping': {
				// The overlay key's /api does not forward /tipping (its route is not `proxied`); the
				// control routes do, so the dock sends it itself and checks the body the same way.
				const r = await api.send('tipping', 'GET', '/api/tipping');
				if (!r.ok) return r;
				const body = routes.tipping.response.safeParse(r.body);
				if (body.success) return { ok: true, read: { snapshot, body: body.data } };
				return { ok: false, kind: 'malformed', status: r.status, error: 'tipping', body: r.body };
			}
		}
	}

	/** POST /control/actions/:action, with `{ order_id }` for the actions on one order. */
	async act(action: ActionName, orderId?: string): Promise<SendResult> {
		const body = JSON.stringify(orderId === undefined ? {} : { order_id: orderId });
		const res = await this.api.send(action, 'POST', `/actions/${action}`, body);
		if (!res.ok) this.#refused(res);
		return res;
	}

	/** GET /control/moderation: the streamer's rules and their version. */
	async rules(): Promise<RulesResult> {
		return this.#rulesAnswer(await this.api.send('moderation', 'GET', '/moderation'));
	}

	/** PUT /control/moderation: saved, with the new version; 400 `bad_rules` names the field. */
	async saveRules(rules: ModerationRules): Promise<RulesResult> {
		const body = JSON.stringify(rules);
		return this.#rulesAnswer(await this.api.send('moderation', 'PUT', '/moderation', body));
	}

	#rulesAnswer(res: SendResult): RulesResult {
		if (!res.ok) {
			this.#refused(res);
			return res;
		}
		const stored = StoredRules.safeParse(res.body);
		if (stored.success) return { ok: true, stored: stored.data };
		return { ok: false, kind: 'malformed', status: res.status, error: 'rules', body: res.body };
	}

	/**
	 * POST /control/moderation/approve or /reject a held tip, or a held video (`queue` media: a
	 * video has its tip's order id, so the queue tells them apart): `{ outcome, decision }`.
	 */
	async settle(
		verdict: 'approve' | 'reject',
		orderId: string,
		queue: 'tts' | 'media' = 'tts'
	): Promise<SendResult> {
		const body = JSON.stringify(
			queue === 'media' ? { order_id: orderId, queue } : { order_id: orderId }
		);
		const res = await this.api.send(verdict, 'POST', `/moderation/${verdict}`, body);
		if (!res.ok) this.#refused(res);
		return res;
	}

	/** GET /control/moderation/message: a held tip's message as the viewer wrote it (Reveal). */
	async message(orderId: string): Promise<MessageResult> {
		const query = new URLSearchParams({ order_id: orderId });
		const res = await this.api.send('message', 'GET', `/moderation/message?${query}`);
		if (!res.ok) {
			this.#refused(res);
			return res;
		}
		const message = (res.body as { message?: unknown } | null)?.message;
		if (typeof message === 'string' || message === null) return { ok: true, message };
		return { ok: false, kind: 'malformed', status: res.status, error: 'message', body: res.body };
	}

	/** POST /control/new-key (single mode): the new key; the old one has stopped. */
	async newKey(): Promise<{ ok: true; key: string } | { ok: false; error: string }> {
		const res = await this.api.send('new-key', 'POST', '/new-key');
		if (!res.ok) {
			this.#refused(res);
			const error = res.kind === 'http' ? `the server answered ${res.status}` : res.error;
			return { ok: false, error };
		}
		const key = (res.body as { key?: unknown } | null)?.key;
		if (typeof key === 'string' && CONTROL_KEY.test(key)) return { ok: true, key };
		return { ok: false, error: 'the server answered without a new key' };
	}

	#refused(res: ApiFailure): string | null {
		const why = refusedText(res);
		if (why !== null) this.onRefused?.(why);
		return why;
	}
}

/** Why a dock without a key cannot open a session. */
export type NoSession =
	/** 401: nobody is signed in on the dashboard (in this browser). */
	| 'signed-out'
	/** 404: no dashboard here (single mode): the dock needs its key. */
	| 'no-dashboard'
	| 'failed';

/**
 * GET /control/session (hosted): the signed-in dashboard's CSRF token, sent on every call of its
 * dock.
 */
export async function openSession(
	fetch?: FetchLike
): Promise<{ ok: true; csrf: string } | { ok: false; why: NoSession; error: string }> {
	const api = new ApiClient({ credential: {}, baseUrl: '/control', fetch });
	const res = await api.send('session', 'GET', '/session');
	if (!res.ok) {
		const status = res.kind === 'http' ? res.status : 0;
		const why = status === 401 ? 'signed-out' : status === 404 ? 'no-dashboard' : 'failed';
		const error = res.kind === 'http' ? `the server answered ${res.status}` : res.error;
		return { ok: false, why, error };
	}
	const csrf = (res.body as { csrf?: unknown } | null)?.csrf;
	if (typeof csrf === 'string' && csrf) return { ok: true, csrf };
	return { ok: false, why: 'failed', error: 'the server answered without a session token' };
}
