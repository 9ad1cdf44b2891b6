// The OAuth settings of the token endpoint (README, Connect with OAuth): a bad or missing value stops
// the server with a message that names the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';

const OVERLAY_KEY = 'test-overlay-key-0123456789';
const OAUTH = {
	CONTROL_KEY: 'test-control-key-0123456789',
	OAUTH_CLIENT_ID: 'oc_3f9a1b',
	TIP_OAUTH_URL: 'https://auth.example.com',
	TIP_API_BASE_URL: 'https://api.example.com/v1',
	TIP_WS_URL: 'wss://api.example.com/realtime',
	OVERLAY_KEY
};

function errorOf(env: NodeJS.ProcessEnv): string {
	try {
		loadConfig(env);
	} catch (err) {
		expect(err).toBeInstanceOf(ConfigError);
		return (err as Error).message;
	}
	throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('OAuth configuration', () => {
	it('an OAuth app without an API key is live mode with no key, a public client by default', () => {
		const config = loadConfig(OAUTH);
		expect(config.mode).toBe('live');
		expect(config.upstream?.apiKey).toBe('');
		expect(config.oauth).toEqual({
			issuer: 'https://auth.example.com',
			clientId: 'oc_3f9a1b',
			tokenFile: '.oauth-token.json'
		});
		expect(config.oauthRedirectUri).toBeNull();
	});

	it('takes the secret, the token file and the redirect URI', () => {
		const config = loadConfig({
			...OAUTH,
			OAUTH_CLIENT_SECRET: 'ocs_secret',
			OAUTH_TOKEN_FILE: '/var/lib/overlay/token.json',
			OAUTH_REDIRECT_URI: 'https://overlay.example.com/oauth/callback'
		});
		expect(config.oauth?.clientSecret).toBe('ocs_secret');
		expect(config.oauth?.tokenFile).toBe('/var/lib/overlay/token.json');
		expect(config.oauthRedirectUri).toBe('https://overlay.example.com/oauth/callback');
	});

	it('names TIP_OAUTH_URL when the client id has no server', () => {
		const { TIP_OAUTH_URL: _, ...env } = OAUTH;
		expect(errorOf(env)).toMatch(/TIP_OAUTH_URL: required when OAUTH_CLIENT_ID is set/);
	});

	it('names OAUTH_CLIENT_ID when only a secret or a server URL is given', () => {
		expect(errorOf({ OVERLAY_KEY, OAUTH_CLIENT_SECRET: 'x' })).toMatch(/OAUTH_CLIENT_ID: required/);
		expect(errorOf({ OVERLAY_KEY, TIP_OAUTH_URL: 'https://a.example' })).toMatch(
			/OAUTH_CLIENT_ID: required/
		);
	});

	it('refuses plain http for a remote OAuth server, a bad redirect URI and a spaced client id', () => {
		expect(errorOf({ ...OAUTH, TIP_OAUTH_URL: 'http://auth.example.com' })).toMatch(
			/TIP_OAUTH_URL/
		);
		expect(loadConfig({ ...OAUTH, TIP_OAUTH_URL: 'http://127.0.0.1:8788' }).oauth?.issuer).toBe(
			'http://127.0.0.1:8788'
		);
		expect(errorOf({ ...OAUTH, OAUTH_REDIRECT_URI: 'https://x.example/other' })).toMatch(
			/OAUTH_REDIRECT_URI/
		);
		expect(errorOf({ ...OAUTH, OAUTH_CLIENT_ID: 'oc bad' })).toMatch(/OAUTH_CLIENT_ID/);
	});
});
