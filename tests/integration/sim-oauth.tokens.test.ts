// The simulator's OAuth 2.0 token endpoint over real HTTP (docs/simulator.md; docs/oauth.md):
// codes, rotation, reuse detection, revocation, public and confidential clients, and the access
// token on the API and realtime.
import { describe, expect, it } from 'vitest';
import { Me } from '../../src/contract/index.ts';
import {
	approvedCode,
	connectPublic,
	pkce,
	REDIRECT,
	registerApp,
	tokenCall
} from '../fixtures/oauth.ts';
import { api, RealtimeClient, until } from '../fixtures/sim.ts';
import { start } from './sim-oauth.setup.ts';

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
