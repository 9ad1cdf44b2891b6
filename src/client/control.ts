// The browser's one client of the token endpoint's /control routes (docs/dock.md), for the dock and
// the settings editor: each call named as src/contract/control.ts names it, sent with the control
// credential, its answer checked with the route's schema, and one set of error texts. The
// credential is the control key of the URL (X-Control-Key) or, on the hosted dashboard, the
// signed-in session's CSRF token (X-CSRF-Token, with the session cookie).
import type { z } from 'zod/mini';
import { session, type ControlRoute } from '../contract/control.ts';
import { ApiClient, keyRefusal, refusesKey, type ApiFailure, type FetchLike } from './api.ts';

export type ControlCredential = { key: string } | { csrf: string };

/** The headers that carry the control credential (every /control call, GET /control/live too). */
export function credentialHeaders(credential: ControlCredential): Record<string, string> {
	return 'key' in credential
		? { 'X-Control-Key': credential.key }
		: { 'X-CSRF-Token': credential.csrf };
}

export type ControlResult<R extends ControlRoute> =
	{ ok: true; status: number; body: z.output<R['answer']> } | ApiFailure;
/** An answer not checked against its route's schema (the dock reads an action's itself). */
export type SendResult = { ok: true; status: number; body: unknown } | ApiFailure;

export interface CallOptions {
	/** The path's `:name` segments. */
	params?: Record<string, string>;
	query?: Record<string, string>;
	/** The JSON body; none when absent. */
	body?: unknown;
}

/** What a 2xx whose body does not match its schema is to the streamer. */
export const UNREADABLE = 'the server answered an unreadable body';

/** The server's own sentence of an error answer, else a plain one. */
export function errorText(res: ApiFailure): string {
	if (res.kind === 'malformed') return UNREADABLE;
	if (res.kind !== 'http') return res.error;
	const error = (res.body as { error?: unknown } | null)?.error;
	return typeof error === 'string' && error ? error : `the server answered ${res.status}`;
}

/**
 * A refused credential in words, or null for any other answer: a 401 (the server's own sentence,
 * or a plain one), or 429 too_many_attempts, which the token endpoint sends only to a wrong key
 * (api.ts, keyRefusal).
 */
export function refusedText(res: ApiFailure): string | null {
	if (res.kind !== 'http' || !refusesKey(res)) return null;
	if (res.status !== 401) return keyRefusal(res)?.error ?? 'the dock was refused';
	const error = (res.body as { error?: unknown } | null)?.error;
	return typeof error === 'string' && error ? error : 'the dock was refused';
}

export class ControlApi {
	/** The exchange itself (the realtime token, the push channel and /control/api reads use it). */
	readonly api: ApiClient;
	/** Called when a call is refused for the credential: nothing else will work. */
	onRefused: ((why: string) => void) | null = null;

	/** `null`: no credential yet (GET /control/session is the one call that needs none). */
	constructor(credential: ControlCredential | null, fetch?: FetchLike) {
		const headers = credential ? credentialHeaders(credential) : {};
		this.api = new ApiClient({ credential: headers, baseUrl: '/control', fetch });
	}

	/** The route's answer checked with its schema (a 2xx that does not match is `malformed`). */
	async call<R extends ControlRoute>(route: R, o: CallOptions = {}): Promise<ControlResult<R>> {
		const res = await this.send(route, o);
		if (!res.ok) return res;
		const answer = route.answer.safeParse(res.body);
		if (answer.success)
			return { ok: true, status: res.status, body: answer.data as z.output<R['answer']> };
		return { ok: false, kind: 'malformed', status: res.status, error: route.name, body: res.body };
	}

	/** The route's answer as it came. */
	async send(route: ControlRoute, o: CallOptions = {}): Promise<SendResult> {
		const path = route.path.replace(/:(\w+)/g, (_, p: string) =>
			encodeURIComponent(o.params?.[p] ?? '')
		);
		const query = o.query ? `?${new URLSearchParams(o.query)}` : '';
		const body = o.body === undefined ? undefined : JSON.stringify(o.body);
		const res = await this.api.send(route.name, route.method, path + query, body);
		if (!res.ok) this.reportRefused(res);
		return res;
	}

	/** A refused credential told to onRefused; its words, or null for any other failure. */
	reportRefused(res: ApiFailure): string | null {
		const why = refusedText(res);
		if (why !== null) this.onRefused?.(why);
		return why;
	}
}

/** Why a page without a key cannot open a session. */
export type NoSession =
	/** 401: nobody is signed in on the dashboard (in this browser). */
	| 'signed-out'
	/** 404: no dashboard here (single mode): the page needs its key. */
	| 'no-dashboard'
	| 'failed';

/**
 * GET /control/session (hosted): the signed-in dashboard's CSRF token, sent on every call of its
 * dock and editor.
 */
export async function openSession(
	fetch?: FetchLike
): Promise<{ ok: true; csrf: string } | { ok: false; why: NoSession; error: string }> {
	const res = await new ControlApi(null, fetch).call(session);
	if (res.ok) return { ok: true, csrf: res.body.csrf };
	if (res.kind === 'malformed')
		return { ok: false, why: 'failed', error: 'the server answered without a session token' };
	const status = res.kind === 'http' ? res.status : 0;
	const why = status === 401 ? 'signed-out' : status === 404 ? 'no-dashboard' : 'failed';
	return { ok: false, why, error: errorText(res) };
}
