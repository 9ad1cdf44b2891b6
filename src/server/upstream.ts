// The one place that talks to the upstream with a credential: the API key, or the OAuth access token
// when the streamer connected with OAuth (oauth-client.ts), which wins while the connection lives.
// Identical reads of one client share upstream calls (read-flights.ts).
import http from 'node:http';
import https from 'node:https';
import { finished } from 'node:stream';
import type { CallPriority } from '../core/rate-budget.ts';
import type { Upstream } from './config.ts';
import { ReadFlights } from './read-flights.ts';

/**
 * A call with no answer. `notSent`: it provably never reached the upstream (the connection was
 * refused, the name did not resolve, no credential to send); otherwise (a timeout, a reset, a body
 * cut off) the upstream may have done what it asked.
 */
export class UpstreamUnavailable extends Error {
	constructor(
		message: string,
		readonly notSent = false
	) {
		super(message);
	}
}

/** Errors of a connection never made: the request cannot have reached the upstream. */
const NEVER_CONNECTED = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH'
]);

/** Whether a transport's failure happened before a connection was made (fetch puts it in `cause`). */
function neverSent(err: unknown): boolean {
	for (let e = err, depth = 0; e instanceof Error && depth < 3; depth++) {
		const code = (e as NodeJS.ErrnoException).code;
		if (code !== undefined && NEVER_CONNECTED.has(code)) return true;
		e = (e as { cause?: unknown }).cause;
	}
	return false;
}

/** Retries of one call after 401 invalid_token, each after a (shared) refresh. */
const MAX_TOKEN_RETRIES = 2;

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface CallOptions {
	/**
	 * What the call waits for in a budget (upstream-budget.ts): absent, what its method and path
	 * make it. A read a page needs in order to claim goes as `'claim'` (read-tickets.ts).
	 */
	priority?: CallPriority;
}

/** Reads sent as claims share calls among themselves only, never one held as a read. */
const PRIORITY_FLIGHT = 'claim ';

/** The OAuth connection as the upstream client sees it (OAuthConnection implements it). */
export interface BearerSource {
	credential(): Promise<{ token: string } | { problem: { code: string; message: string } }>;
	/** The upstream answered 401 invalid_token to `token`: a fresh one (one refresh, shared). */
	rejected(
		token: string
	): Promise<{ token: string } | { problem: { code: string; message: string } }>;
}

export class UpstreamClient {
	private readonly reads = new ReadFlights(copiesOf);

	constructor(
		private readonly upstream: () => Upstream,
		private readonly fetchImpl: Fetch = fetch,
		private readonly timeoutMs = 10_000,
		private readonly oauth: BearerSource | null = null
	) {}

	get wsUrl(): string {
		return this.upstream().wsUrl;
	}

	/**
	 * What a realtime connection of the server's own authenticates with (`data.apiKey`,
	 * docs/upstream.md): the OAuth access token while connected, else the API key; null: neither.
	 * `rejected`: the socket refused this one (close 4401), so a fresh one (one refresh, shared).
	 */
	async realtimeCredential(rejected?: string): Promise<string | null> {
		const { apiKey } = this.upstream();
		if (this.oauth) {
			const c = rejected ? await this.oauth.rejected(rejected) : await this.oauth.credential();
			if ('token' in c) return c.token;
		}
		return apiKey || null;
	}

	/**
	 * `path` is relative to {base_url} and already validated against the allowlist. A GET shares
	 * the call of an identical one not sent yet, or the next one after the call in flight (of
	 * its own priority: a read sent as a claim never waits behind one held as a read).
	 */
	call(method: string, path: string, body?: string, o: CallOptions = {}): Promise<Response> {
		const { priority } = o;
		if (method !== 'GET' || body !== undefined)
			return this.send(method, path, body, () => {}, priority);
		const key = priority === 'claim' ? PRIORITY_FLIGHT + path : path;
		return this.reads.read(key, (sent) => this.send(method, path, body, sent, priority));
	}

	/**
	 * One call to the upstream; `sent` is called as the request leaves (a read that comes later
	 * than that must not take its answer: it may miss what happened in between). `_priority`: for
	 * the budgets (upstream-budget.ts); this client sends every call alike.
	 */
	protected async send(
		method: string,
		path: string,
		body: string | undefined,
		sent: () => void,
		_priority?: CallPriority
	): Promise<Response> {
		const { baseUrl, apiKey } = this.upstream();
		const send = async (bearer: string) => {
			sent();
			const headers: Record<string, string> = {
				authorization: `Bearer ${bearer}`,
				accept: 'application/json'
			};
			if (body !== undefined) headers['content-type'] = 'application/json';
			// The call's deadline, as AbortSignal.timeout would set it, but ended with the call: a
			// timeout signal stays (with its timer) for the full timeoutMs after every call.
			const deadline = new AbortController();
			const timer = setTimeout(
				() =>
					deadline.abort(
						new DOMException('The operation was aborted due to timeout', 'TimeoutError')
					),
				this.timeoutMs
			);
			timer.unref();
			try {
				const res = await this.fetchImpl(baseUrl + path, {
					method,
					headers,
					body,
					redirect: 'manual',
					signal: deadline.signal
				});
				// A buffered answer is complete; any other still has its body to come, under the deadline.
				if (bufferedBodies.has(res)) clearTimeout(timer);
				return res;
			} catch (err) {
				clearTimeout(timer);
				throw new UpstreamUnavailable(
					err instanceof Error ? err.message : String(err),
					neverSent(err)
				);
			}
		};
		if (!this.oauth) return send(apiKey);

		let credential = await this.oauth.credential();
		// docs/upstream.md: 401 invalid_token means expired or revoked: refresh and retry. A
		// second retry covers a fresh token that expired on the way (a stalled process, very short
		// lifetimes); a revoked connection ends at its refresh (invalid_grant), so this stays bounded.
		for (let attempt = 0; ; attempt++) {
			// Not connected (or the connection ended): the API key, if there is one, still works.
			if ('problem' in credential) return apiKey ? send(apiKey) : refused(credential.problem);
			const res = await send(credential.token);
			if (res.status !== 401 || attempt === MAX_TOKEN_RETRIES) return res;
			const error = (await res
				.clone()
				.json()
				.catch(() => null)) as { code?: unknown } | null;
			if (error?.code !== 'invalid_token') return res;
			credential = await this.oauth.rejected(credential.token);
		}
	}
}

/** No credential to send: answered here, in the upstream's error shape, without a request. */
function refused(problem: { code: string; message: string }): Response {
	if (problem.code === 'upstream_unreachable') throw new UpstreamUnavailable(problem.message, true);
	return Response.json(
		{ error: problem.message, code: problem.code },
		{ status: 401, headers: { 'cache-control': 'no-store' } }
	);
}

/** The bytes of the answers keepAliveFetch read in full (null: a status without a body). */
const bufferedBodies = new WeakMap<Response, Uint8Array<ArrayBuffer> | null>();

/**
 * The body of an upstream answer, for passing it on: the bytes keepAliveFetch already holds, or read
 * from the Response. (Reading a Response of the Node adapter's kind builds a second, stream-backed
 * Response first: a sizeable part of a proxied call's cost.) Rejects if the body cannot be read.
 */
export async function bodyBytes(res: Response): Promise<Uint8Array<ArrayBuffer>> {
	const buffered = bufferedBodies.get(res);
	if (buffered !== undefined) return buffered ?? new Uint8Array(0);
	return new Uint8Array(await res.arrayBuffer());
}

/** `n` Responses of one answer, each with its status, headers and the body's bytes. */
async function copiesOf(res: Response, n: number): Promise<Response[]> {
	let bytes: Uint8Array<ArrayBuffer> | null;
	try {
		bytes = NULL_BODY.has(res.status) ? null : await bodyBytes(res);
	} catch (err) {
		throw new UpstreamUnavailable(err instanceof Error ? err.message : String(err));
	}
	return Array.from({ length: n }, () => {
		const copy = new Response(bytes, { status: res.status, headers: res.headers });
		bufferedBodies.set(copy, bytes);
		return copy;
	});
}

/** Idle keep-alive connections close after this (or 1 s before the server's Keep-Alive timeout). */
const KEEP_ALIVE_IDLE_MS = 4_000;
/**
 * The most connections open at once to one upstream origin; calls beyond it wait in the Agent for
 * one to come free (their deadline runs meanwhile). Without a bound, a burst of calls opens a
 * connection for each: in a refresh storm or after an instance restarts that is hundreds of
 * connection attempts in a second, more than the upstream's accept queue holds (511 on a Node
 * server); the kernel drops the rest, and a dropped attempt is retried only after 1, 3, 7 s, so
 * calls fail at their 10 s deadline while the upstream is idle (docs/performance.md). 64 calls of
 * ~10 ms each are thousands a second, far above the upstream's own limits.
 */
export const UPSTREAM_MAX_SOCKETS = 64;
/** Statuses whose Response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The upstream transport of the running server (serve.ts): node:http(s) on keep-alive Agents, the
 * whole answer read before the Response is handed back, so that the caller's signal (the call's
 * timeout) covers the body too and a connection that dies mid-body is a failed call. Global fetch
 * would do the same work, but on Node 20 every fetch leaves its request, signals and streams alive
 * until a full GC (undici ties them to WeakRefs and FinalizationRegistry), about 30 kB a call: each
 * young-generation GC then copies megabytes and pauses the endpoint for several ms, which is the
 * tail of the proxied calls (docs/performance.md). Takes what UpstreamClient sends: a method,
 * string headers, a string (or form) body or none, a signal; never follows redirects (`redirect: 'manual'`).
 * At most UPSTREAM_MAX_SOCKETS connections per origin.
 */
export function keepAliveFetch(
	o: {
		/** The address outgoing calls leave from (UPSTREAM_LOCAL_ADDRESS); the system's choice if unset. */
		localAddress?: string;
	} = {}
): Fetch & { close(): void } {
	const agentOptions = {
		keepAlive: true,
		timeout: KEEP_ALIVE_IDLE_MS,
		maxSockets: UPSTREAM_MAX_SOCKETS,
		...(o.localAddress ? { localAddress: o.localAddress } : {})
	};
	const agents = {
		'http:': new http.Agent(agentOptions),
		'https:': new https.Agent(agentOptions)
	};
	const send: Fetch = (input, init = {}) =>
		new Promise<Response>((resolve, reject) => {
			const url = new URL(input);
			if (url.protocol !== 'http:' && url.protocol !== 'https:')
				throw new TypeError(`unsupported protocol ${url.protocol}`);
			const body = requestBody(init);
			const req = (url.protocol === 'https:' ? https : http).request(
				url,
				{
					method: init.method ?? 'GET',
					// No Accept-Encoding would allow any coding: ask for the body as it is.
					headers: { 'accept-encoding': 'identity', ...requestHeaders(init) },
					agent: agents[url.protocol],
					signal: init.signal ?? undefined
				},
				(res) => readWholeAnswer(res, resolve, reject)
			);
			req.on('error', reject);
			// A call still waiting for a connection (UPSTREAM_MAX_SOCKETS) would hear of its abort
			// only once one comes free: it ends now (that connection then goes to the next call).
			const signal = init.signal;
			if (signal) {
				const abort = () => reject(signal.reason);
				signal.addEventListener('abort', abort, { once: true });
				req.once('close', () => signal.removeEventListener('abort', abort));
			}
			req.end(body ?? undefined);
		});
	return Object.assign(send, {
		close() {
			agents['http:'].destroy();
			agents['https:'].destroy();
		}
	});
}

/** The body of a call as keepAliveFetch sends it: a string, or none. Throws on any other kind. */
function requestBody(init: RequestInit): string | null | undefined {
	// oauth4webapi (the OAuth calls, when they take this transport) sends form bodies.
	const body = init.body instanceof URLSearchParams ? init.body.toString() : init.body;
	if (body != null && typeof body !== 'string')
		throw new TypeError('keepAliveFetch sends string and form bodies only');
	return body;
}

/** The headers of a call as node:http takes them: a plain object of strings. */
function requestHeaders(init: RequestInit): Record<string, string> | undefined {
	return init.headers instanceof Headers || Array.isArray(init.headers)
		? Object.fromEntries(new Headers(init.headers))
		: (init.headers as Record<string, string> | undefined);
}

/**
 * Reads an upstream answer to its end, then resolves with it as a Response whose bytes
 * bodyBytes finds again; rejects if the connection fails before the end.
 */
function readWholeAnswer(
	res: http.IncomingMessage,
	resolve: (response: Response) => void,
	reject: (err: unknown) => void
): void {
	const chunks: Buffer<ArrayBuffer>[] = [];
	res.on('data', (chunk: Buffer<ArrayBuffer>) => chunks.push(chunk));
	finished(res, (err) => {
		if (err) return reject(err);
		const status = res.statusCode ?? 502;
		const responseHeaders = new Headers();
		const raw = res.rawHeaders;
		for (let i = 0; i < raw.length; i += 2) responseHeaders.append(raw[i], raw[i + 1]);
		const body = NULL_BODY.has(status)
			? null
			: chunks.length === 1
				? chunks[0]
				: Buffer.concat(chunks);
		const response = new Response(body, { status, headers: responseHeaders });
		bufferedBodies.set(response, body);
		resolve(response);
	});
}
