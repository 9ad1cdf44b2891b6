// The browser's only way to the upstream: the token endpoint (src/server/app.ts) on the same origin.
// POST /token mints a realtime handoff token; /api/<path> forwards the contract's allowlist with the
// upstream's status, JSON body and RateLimit-* headers. Every outcome is a value, never a throw:
// widgets decide what a 409 or a 429 means (STYLE.md, practice 7).
import { z } from 'zod/mini';
import { ApiErrorBody, describeIssues, type Route } from '../contract/index.ts';
import { fillPath } from '../contract/route-table.ts';
import { retryAfterMs } from '../core/backoff.ts';
import { RateLimitedLog, type Warn } from './rate-limited-log.ts';

/**
 * How long after an event its id goes with the page's reads (ApiClient.sawEvent): well past the
 * moment the token endpoint's own socket has it too, and well inside the few dozen last events its
 * view remembers (src/core/view/live-view.ts), so a read never waits for one it has forgotten.
 */
export const SEEN_EVENT_MS = 10_000;
/** The most event ids a read names (the latest): events come in any order, so not only the last. */
export const SEEN_EVENTS_MAX = 8;

/**
 * POST /token 200 body, parsed leniently (the server emits it strictly). Built for each answer
 * (once a connect) and garbage after it, rather than held for the page's life.
 */
const mintedToken = () =>
	z.looseObject({
		token: z.string().check(z.minLength(1)),
		// A URL that `new WebSocket` would reject must not get that far (it throws synchronously).
		ws_url: z.url({ protocol: /^wss?$/, error: 'expected a ws:// or wss:// URL' }),
		expires_at: z.string()
	});
export type MintedToken = z.infer<ReturnType<typeof mintedToken>>;

/** A route of the contract that the token endpoint forwards (`proxied: true`). */
export type ProxiedRoute = Route & { proxied: true };

/** `{ orderId: string }` for `/tts/:orderId/start`; `{}` for a route without params. */
export type RouteParams<R extends Route> = R extends { params: infer P }
	? { [K in keyof P]: string }
	: Record<string, never>;

/** The 2xx body of a route, as its response schema parses it. */
export type RouteBody<R extends Route> = z.output<R['response']>;

export interface RequestOptions {
	/** A JSON body, for routes with a request schema (checked against it before sending). */
	body?: unknown;
	/** Query parameters, for routes with a query schema (the token endpoint forwards only those). */
	query?: Record<string, string | number>;
	/** Sends a read ticket, if one is at hand: a queue read needed to claim goes first. */
	ticket?: boolean;
}

type RequestArgs<R extends Route> = R extends { params: object }
	? [params: RouteParams<R>, options?: RequestOptions]
	: [params?: RouteParams<R>, options?: RequestOptions];

export type ApiFailure =
	/** A non-2xx answer. `code` is the body's machine code; 429 carries the wait. */
	| {
			ok: false;
			kind: 'http';
			status: number;
			code?: string;
			body: unknown;
			retryAfterMs?: number;
	  }
	/** A 2xx whose body does not match the contract: logged once per route, never used. */
	| { ok: false; kind: 'malformed'; status: number; error: string; body: unknown }
	/** No answer: offline, refused, timed out. */
	| { ok: false; kind: 'network'; error: string }
	/** Refused before sending: a param or body the contract does not allow. */
	| { ok: false; kind: 'invalid'; error: string };

export type ApiResult<T> = { ok: true; status: number; body: T } | ApiFailure;

export type TokenResult =
	| ApiResult<MintedToken>
	/**
	 * The page's key was refused (keyRefusal): 401 bad_overlay_key, *_key_replaced, or 429
	 * too_many_attempts. No retry of the call helps.
	 */
	| { ok: false; kind: 'unauthorized'; status: 401 | 429; error: string };

/** The page's key refused, in a sentence; `final` when no retry can ever help (a replaced key). */
export interface KeyRefusal {
	error: string;
	final: boolean;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ApiClientOptions {
	/** The ?key= of the page URL, sent as X-Overlay-Key. */
	overlayKey?: string;
	/**
	 * The page's credential as headers, instead of X-Overlay-Key: the dock's X-Control-Key, or the
	 * signed-in dashboard's X-CSRF-Token (its session cookie goes along: fetch's default
	 * `credentials: 'same-origin'`).
	 */
	credential?: Record<string, string>;
	/** Origin of the token endpoint; '' (default) is the page's own origin; the dock's '/control'. */
	baseUrl?: string;
	fetch?: FetchLike;
	/** Per call; no AbortSignal.timeout (Chrome 103 predates it), a timer instead. */
	timeoutMs?: number;
	warn?: Warn;
	random?: () => number;
}

export interface ApiStats {
	total: number;
	/** Calls per route name, and `token` for POST /token. */
	byRoute: Record<string, number>;
}

export class ApiClient {
	readonly #credential: Record<string, string>;
	readonly #baseUrl: string;
	readonly #fetchImpl: FetchLike;
	readonly #timeoutMs: number;
	readonly #random: () => number;
	readonly #log: RateLimitedLog;
	readonly #calls = new Map<string, number>();
	/** Consecutive 429s per route: the exponent of the wait when no header says how long. */
	readonly #limited = new Map<string, number>();
	readonly #refusedListeners = new Set<(refusal: KeyRefusal) => void>();
	/** The latest read tickets the token endpoint handed out (X-Read-Ticket), each sent once. */
	#tickets: string[] = [];
	/** The last events the page's realtime socket brought, and when (sawEvent), oldest first. */
	#lastEvents: { id: string; at: number }[] = [];

	constructor(options: ApiClientOptions) {
		this.#credential = options.credential ?? { 'X-Overlay-Key': options.overlayKey ?? '' };
		this.#baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
		// Called unbound, window.fetch throws "Illegal invocation".
		this.#fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
		this.#timeoutMs = options.timeoutMs ?? 10_000;
		this.#random = options.random ?? Math.random;
		this.#log = new RateLimitedLog(options.warn);
	}

	/**
	 * `listener` hears every call refused for the page's key (a wrong key, or one the streamer
	 * replaced in hosted mode): the page stops and says so at once, not at its next connect.
	 * Returns the function that removes it.
	 */
	onKeyRefused(listener: (refusal: KeyRefusal) => void): () => void {
		this.#refusedListeners.add(listener);
		return () => void this.#refusedListeners.delete(listener);
	}

	/** Tells the listeners the key was refused (the client's own calls, or the push channel's). */
	reportKeyRefused(refusal: KeyRefusal): void {
		for (const listener of [...this.#refusedListeners]) listener(refusal);
	}

	get stats(): ApiStats {
		let total = 0;
		for (const n of this.#calls.values()) total += n;
		return { total, byRoute: Object.fromEntries(this.#calls) };
	}

	/** POST /token: a fresh single-use handoff token and the ws_url to use it on. */
	async mintToken(): Promise<TokenResult> {
		const res = await this.send('token', 'POST', '/token');
		if (res.ok) return this.#parseBody('token', res.status, res.body, mintedToken());
		// A wrong key, or (hosted mode) one the streamer replaced (the server says so): no retry helps.
		const refused = keyRefusal(res);
		if (refused === null || res.kind !== 'http') return res;
		const status = res.status === 429 ? 429 : 401;
		return { ok: false, kind: 'unauthorized', status, error: refused.error };
	}

	/**
	 * One forwarded call through /api/<path>, of a route of the contract imported by name
	 * (`import { ttsQueue } from '.../contract/routes.ts'`), so a page carries only its routes.
	 */
	async request<R extends ProxiedRoute>(
		route: R,
		...[params, options]: RequestArgs<R>
	): Promise<ApiResult<RouteBody<R>>> {
		const name = route.name;
		if (!route.proxied)
			return {
				ok: false,
				kind: 'invalid',
				error: `${name} is not forwarded by the token endpoint`
			};
		const path = fillPath(route.path, route.params, (params ?? {}) as Record<string, string>);
		if (!path.ok) return { ok: false, kind: 'invalid', error: `${name}: ${path.error}` };
		let body: string | undefined;
		if (route.request) {
			const parsed = route.request.safeParse(options?.body ?? {});
			if (!parsed.success)
				return { ok: false, kind: 'invalid', error: `${name}: ${describeIssues(parsed.error)}` };
			body = JSON.stringify(parsed.data);
		}
		const query =
			route.query && options?.query
				? '?' + new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, String(v)]))
				: '';
		const res = await this.send(
			name,
			route.method,
			'/api' + path.value + query,
			body,
			options?.ticket
		);
		if (!res.ok) return res;
		return this.#parseBody(name, res.status, res.body, route.response) as ApiResult<RouteBody<R>>;
	}

	#parseBody<T>(
		name: string,
		status: number,
		body: unknown,
		schema: z.ZodMiniType<T>
	): ApiResult<T> {
		const parsed = schema.safeParse(body);
		if (parsed.success) return { ok: true, status, body: parsed.data };
		const error = describeIssues(parsed.error);
		this.#log.warn(
			`malformed:${name}`,
			`[api] ${name}: ignoring a malformed ${status} body: ${error}`
		);
		return { ok: false, kind: 'malformed', status, error, body };
	}

	/**
	 * The page's realtime socket brought event `id` (realtime.ts): for SEEN_EVENT_MS, every read
	 * names it (X-Seen-Event, with the others of the last SEEN_EVENTS_MAX), so that an answer the
	 * token endpoint gives from its own view of the stream holds it
	 * (src/server/intake/page-reads.ts): a re-read the event asked for never comes back without it.
	 */
	sawEvent(id: string): void {
		this.#lastEvents.push({ id, at: Date.now() });
		if (this.#lastEvents.length > SEEN_EVENTS_MAX) this.#lastEvents.shift();
	}

	/**
	 * Where the token endpoint's push channel (`path`: /live) is for this client, and the
	 * credential headers its socket's first frame carries (live.ts); counted as a call `live`.
	 */
	liveTarget(path: string): { url: string; headers: Record<string, string> } {
		this.#calls.set('live', (this.#calls.get('live') ?? 0) + 1);
		return { url: this.#baseUrl + path, headers: { ...this.#credential } };
	}

	/**
	 * The HTTP exchange, also for the token endpoint's own calls (the dock's actions): 2xx comes
	 * back as `ok` with the raw JSON for the caller to validate.
	 */
	async send(
		name: string,
		method: string,
		path: string,
		body?: string,
		ticket?: boolean
	): Promise<{ ok: true; status: number; body: unknown } | ApiFailure> {
		this.#calls.set(name, (this.#calls.get(name) ?? 0) + 1);
		const headers: Record<string, string> = { ...this.#credential, Accept: 'application/json' };
		if (body !== undefined) headers['Content-Type'] = 'application/json';
		const t = ticket && this.#tickets.shift();
		if (t) headers['X-Read-Ticket'] = t;
		const since = Date.now() - SEEN_EVENT_MS;
		const seen = method === 'GET' ? this.#lastEvents.filter((e) => e.at > since) : [];
		if (seen.length) headers['X-Seen-Event'] = seen.map((e) => e.id).join(',');
		const abort = new AbortController();
		const timer = setTimeout(() => abort.abort(), this.#timeoutMs);
		let res: Response;
		let text: string;
		try {
			res = await this.#fetchImpl(this.#baseUrl + path, {
				method,
				headers,
				body,
				cache: 'no-store',
				signal: abort.signal
			});
			text = await res.text();
			const got = res.headers.get('X-Read-Ticket');
			if (got) this.#tickets = [...got.split(','), ...this.#tickets].slice(0, 4);
		} catch (err) {
			const error = abort.signal.aborted
				? `no answer within ${this.#timeoutMs} ms`
				: err instanceof Error
					? err.message
					: String(err);
			return { ok: false, kind: 'network', error };
		} finally {
			clearTimeout(timer);
		}
		const json = parseJson(text);
		if (res.status >= 200 && res.status < 300) {
			this.#limited.delete(name);
			return { ok: true, status: res.status, body: json };
		}
		const code = ApiErrorBody.safeParse(json).data?.code;
		const failure: ApiFailure = { ok: false, kind: 'http', status: res.status, body: json };
		if (code !== undefined) failure.code = code;
		if (res.status === 429) {
			const attempt = this.#limited.get(name) ?? 0;
			this.#limited.set(name, attempt + 1);
			failure.retryAfterMs = retryAfterMs(res.headers, attempt, this.#random);
		} else this.#limited.delete(name);
		const refused = keyRefusal(failure);
		if (refused !== null) this.reportKeyRefused(refused);
		return failure;
	}
}

/** The 401 codes of a refused key; `*_key_replaced` (hosted) is final. */
const REFUSED_KEY = /^(bad_overlay_key|bad_control_key|overlay_key_replaced|control_key_replaced)$/;

/**
 * The page's key refused, or null for any other answer: a 401 for the key, or the token endpoint's
 * 429 too_many_attempts, which it sends only to a wrong key (so it is a refusal too, never a wait;
 * 429 too_many_reads is a read limit for a good key and is not). The server's own sentence for a
 * replaced key and a control key; a plain one for the others.
 */
export function keyRefusal(res: ApiFailure): KeyRefusal | null {
	if (res.kind !== 'http') return null;
	const code = res.code ?? '';
	if (res.status === 429 && code === 'too_many_attempts')
		return { error: 'the key was refused (too many wrong keys from this address)', final: false };
	if (res.status !== 401 || !REFUSED_KEY.test(code)) return null;
	const final = code.endsWith('_key_replaced');
	if (code === 'bad_overlay_key') return { error: 'the overlay key was refused', final };
	const said = (res.body as { error?: unknown } | null)?.error;
	return { error: typeof said === 'string' && said ? said : 'the key was refused', final };
}

/** A key refusal (keyRefusal), or any other 401: no retry of the call helps. */
export function refusesKey(res: ApiFailure): boolean {
	return (res.kind === 'http' && res.status === 401) || keyRefusal(res) !== null;
}

function parseJson(text: string): unknown {
	if (text.trim() === '') return null;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
