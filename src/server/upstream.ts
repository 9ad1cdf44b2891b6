// The one place that talks to the upstream with a credential: the API key, or the OAuth access token
// when the streamer connected with OAuth (oauth-client.ts), which wins while the connection lives.
import type { Upstream } from './config.ts';

export class UpstreamUnavailable extends Error {}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** The OAuth connection as the upstream client sees it (OAuthConnection implements it). */
export interface BearerSource {
	credential(): Promise<{ token: string } | { problem: { code: string; message: string } }>;
	/** The upstream answered 401 invalid_token to `token`: a fresh one (one refresh, shared). */
	rejected(
		token: string
	): Promise<{ token: string } | { problem: { code: string; message: string } }>;
}

export class UpstreamClient {
	constructor(
		private readonly upstream: () => Upstream,
		private readonly fetchImpl: Fetch = fetch,
		private readonly timeoutMs = 10_000,
		private readonly oauth: BearerSource | null = null
	) {}

	get wsUrl(): string {
		return this.upstream().wsUrl;
	}

	/** `path` is relative to {base_url} and already validated against the allowlist. */
	async call(method: string, path: string, body?: string): Promise<Response> {
		const { baseUrl, apiKey } = this.upstream();
		const send = async (bearer: string) => {
			const headers: Record<string, string> = {
				authorization: `Bearer ${bearer}`,
				accept: 'application/json'
			};
			if (body !== undefined) headers['content-type'] = 'application/json';
			try {
				return await this.fetchImpl(baseUrl + path, {
					method,
					headers,
					body,
					redirect: 'manual',
					signal: AbortSignal.timeout(this.timeoutMs)
				});
			} catch (err) {
				throw new UpstreamUnavailable(err instanceof Error ? err.message : String(err));
			}
		};
		if (!this.oauth) return send(apiKey);

		const credential = await this.oauth.credential();
		// Not connected (or the connection ended): the API key, if there is one, still works.
		if ('problem' in credential) return apiKey ? send(apiKey) : refused(credential.problem);
		const res = await send(credential.token);
		if (res.status !== 401) return res;
		// service-api.md, Errors: 401 invalid_token means expired or revoked: refresh and retry once.
		const error = (await res
			.clone()
			.json()
			.catch(() => null)) as { code?: unknown } | null;
		if (error?.code !== 'invalid_token') return res;
		const fresh = await this.oauth.rejected(credential.token);
		if ('problem' in fresh) return apiKey ? send(apiKey) : refused(fresh.problem);
		return send(fresh.token);
	}
}

/** No credential to send: answered here, in the upstream's error shape, without a request. */
function refused(problem: { code: string; message: string }): Response {
	if (problem.code === 'upstream_unreachable') throw new UpstreamUnavailable(problem.message);
	return Response.json(
		{ error: problem.message, code: problem.code },
		{ status: 401, headers: { 'cache-control': 'no-store' } }
	);
}
