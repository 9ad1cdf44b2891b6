// The simulator's OAuth 2.0 server over real HTTP (docs/simulator.md; docs/oauth.md),
// and its errors: metadata, authorize outcomes and redirect rules, PKCE, and app registration.
// Tokens are in sim-oauth.tokens.test.ts.
import { describe, expect, it } from 'vitest';
import { authorizeRequest, decide, pkce, REDIRECT, registerApp } from '../fixtures/oauth.ts';
import { start } from './sim-oauth.setup.ts';

describe('metadata and authorize', () => {
	it('publishes RFC 8414 metadata naming the documented endpoints and S256 only', async () => {
		const sim = await start();
		const res = await fetch(`${sim.oauthUrl}/.well-known/oauth-authorization-server`);
		const meta = await res.json();
		expect(meta.issuer).toBe(sim.oauthUrl);
		expect(meta.authorization_endpoint).toBe(`${sim.oauthUrl}/oauth/authorize`);
		expect(meta.token_endpoint).toBe(`${sim.oauthUrl}/oauth/token`);
		expect(meta.revocation_endpoint).toBe(`${sim.oauthUrl}/oauth/revoke`);
		expect(meta.code_challenge_methods_supported).toEqual(['S256']);
	});

	it('shows a consent page with Approve and Deny buttons naming the app and scopes', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const { challenge } = pkce();
		const res = await authorizeRequest(sim, {
			response_type: 'code',
			client_id: clientId,
			scope: 'tts:read tts:control',
			code_challenge: challenge,
			code_challenge_method: 'S256'
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('x-frame-options')).toBe('DENY');
		const html = await res.text();
		expect(html).toContain('>Approve</button>');
		expect(html).toContain('>Deny</button>');
		expect(html).toContain('tts:control');
		expect(html).not.toContain('media:read');
	});

	it('approve redirects with code and the same state; deny with access_denied and state', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const params = () => ({
			response_type: 'code',
			client_id: clientId,
			redirect_uri: REDIRECT,
			state: 'xyz 123',
			code_challenge: pkce().challenge,
			code_challenge_method: 'S256'
		});
		const approved = await decide(sim, await authorizeRequest(sim, params()), true);
		expect(approved.origin + approved.pathname).toBe(REDIRECT);
		expect(approved.searchParams.get('code')).toBeTruthy();
		expect(approved.searchParams.get('state')).toBe('xyz 123');
		const denied = await decide(sim, await authorizeRequest(sim, params()), false);
		expect(denied.searchParams.get('error')).toBe('access_denied');
		expect(denied.searchParams.get('state')).toBe('xyz 123');
		expect(denied.searchParams.get('code')).toBeNull();
	});

	it('an unknown client_id or unregistered redirect_uri is a JSON 400 without a redirect', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, {
			secret: null,
			redirectUris: [REDIRECT, 'https://example.com/cb']
		});
		const unknown = await authorizeRequest(sim, { response_type: 'code', client_id: 'oc_nope' });
		expect(unknown.status).toBe(400);
		expect(unknown.headers.get('location')).toBeNull();
		expect((await unknown.json()).error).toBe('invalid_client');
		const evil = await authorizeRequest(sim, {
			response_type: 'code',
			client_id: clientId,
			redirect_uri: 'https://evil.example/cb'
		});
		expect(evil.status).toBe(400);
		expect(evil.headers.get('location')).toBeNull();
		// Two registered URIs: redirect_uri may not be left out.
		const missing = await authorizeRequest(sim, { response_type: 'code', client_id: clientId });
		expect(missing.status).toBe(400);
		expect(missing.headers.get('location')).toBeNull();
	});

	it('other problems come back as error in the redirect, with the state', async () => {
		const sim = await start();
		const pub = registerApp(sim, { secret: null, scopes: ['tts:read'] });
		const errorOf = async (params: Record<string, string>) => {
			const res = await authorizeRequest(sim, { client_id: pub.clientId, state: 'st', ...params });
			expect(res.status).toBe(302);
			const to = new URL(res.headers.get('location')!);
			expect(to.origin + to.pathname).toBe(REDIRECT);
			expect(to.searchParams.get('state')).toBe('st');
			return to.searchParams.get('error');
		};
		const { challenge } = pkce();
		const pk = { code_challenge: challenge, code_challenge_method: 'S256' };
		expect(await errorOf({ response_type: 'token', ...pk })).toBe('unsupported_response_type');
		expect(await errorOf({ response_type: 'code', scope: 'tts:read media:read', ...pk })).toBe(
			'invalid_scope'
		);
		// A public client without PKCE, and the refused plain method.
		expect(await errorOf({ response_type: 'code' })).toBe('invalid_request');
		expect(
			await errorOf({
				response_type: 'code',
				code_challenge: challenge,
				code_challenge_method: 'plain'
			})
		).toBe('invalid_request');
	});

	it('a consent decision posted from another site is refused', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const page = await authorizeRequest(sim, {
			response_type: 'code',
			client_id: clientId,
			...{ code_challenge: pkce().challenge, code_challenge_method: 'S256' }
		});
		const requestId = /name="request_id" value="([^"]+)"/.exec(await page.text())![1];
		const res = await fetch(`${sim.oauthUrl}/oauth/authorize`, {
			method: 'POST',
			redirect: 'manual',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				origin: 'https://evil.example'
			},
			body: new URLSearchParams({ request_id: requestId, decision: 'approve' })
		});
		expect(res.status).toBe(403);
	});
});

describe('app registration', () => {
	it('accepts https, loopback http and reverse-domain schemes; refuses others, wildcards and fragments', async () => {
		const sim = await start();
		const ok = [
			'https://overlay.example/cb',
			'http://localhost:4999/cb',
			'http://127.0.0.1:4999/cb',
			'com.example.app:/callback'
		];
		expect(registerApp(sim, { redirectUris: ok }).clientId).toMatch(/^oc_/);
		for (const bad of [
			'http://overlay.example/cb',
			'https://*.example/cb',
			'https://overlay.example/cb#x',
			'javascript:alert(1)'
		])
			expect(() => registerApp(sim, { redirectUris: [bad] })).toThrow(/redirect URIs/);
	});

	it('an app name with markup is shown as text on the consent page', async () => {
		const sim = await start();
		const { app } = sim.control.oauth.registerApp({
			name: '<img src=x onerror=alert(1)>',
			secret: null,
			redirectUris: [REDIRECT]
		});
		const page = await authorizeRequest(sim, {
			response_type: 'code',
			client_id: app.id,
			code_challenge: pkce().challenge,
			code_challenge_method: 'S256'
		});
		const html = await page.text();
		expect(html).not.toContain('<img');
		expect(html).toContain('&#60;img');
	});
});
