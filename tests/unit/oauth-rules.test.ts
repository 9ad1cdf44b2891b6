// The pure OAuth rules: when a failed refresh may have rotated the token (then it is never sent
// again), which redirect URIs an app may register, and how redirect parameters are added.
import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { refreshFailure } from '../../src/server/oauth-errors.ts';
import { redirectUriAllowed, withParams } from '../../src/sim/oauth.ts';

const networkError = (code: string) =>
	Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });

function bodyError(status: number, error: string): oauth.ResponseBodyError {
	return new oauth.ResponseBodyError('error', {
		cause: { error, error_description: `${error} happened` },
		response: new Response(null, { status })
	});
}

describe('refreshFailure', () => {
	it('a request that never left (refused, no DNS) keeps the token', () => {
		for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']) {
			const f = refreshFailure(networkError(code), null);
			expect(f.rotatedMaybe).toBe(false);
			expect(f.problem.code).toBe('upstream_unreachable');
		}
	});

	it('a lost answer (reset, timeout after sending) may have rotated: reconnect', () => {
		for (const err of [networkError('ECONNRESET'), new DOMException('timed out', 'TimeoutError')]) {
			const f = refreshFailure(err, null);
			expect(f.rotatedMaybe).toBe(true);
			expect(f.problem.code).toBe('oauth_revoked');
		}
	});

	it('invalid_grant ends the connection; invalid_client and 5xx keep the token', () => {
		expect(refreshFailure(bodyError(400, 'invalid_grant'), 400)).toMatchObject({
			rotatedMaybe: true,
			problem: { code: 'oauth_revoked' }
		});
		expect(refreshFailure(bodyError(401, 'invalid_client'), 401)).toMatchObject({
			rotatedMaybe: false,
			problem: { code: 'oauth_refresh_refused' }
		});
		expect(refreshFailure(new Error('not json'), 503)).toMatchObject({
			rotatedMaybe: false,
			problem: { code: 'upstream_unreachable' }
		});
		expect(refreshFailure(new Error('not json'), 429).rotatedMaybe).toBe(false);
	});

	it('a 200 whose body cannot be read may hold the only copy of the new token: reconnect', () => {
		expect(refreshFailure(new Error('bad json'), 200).rotatedMaybe).toBe(true);
	});
});

describe('redirect URIs', () => {
	it('follows the upstream’s rules: https, http on localhost, reverse-domain schemes; exact, no fragments', () => {
		expect(redirectUriAllowed('https://a.example/cb')).toBe(true);
		expect(redirectUriAllowed('http://localhost:8787/oauth/callback')).toBe(true);
		expect(redirectUriAllowed('com.example.app:/callback')).toBe(true);
		expect(redirectUriAllowed('http://a.example/cb')).toBe(false);
		expect(redirectUriAllowed('https://a.example/cb#frag')).toBe(false);
		expect(redirectUriAllowed('https://*.example/cb')).toBe(false);
		expect(redirectUriAllowed('myapp:/cb')).toBe(false);
		expect(redirectUriAllowed('not a url')).toBe(false);
	});

	it('adds parameters to a URI that already has a query, leaving out absent ones', () => {
		expect(withParams('https://a.example/cb?x=1', { code: 'c d', state: undefined })).toBe(
			'https://a.example/cb?x=1&code=c+d'
		);
	});
});
