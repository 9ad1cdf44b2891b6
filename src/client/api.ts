// The browser's only way to the upstream: the token endpoint (src/server/app.ts) on the same origin.
// POST /token mints a realtime handoff token; /api/<path> forwards the contract's allowlist with the
// upstream's status, JSON body and RateLimit-* headers. Every outcome is a value, never a throw:
// widgets decide what a 409 or a 429 means (STYLE.md, practice 7).
import { z } from 'zod/mini';
import { ApiErrorBody, describeIssues, type Route } from '../contract/index.ts';
import { retryAfterMs } from '../core/backoff.ts';
import { RateLimitedLog, type Warn } from './rate-limited-log.ts';

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
	/** 401 bad_overlay_key or overlay_key_replaced: the ?key= of the page URL no longer works. */
	| { ok: false; kind: 'unauthorized'; status: 401; error: string };

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
	/**
	 * Called when any call is refused for the page's key (a wrong key, or one the streamer replaced
	 * in hosted mode): the page stops and says so at once, not at its next connect.
	 */
	onKeyRefused: ((error: string) => void) | null = null;

	constructor(options: ApiClientOptions) {
		this.#credential = options.credential ?? { 'X-Overlay-Key': options.overlayKey ?? '' };
		this.#baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
		// Called unbound, window.fetch throws "Illegal invocation".
		this.#fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
		this.#timeoutMs = options.timeoutMs ?? 10_000;
		this.#random = options.random ?? Math.random;
		this.#log = new RateLimitedLog(options.warn);
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
		if (refused !== null) return { ok: false, kind: 'unauthorized', status: 401, error: refused };
		return res;
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
		const res = await this.send(name, route.method, '/api' + path.value + query, body);
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
	 * The token endpoint's push channel (GET /live) through `transport` (live-socket.ts: a
	 * WebSocket), with the page's credential; answered as a fetch would answer, with a body of
	 * event-stream lines for the caller to read. Only the pages that read the channel carry the
	 * transport.
	 */
	openStream(
		name: string,
		path: string,
		signal: AbortSignal,
		transport: (
			url: string,
			headers: Record<string, string>,
			signal: AbortSignal
		) => Promise<Response>
	): Promise<Response> {
		this.#calls.set(name, (this.#calls.get(name) ?? 0) + 1);
		return transport(this.#baseUrl + path, this.#credential, signal);
	}

	/**
	 * The HTTP exchange, also for the token endpoint's own calls (the dock's actions): 2xx comes
	 * back as `ok` with the raw JSON for the caller to validate.
	 */
	async send(
		name: string,
		method: string,
		path: string,
		body?: string
	): Promise<{ ok: true; status: number; body: unknown } | ApiFailure> {
		this.#calls.set(name, (this.#calls.get(name) ?? 0) + 1);
		const headers: Record<string, string> = { ...this.#credential, Accept: 'application/json' };
		if (body !== undefined) headers['Content-Type'] = 'application/json';
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
		if (refused !== null) this.onKeyRefused?.(refused);
		return failure;
	}
}

/** A 401 for the page's key, in a sentence (the server's own for a replaced key); else null. */
function keyRefusal(res: ApiFailure): string | null {
	if (res.kind !== 'http' || res.status !== 401 || !/overlay_key/.test(res.code ?? '')) return null;
	return res.code === 'bad_overlay_key'
		? 'the overlay key was refused'
		: String((res.body as { error: unknown }).error);
}

/** `/tts/:orderId/start` with each param checked by its schema, then URL-encoded. */
function fillPath(
	pattern: string,
	schemas: Record<string, z.ZodMiniType<string>> | undefined,
	params: Record<string, string>
): { ok: true; value: string } | { ok: false; error: string } {
	let error: string | null = null;
	const value = pattern.replace(/:(\w+)/g, (_, key: string) => {
		const schema = schemas?.[key];
		const parsed = schema?.safeParse(params[key]);
		if (!parsed?.success) {
			error ??= `${key}: ${parsed ? describeIssues(parsed.error) : 'no schema'}`;
			return '';
		}
		return encodeURIComponent(parsed.data);
	});
	return error === null ? { ok: true, value } : { ok: false, error };
}

function parseJson(text: string): unknown {
	if (text.trim() === '') return null;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
