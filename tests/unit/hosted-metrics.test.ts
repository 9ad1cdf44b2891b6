// /metrics of a hosted instance (src/hosted/metrics.ts): upstream requests counted by outcome, the
// last RateLimit-* headers kept, refreshes by outcome, the mint histogram cumulative, all in the
// Prometheus text format.
import { describe, expect, it } from 'vitest';
import { HostedMetrics } from '../../src/hosted/metrics.ts';

const answer =
	(status: number, headers: Record<string, string> = {}) =>
	async () =>
		new Response(null, { status, headers });

describe('hosted metrics', () => {
	it('counts upstream requests by outcome, 429s among them, and keeps the last rate limit seen', async () => {
		const m = new HostedMetrics(() => Date.parse('2026-11-25T12:00:00Z'));
		await m.counting('api', answer(200))('http://u/v1/me');
		await m.counting('api', answer(204))('http://u/v1/x');
		await m.counting(
			'api',
			answer(429, { 'RateLimit-Limit': '120', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '7' })
		)('http://u/v1/me');
		await m.counting('oauth', answer(503))('http://u/oauth/token');
		const down = m.counting('api', async () => {
			throw new TypeError('fetch failed');
		});
		await expect(down('http://u/v1/me')).rejects.toThrow('fetch failed');
		expect(m.rateLimited).toBe(1);
		expect(m.rateLimit).toEqual({ limit: 120, remaining: 0, resetAt: '2026-11-25T12:00:07.000Z' });
		const text = m.render({ connected: 3, reconnect: 1 }, 2);
		for (const line of [
			'tip_upstream_requests_total{kind="api",outcome="2xx"} 2\n',
			'tip_upstream_requests_total{kind="api",outcome="429"} 1\n',
			'tip_upstream_requests_total{kind="api",outcome="unreachable"} 1\n',
			'tip_upstream_requests_total{kind="oauth",outcome="5xx"} 1\n',
			'tip_upstream_rate_limited_total 1\n',
			'tip_upstream_ratelimit_remaining 0\n',
			'tip_streamers{status="connected"} 3\n',
			'tip_streamers{status="disconnected"} 0\n',
			'tip_streamers_active 2\n'
		])
			expect(text).toContain(line);
	});

	it('renders refreshes by outcome and a cumulative mint histogram in the text format', () => {
		const m = new HostedMetrics();
		m.refreshed('rotated');
		m.refreshed('adopted');
		m.refreshed('adopted');
		for (const s of [0.002, 0.03, 0.03, 0.7, 20]) m.minted(s);
		const text = m.render({}, 0);
		for (const line of [
			'tip_oauth_refreshes_total{outcome="rotated"} 1\n',
			'tip_oauth_refreshes_total{outcome="adopted"} 2\n',
			'tip_oauth_refreshes_total{outcome="ended"} 0\n',
			'tip_token_mint_seconds_bucket{le="0.005"} 1\n',
			'tip_token_mint_seconds_bucket{le="0.05"} 3\n',
			'tip_token_mint_seconds_bucket{le="1"} 4\n',
			'tip_token_mint_seconds_bucket{le="10"} 4\n',
			'tip_token_mint_seconds_bucket{le="+Inf"} 5\n',
			'tip_token_mint_seconds_count 5\n'
		])
			expect(text).toContain(line);
		// Every sample belongs to a family declared before it, once.
		const declared = new Set<string>();
		for (const line of text.trimEnd().split('\n')) {
			const type = /^# TYPE (\S+) (counter|gauge|histogram)$/.exec(line);
			if (type) {
				expect(declared.has(type[1])).toBe(false);
				declared.add(type[1]);
			} else if (!line.startsWith('# HELP ')) {
				const name = /^([a-z_]+)/.exec(line)![1].replace(/_(bucket|sum|count)$/, '');
				expect(declared.has(name) || declared.has(`${name}_total`)).toBe(true);
				expect(line).toMatch(/^[a-z_]+(\{[^}]*\})? [0-9.e+-]+$/);
			}
		}
	});
});
