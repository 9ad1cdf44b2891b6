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

	it('renders refreshes by outcome, a cumulative mint histogram, held calls, pools and locks in the text format', () => {
		const m = new HostedMetrics();
		m.refreshed('rotated');
		m.refreshed('adopted');
		m.refreshed('adopted');
		for (const s of [0.002, 0.03, 0.03, 0.7, 20]) m.minted(s);
		m.readRefused('s_abc', 'address');
		m.readRefused('s_abc', 'address');
		m.readRefused('s_def', 'key');
		const text = m.render({}, 0, {
			budget: {
				ip: null,
				authorizations: { known: 2, nearlySpent: 1, spent: 0 },
				saturated: true,
				queued: { claims: 0, reads: 3 },
				held: 7,
				heldClaims: 0,
				refusedHere: 1,
				upstream429: 0,
				address: {
					limit: 240,
					readCeiling: 96,
					claims: 40,
					reads: 90,
					instances: 3,
					topReaders: [
						{ streamer: 's_abc', reads: 60 },
						{ streamer: 's_def', reads: 30 }
					],
					heldReads: 4
				}
			},
			readsShared: 12,
			pool: {
				queries: { total: 10, idle: 4, waiting: 0 },
				locks: { total: 3, idle: 0, waiting: 2 },
				control: { total: 1, idle: 0, waiting: 0 }
			},
			locks: {
				connecting: 2,
				waiting: 1,
				holding: 3,
				contended: 5,
				waitSeconds: 1.5,
				waitCount: 6,
				heldSeconds: 0.9,
				heldCount: 4
			}
		});
		for (const line of [
			'tip_oauth_refreshes_total{outcome="rotated"} 1\n',
			'tip_oauth_refreshes_total{outcome="adopted"} 2\n',
			'tip_oauth_refreshes_total{outcome="ended"} 0\n',
			'tip_token_mint_seconds_bucket{le="0.005"} 1\n',
			'tip_token_mint_seconds_bucket{le="0.05"} 3\n',
			'tip_token_mint_seconds_bucket{le="1"} 4\n',
			'tip_token_mint_seconds_bucket{le="10"} 4\n',
			'tip_token_mint_seconds_bucket{le="+Inf"} 5\n',
			'tip_token_mint_seconds_count 5\n',
			// The upstream budget's held calls: now, by priority, and since start.
			'tip_upstream_held_calls{priority="claim"} 0\n',
			'tip_upstream_held_calls{priority="read"} 3\n',
			'tip_upstream_held_calls_total 7\n',
			'tip_upstream_held_claims_total 0\n',
			'tip_upstream_refused_here_total 1\n',
			'tip_upstream_budget_saturated 1\n',
			// The calling address's budget across instances, and who read most of it.
			'tip_upstream_address_limit 240\n',
			'tip_upstream_address_calls{priority="claim"} 40\n',
			'tip_upstream_address_calls{priority="read"} 90\n',
			'tip_upstream_address_read_ceiling 96\n',
			'tip_upstream_address_instances 3\n',
			'tip_upstream_address_reads_by_streamer{streamer="s_abc"} 60\n',
			'tip_upstream_address_held_reads_total 4\n',
			// Reads refused here, per streamer and allowance; reads an identical read's call answered.
			'tip_reads_refused_total{streamer="s_abc",by="address"} 2\n',
			'tip_reads_refused_total{streamer="s_def",by="key"} 1\n',
			'tip_upstream_reads_shared_total 12\n',
			// The pools and the refresh locks at the scrape.
			'tip_db_pool_connections{pool="queries",state="busy"} 6\n',
			'tip_db_pool_connections{pool="locks",state="busy"} 3\n',
			'tip_db_pool_waiting{pool="locks"} 2\n',
			'tip_db_pool_connections{pool="control",state="busy"} 1\n',
			'tip_refresh_locks{state="waiting"} 1\n',
			'tip_refresh_lock_contended_total 5\n',
			'tip_refresh_lock_wait_seconds_count 6\n'
		])
			expect(text).toContain(line);
		// Every sample belongs to a family declared before it, once.
		const declared = new Set<string>();
		for (const line of text.trimEnd().split('\n')) {
			const type = /^# TYPE (\S+) (counter|gauge|histogram|summary)$/.exec(line);
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
