// Every endpoint of the upstream (docs/upstream.md) reached through the route table
// (contract-endpoints.endpoints.ts): matched, scoped and its examples parsed the way the
// simulator and the token endpoint do it.
import { describe, expect, it } from 'vitest';
import { parseWith, ROUTES } from '../../src/contract/index.ts';
import { TIP, MEDIA, SERVICE_API, CONTRACT, ALL } from './contract-endpoints.endpoints.ts';
import { expectParses, mustMatch } from './contract-endpoints.checks.ts';

describe.each([
	['the upstream API', SERVICE_API],
	['the shapes the kit assumes', CONTRACT]
])('every endpoint of %s', (_doc, endpoints) => {
	it.each(endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))(
		'%s is in the route table with its scope, status and body shapes',
		(_name, endpoint) => {
			const { route } = mustMatch(endpoint.method, endpoint.path);
			expect(route.scope).toBe(endpoint.scope);
			expect(route.status).toBe(endpoint.status ?? 200);
			for (const [i, body] of endpoint.responses.entries()) {
				const parsed = expectParses(route.response, body, `response ${i}`);
				expect(parsed).toEqual(body);
			}
			for (const [i, body] of (endpoint.request ?? []).entries())
				expectParses(route.request, body, `request ${i}`);
			for (const [i, query] of (endpoint.query ?? []).entries())
				expectParses(route.query, query, `query ${i}`);
			// An endpoint the documents give no body takes none.
			if (!endpoint.request) expect(route.request).toBeUndefined();
		}
	);
});

describe('the route table', () => {
	it('holds nothing beyond the documented endpoints, except media remove and the webhook endpoints named without shapes', () => {
		const documented = new Set(ALL.map((e) => mustMatch(e.method, e.path).route));
		const extra = Object.entries(ROUTES)
			.filter(([, r]) => !documented.has(r))
			.map(([name]) => name);
		// Remove is named among the media transitions and by queue.media.removed (shape not shown).
		// The webhook endpoints' list, read and delete are named (shapes not shown): the simulator's.
		expect(extra).toEqual(['mediaRemove', 'webhookList', 'webhookRead', 'webhookDelete']);
		expect(mustMatch('DELETE', `/media/${MEDIA}`).route).toBe(ROUTES.mediaRemove);
	});

	it('parses query strings as strings, the way they arrive', () => {
		const q = parseWith(ROUTES.ttsHistory.query!, { limit: '7', before: TIP });
		expect(q).toEqual({ ok: true, value: { limit: 7, before: TIP } });
		for (const limit of ['0', '101', '2.5', 'ten'])
			expect(parseWith(ROUTES.ttsHistory.query!, { limit })).toMatchObject({
				ok: false,
				error: expect.stringMatching(/^limit: /)
			});
		expect(parseWith(ROUTES.leaderboard.query!, { limit: '0' })).toMatchObject({ ok: false });
	});
});
