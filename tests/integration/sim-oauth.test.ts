// The simulator's OAuth 2.0 server over real HTTP (service-api.md, Authentication, OAuth 2.0, and
// Errors): metadata, authorize outcomes and redirect rules, PKCE, codes, rotation, reuse detection,
// revocation, public and confidential clients, and the access token on the API and realtime.
import { describe, expect, it } from 'vitest';
import { Me } from '../../src/contract/index.ts';
import {
	approvedCode,
	authorizeRequest,
	connectPublic,
	decide,
	pkce,
	REDIRECT,
	registerApp,
	tokenCall
} from '../fixtures/oauth.ts';
import { api, RealtimeClient, until, simsPerTest, type Sim } from '../fixtures/sim.ts';

const start = simsPerTest();

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

describe('token endpoint', () => {
	it('exchanges a code with PKCE for a 1-hour tpat_ token that works on the API and realtime', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null, scopes: ['tts:read', 'tts:control'] });
		const tokens = await connectPublic(sim, clientId);
		expect(tokens.access_token).toMatch(/^tpat_/);
		expect(tokens.expires_in).toBe(3600);
		expect(tokens.scope).toBe('tts:read tts:control');
		const me = await api(sim, 'GET', '/me', { key: tokens.access_token });
		expect(me.status).toBe(200);
		const parsed = Me.parse(me.body);
		expect(parsed.credential).toBe('oauth');
		expect(parsed.oauth?.client_id).toBe(clientId);
		expect(parsed.key.scopes).toEqual(['tts:read', 'tts:control']);
		// Scopes are those granted: a counters call is refused.
		expect((await api(sim, 'GET', '/counters', { key: tokens.access_token })).status).toBe(403);
		// Realtime with the access token itself and through a handoff token.
		const direct = await RealtimeClient.open(sim);
		direct.send({ type: 'auth', data: { apiKey: tokens.access_token } });
		expect((await direct.next((m) => m.type === 'ready' || m.type === 'error')).type).toBe('ready');
		const handoff = await RealtimeClient.connect(sim, tokens.access_token);
		expect(handoff.messages.at(-1).type).toBe('ready');
		direct.close();
		handoff.close();
	});

	it('calls made with the token carry the oauth_app actor', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const tokens = await connectPublic(sim, clientId);
		const ws = await RealtimeClient.connect(sim);
		await api(sim, 'POST', '/tts/pause', { key: tokens.access_token });
		const event = await ws.next((m) => m.type === 'queue.tts.paused');
		expect(event.actor).toMatchObject({ type: 'oauth_app', id: clientId });
		expect(event.actor.authorization_id).toMatch(/^oa_/);
		ws.close();
	});

	it('a code works once, and PKCE and redirect_uri must match', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const base = { grant_type: 'authorization_code', redirect_uri: REDIRECT, client_id: clientId };
		const a = await approvedCode(sim, clientId);
		const wrongVerifier = await tokenCall(sim, {
			...base,
			code: a.code,
			code_verifier: pkce().verifier
		});
		expect(wrongVerifier.status).toBe(400);
		expect(wrongVerifier.body.error).toBe('invalid_grant');
		expect(wrongVerifier.body.error_description).toMatch(/PKCE/);
		// The failed attempt used the code up.
		const again = await tokenCall(sim, { ...base, code: a.code, code_verifier: a.verifier });
		expect(again.body.error).toBe('invalid_grant');

		const b = await approvedCode(sim, clientId);
		const wrongRedirect = await tokenCall(sim, {
			...base,
			redirect_uri: 'http://localhost:1/other',
			code: b.code,
			code_verifier: b.verifier
		});
		expect(wrongRedirect.body.error).toBe('invalid_grant');

		const c = await approvedCode(sim, clientId);
		const ok = await tokenCall(sim, { ...base, code: c.code, code_verifier: c.verifier });
		expect(ok.status).toBe(200);
		const reused = await tokenCall(sim, { ...base, code: c.code, code_verifier: c.verifier });
		expect(reused.status).toBe(400);
		expect(reused.body.error).toBe('invalid_grant');
		// A code presented twice ends what it produced.
		expect((await api(sim, 'GET', '/me', { key: ok.body.access_token })).body.code).toBe(
			'invalid_token'
		);
	});

	it('a code expires after 10 minutes', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const a = await approvedCode(sim, clientId);
		const realNow = Date.now;
		Date.now = () => realNow() + 10 * 60_000 + 1000;
		try {
			const res = await tokenCall(sim, {
				grant_type: 'authorization_code',
				code: a.code,
				code_verifier: a.verifier,
				redirect_uri: REDIRECT,
				client_id: clientId
			});
			expect(res.body.error).toBe('invalid_grant');
			expect(res.body.error_description).toMatch(/expired/);
		} finally {
			Date.now = realNow;
		}
	});

	it('confidential clients authenticate by Basic or client_secret; a wrong secret is 401 invalid_client', async () => {
		const sim = await start();
		const { clientId, secret } = registerApp(sim, { secret: 'ocs_test_secret_value' });
		const exchange = async (auth: 'basic' | 'post' | 'wrong' | 'none') => {
			const a = await approvedCode(sim, clientId);
			const params: Record<string, string> = {
				grant_type: 'authorization_code',
				code: a.code,
				code_verifier: a.verifier,
				redirect_uri: REDIRECT
			};
			if (auth === 'post') Object.assign(params, { client_id: clientId, client_secret: secret! });
			if (auth === 'none') params.client_id = clientId;
			if (auth === 'wrong') return tokenCall(sim, params, { id: clientId, secret: 'nope' });
			return tokenCall(
				sim,
				params,
				auth === 'basic' ? { id: clientId, secret: secret! } : undefined
			);
		};
		expect((await exchange('basic')).status).toBe(200);
		expect((await exchange('post')).status).toBe(200);
		const wrong = await exchange('wrong');
		expect(wrong.status).toBe(401);
		expect(wrong.body.error).toBe('invalid_client');
		expect((await exchange('none')).status).toBe(401);
	});

	it('unsupported_grant_type and invalid_request are 400 with error_description', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const bad = await tokenCall(sim, { grant_type: 'password', client_id: clientId });
		expect(bad.status).toBe(400);
		expect(bad.body.error).toBe('unsupported_grant_type');
		expect(typeof bad.body.error_description).toBe('string');
		const missing = await tokenCall(sim, { client_id: clientId });
		expect(missing.body.error).toBe('invalid_request');
	});

	it('accepts a JSON body too', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const a = await approvedCode(sim, clientId);
		const res = await fetch(`${sim.oauthUrl}/oauth/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				grant_type: 'authorization_code',
				code: a.code,
				code_verifier: a.verifier,
				redirect_uri: REDIRECT,
				client_id: clientId
			})
		});
		expect(res.status).toBe(200);
	});
});

describe('refresh rotation, reuse and revocation', () => {
	it('a refresh returns new tokens and the old refresh token dies at once', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const first = await connectPublic(sim, clientId);
		const r1 = await tokenCall(sim, {
			grant_type: 'refresh_token',
			refresh_token: first.refresh_token,
			client_id: clientId
		});
		expect(r1.status).toBe(200);
		expect(r1.body.refresh_token).not.toBe(first.refresh_token);
		expect(r1.body.access_token).toMatch(/^tpat_/);
		expect((await api(sim, 'GET', '/me', { key: r1.body.access_token })).status).toBe(200);
		expect(sim.control.log.oauthEntries('refresh_token')).toHaveLength(1);
	});

	it('presenting a rotated-out refresh token revokes the whole authorization and closes sockets', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const first = await connectPublic(sim, clientId);
		const refresh = (token: string) =>
			tokenCall(sim, { grant_type: 'refresh_token', refresh_token: token, client_id: clientId });
		const r1 = await refresh(first.refresh_token);
		const ws = await RealtimeClient.connect(sim, r1.body.access_token);
		const reuse = await refresh(first.refresh_token);
		expect(reuse.status).toBe(400);
		expect(reuse.body.error).toBe('invalid_grant');
		// Everything of the authorization is dead: the newest tokens too.
		expect((await refresh(r1.body.refresh_token)).body.error).toBe('invalid_grant');
		const me = await api(sim, 'GET', '/me', { key: r1.body.access_token });
		expect(me.status).toBe(401);
		expect(me.body.code).toBe('invalid_token');
		expect(await ws.closed()).toBe(4401);
		expect(sim.control.log.oauthEntries('reuse_detected')).toHaveLength(1);
	});

	it('an expired access token answers 401 invalid_token; a refresh fixes it', async () => {
		const sim = await start();
		sim.control.oauth.accessTtlS = 1;
		const { clientId } = registerApp(sim, { secret: null });
		const t = await connectPublic(sim, clientId);
		expect(t.expires_in).toBe(1);
		await new Promise((r) => setTimeout(r, 1100));
		const me = await api(sim, 'GET', '/me', { key: t.access_token });
		expect(me.status).toBe(401);
		expect(me.body.code).toBe('invalid_token');
		const r = await tokenCall(sim, {
			grant_type: 'refresh_token',
			refresh_token: t.refresh_token,
			client_id: clientId
		});
		expect((await api(sim, 'GET', '/me', { key: r.body.access_token })).status).toBe(200);
	});

	it('revoking either token ends the authorization; unknown tokens still get 200', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const revoke = (token: string) =>
			fetch(`${sim.oauthUrl}/oauth/revoke`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ token, client_id: clientId })
			});
		expect((await revoke('tprt_unknown')).status).toBe(200);
		const a = await connectPublic(sim, clientId);
		expect((await revoke(a.access_token)).status).toBe(200);
		expect((await api(sim, 'GET', '/me', { key: a.access_token })).status).toBe(401);
		const refreshed = await tokenCall(sim, {
			grant_type: 'refresh_token',
			refresh_token: a.refresh_token,
			client_id: clientId
		});
		expect(refreshed.body.error).toBe('invalid_grant');
	});

	it('a re-authorization replaces the previous one', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const a = await connectPublic(sim, clientId);
		const b = await connectPublic(sim, clientId);
		expect((await api(sim, 'GET', '/me', { key: a.access_token })).status).toBe(401);
		expect((await api(sim, 'GET', '/me', { key: b.access_token })).status).toBe(200);
	});

	it('the dashboard revocation (test control) kills every token within seconds', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null });
		const a = await connectPublic(sim, clientId);
		const ws = await RealtimeClient.connect(sim, a.access_token);
		const res = await fetch(`${sim.origin}/_sim/oauth/revoke`, { method: 'POST', body: '{}' });
		expect((await res.json()).revoked).toBe(1);
		await until(() => ws.closeCode !== null);
		expect(ws.closeCode).toBe(4401);
		expect((await api(sim, 'GET', '/me', { key: a.access_token })).status).toBe(401);
	});

	it('rotating a client secret revokes nothing; the next refresh needs the new secret', async () => {
		const sim = await start();
		const { clientId, secret } = registerApp(sim, { secret: 'ocs_old_secret_value' });
		const a = await approvedCode(sim, clientId);
		const t = await tokenCall(
			sim,
			{
				grant_type: 'authorization_code',
				code: a.code,
				code_verifier: a.verifier,
				redirect_uri: REDIRECT
			},
			{ id: clientId, secret: secret! }
		);
		const rotated = await fetch(`${sim.origin}/_sim/oauth/apps/${clientId}/rotate-secret`, {
			method: 'POST'
		});
		const newSecret = (await rotated.json()).client_secret;
		expect((await api(sim, 'GET', '/me', { key: t.body.access_token })).status).toBe(200);
		const refresh = { grant_type: 'refresh_token', refresh_token: t.body.refresh_token };
		const old = await tokenCall(sim, refresh, { id: clientId, secret: secret! });
		expect(old.status).toBe(401);
		expect(old.body.error).toBe('invalid_client');
		expect((await tokenCall(sim, refresh, { id: clientId, secret: newSecret })).status).toBe(200);
	});

	it('removing a scope from the app revokes its connections; adding one or changing redirect URIs keeps them', async () => {
		const sim = await start();
		const { clientId } = registerApp(sim, { secret: null, scopes: ['tts:read', 'tts:control'] });
		const t = await connectPublic(sim, clientId);
		const patch = (body: unknown) =>
			fetch(`${sim.origin}/_sim/oauth/apps/${clientId}`, {
				method: 'PATCH',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body)
			}).then((r) => r.json());
		expect(
			(
				await patch({
					scopes: ['tts:read', 'tts:control', 'media:read'],
					redirect_uris: [REDIRECT, 'https://x.example/cb']
				})
			).revoked
		).toBe(0);
		expect((await api(sim, 'GET', '/me', { key: t.access_token })).status).toBe(200);
		expect((await patch({ scopes: ['tts:read'] })).revoked).toBe(1);
		expect((await api(sim, 'GET', '/me', { key: t.access_token })).status).toBe(401);
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
