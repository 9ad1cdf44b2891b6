// The one place that talks to the upstream with the API key.
import type { Upstream } from './config.ts';

export class UpstreamUnavailable extends Error {}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export class UpstreamClient {
	constructor(
		private readonly upstream: () => Upstream,
		private readonly fetchImpl: Fetch = fetch,
		private readonly timeoutMs = 10_000
	) {}

	get wsUrl(): string {
		return this.upstream().wsUrl;
	}

	/** `path` is relative to {base_url} and already validated against the allowlist. */
	async call(method: string, path: string, body?: string): Promise<Response> {
		const { baseUrl, apiKey } = this.upstream();
		const headers: Record<string, string> = {
			authorization: `Bearer ${apiKey}`,
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
	}
}
