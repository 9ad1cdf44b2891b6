import { describe, expect, it } from 'vitest';
import { discoveryOnce } from '../../src/server/oauth-http.ts';

const issuer = 'http://127.0.0.1:9/';
const metadata = {
	issuer,
	authorization_endpoint: `${issuer}oauth/authorize`,
	token_endpoint: `${issuer}oauth/token`
};

describe('the OAuth server metadata of a hosted instance', () => {
	it('is asked for once, whatever the number of streamers refreshing at once', async () => {
		let asked = 0;
		const server = discoveryOnce(issuer, async () => {
			asked += 1;
			return Response.json(metadata);
		});
		const all = await Promise.all(Array.from({ length: 50 }, () => server()));
		expect(asked).toBe(1);
		expect(new Set(all.map((as) => as.token_endpoint))).toEqual(new Set([`${issuer}oauth/token`]));
	});

	it('is asked for again after the server could not be reached, not given up until a restart', async () => {
		let asked = 0;
		const server = discoveryOnce(issuer, async () => {
			asked += 1;
			if (asked === 1) throw new TypeError('fetch failed');
			return Response.json(metadata);
		});
		await expect(server()).rejects.toMatchObject({ code: 'upstream_unreachable' });
		expect((await server()).token_endpoint).toBe(`${issuer}oauth/token`);
		expect(asked).toBe(2);
	});
});
