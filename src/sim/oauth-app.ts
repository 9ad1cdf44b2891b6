// HTTP surface of the simulated OAuth 2.0 server (docs/simulator.md; docs/oauth.md): RFC 8414
// metadata, the authorize endpoint with its consent page (buttons "Approve" and "Deny"), the token
// and revocation endpoints, and test controls under /_sim/oauth (not part of the upstream).
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { describeIssues, Scope, type Actor } from '../contract/index.ts';
import type { ApiKey } from './auth.ts';
import type { SimCore } from './core.ts';
import { OAuthError, type AuthorizeOutcome } from './oauth.ts';
import { AuthorizeQuery, DecisionForm, RevokeBody, TokenBody } from './oauth-shapes.ts';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const PAGE_HEADERS = {
	...NO_STORE,
	'Content-Type': 'text/html; charset=utf-8',
	// The consent page must not be framed (clickjacking of the Approve button).
	'X-Frame-Options': 'DENY',
	'Content-Security-Policy':
		"default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
	// same-origin, not no-referrer: with no-referrer the form post would carry Origin: null.
	'Referrer-Policy': 'same-origin'
};

export function oauthActor(o: NonNullable<ApiKey['oauth']>): Actor {
	return {
		type: 'oauth_app',
		id: o.clientId,
		name: o.appName,
		authorization_id: o.authorizationId
	};
}

export function oauthApp(core: SimCore): Hono {
	const app = new Hono();
	metadataRoute(app, core);
	authorizeRoutes(app, core);
	tokenRoutes(app, core);
	app.route('/_sim/oauth', testControls(core));
	return app;
}

/** RFC 8414: what a client discovers of this server. */
function metadataRoute(app: Hono, core: SimCore): void {
	app.get('/.well-known/oauth-authorization-server', (c) =>
		c.json({
			issuer: core.origin,
			authorization_endpoint: `${core.origin}/oauth/authorize`,
			token_endpoint: `${core.origin}/oauth/token`,
			revocation_endpoint: `${core.origin}/oauth/revoke`,
			response_types_supported: ['code'],
			grant_types_supported: ['authorization_code', 'refresh_token'],
			code_challenge_methods_supported: ['S256'],
			token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
			revocation_endpoint_auth_methods_supported: [
				'client_secret_basic',
				'client_secret_post',
				'none'
			],
			scopes_supported: Scope.options
		})
	);
}

/** The authorize endpoint: the consent page (GET), and the streamer's decision on it (POST). */
function authorizeRoutes(app: Hono, core: SimCore): void {
	const oauth = core.oauth;
	app.get('/oauth/authorize', (c) => {
		const q = AuthorizeQuery.safeParse(Object.fromEntries(new URL(c.req.url).searchParams));
		if (!q.success)
			return c.json({ error: 'invalid_request', error_description: describeIssues(q.error) }, 400);
		return answer(c, oauth.authorize(q.data), core);
	});

	app.post('/oauth/authorize', async (c) => {
		// CSRF: a browser names the page that posted; only the consent page itself may decide. The
		// request id in the form is unguessable and single use as well.
		const origin = c.req.header('origin');
		if (origin !== undefined && origin !== core.origin)
			return c.json(
				{ error: 'invalid_request', error_description: 'cross-site form post refused' },
				403
			);
		const form = DecisionForm.safeParse(Object.fromEntries(await formOf(c)));
		if (!form.success)
			return c.json(
				{ error: 'invalid_request', error_description: describeIssues(form.error) },
				400
			);
		// With several accounts the consent page asks which streamer is signing in.
		const tenant = form.data.tenant ?? [...core.models.keys()][0];
		if (!core.models.has(tenant))
			return c.json({ error: 'invalid_request', error_description: 'no such demo streamer' }, 400);
		return answer(
			c,
			oauth.decide(form.data.request_id, form.data.decision === 'approve', tenant),
			core
		);
	});
}

/** The token and revocation endpoints, which the app calls with its client credentials. */
function tokenRoutes(app: Hono, core: SimCore): void {
	const oauth = core.oauth;
	app.post('/oauth/token', async (c) => {
		try {
			const body = TokenBody.safeParse(await bodyOf(c));
			if (!body.success) throw new OAuthError(400, 'invalid_request', describeIssues(body.error));
			return c.json(oauth.token(body.data, basicAuth(c)), 200, NO_STORE);
		} catch (err) {
			return oauthError(c, err);
		}
	});

	app.post('/oauth/revoke', async (c) => {
		try {
			const body = RevokeBody.safeParse(await bodyOf(c));
			if (!body.success) throw new OAuthError(400, 'invalid_request', describeIssues(body.error));
			oauth.revoke(body.data, basicAuth(c));
			return c.body(null, 200, NO_STORE);
		} catch (err) {
			return oauthError(c, err);
		}
	});
}

/** Test controls under /_sim/oauth (not upstream): register apps, shorten expiry, revoke, list. */
function testControls(core: SimCore): Hono {
	const control = new Hono();
	appControls(control, core);
	grantControls(control, core);
	return control;
}

/** Register an OAuth app, change its scopes or redirect URIs, rotate its secret. */
function appControls(control: Hono, core: SimCore): void {
	const oauth = core.oauth;
	control.post('/apps', async (c) => {
		const b = z
			.object({
				client_id: z.string().optional(),
				name: z.string().max(100).optional(),
				secret: z.string().nullable().optional(),
				redirect_uris: z.array(z.string()).min(1),
				scopes: z.array(Scope).optional()
			})
			.safeParse(await c.req.json().catch(() => null));
		if (!b.success) return c.json({ error: describeIssues(b.error) }, 400);
		try {
			const { app: registered, secret } = oauth.registerApp({
				id: b.data.client_id,
				name: b.data.name,
				secret: b.data.secret,
				redirectUris: b.data.redirect_uris,
				scopes: b.data.scopes
			});
			return c.json(
				{ client_id: registered.id, client_secret: secret, type: registered.type },
				201
			);
		} catch (err) {
			return c.json({ error: (err as Error).message }, 400);
		}
	});
	control.patch('/apps/:id', async (c) => {
		const b = z
			.object({ scopes: z.array(Scope).optional(), redirect_uris: z.array(z.string()).optional() })
			.safeParse(await c.req.json().catch(() => null));
		if (!b.success) return c.json({ error: describeIssues(b.error) }, 400);
		try {
			const revoked = oauth.updateApp(c.req.param('id'), {
				scopes: b.data.scopes,
				redirectUris: b.data.redirect_uris
			});
			return c.json({ success: true, revoked });
		} catch (err) {
			return c.json({ error: (err as Error).message }, 400);
		}
	});
	control.post('/apps/:id/rotate-secret', (c) => {
		try {
			return c.json({ client_secret: oauth.rotateSecret(c.req.param('id')) });
		} catch (err) {
			return c.json({ error: (err as Error).message }, 400);
		}
	});
}

/** Shorten the access tokens' lifetime, revoke authorizations as a streamer would, list them. */
function grantControls(control: Hono, core: SimCore): void {
	const oauth = core.oauth;
	control.post('/access-ttl', async (c) => {
		const b = z
			.object({ seconds: z.number().int().min(1).max(86_400) })
			.safeParse(await c.req.json().catch(() => null));
		if (!b.success) return c.json({ error: describeIssues(b.error) }, 400);
		oauth.accessTtlS = b.data.seconds;
		return c.json({ success: true, seconds: oauth.accessTtlS });
	});
	control.post('/revoke', async (c) => {
		const b = z
			.object({ authorization_id: z.string().optional() })
			.safeParse(await c.req.json().catch(() => ({})));
		if (!b.success) return c.json({ error: describeIssues(b.error) }, 400);
		let revoked = 0;
		for (const a of oauth.authorizations.values())
			if (!b.data.authorization_id || a.id === b.data.authorization_id)
				if (oauth.revokeAuthorization(a.id, 'revoked by the streamer in the dashboard')) revoked++;
		return c.json({ success: true, revoked });
	});
	control.get('/grants', (c) =>
		c.json({
			authorizations: [...oauth.authorizations.values()].map((a) => ({
				id: a.id,
				client_id: a.appId,
				scopes: a.scopes,
				refreshes: a.refreshes,
				revoked: a.revoked
			})),
			log: core.log.oauthEntries()
		})
	);
}

function answer(c: Context, outcome: AuthorizeOutcome, core: SimCore): Response {
	if (outcome.kind === 'redirect') return c.redirect(outcome.location, 302);
	if (outcome.kind === 'fatal')
		// The upstream: an unknown client_id or unregistered redirect_uri is a JSON 400, no redirect.
		return c.json({ error: outcome.error, error_description: outcome.description }, 400, NO_STORE);
	const r = outcome.request;
	const scopes = r.scopes.map((s) => `<li><code>${esc(s)}</code></li>`).join('');
	return c.body(
		`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Authorize ${esc(r.app.name)}</title>
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#111}
.app{font-size:1.3rem;font-weight:600}button{font:inherit;padding:.5rem 1.4rem;margin-right:.8rem;cursor:pointer}
.approve{background:#1d4ed8;color:#fff;border:0;border-radius:4px}.deny{border-radius:4px}
fieldset{margin:0 0 1.2rem;border:1px solid #d4d4d8;border-radius:4px}label{display:block;padding:.3rem 0;cursor:pointer}</style></head>
<body><main>
${core.models.size > 1 ? '' : `<p>Signed in as <strong>${esc(core.model.tenant.name)}</strong> (account owner) on the tip service simulator.</p>`}
<h1><span class="app">${esc(r.app.name)}</span> wants to connect to your account</h1>
<p>${esc(r.app.description)}</p>
<p>It will be able to:</p><ul>${scopes}</ul>
<p>After you decide you go back to <code>${esc(r.redirectUri)}</code>.</p>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="request_id" value="${esc(r.id)}">
${core.models.size > 1 ? whoSignsIn(core) : ''}<button class="approve" type="submit" name="decision" value="approve">Approve</button>
<button class="deny" type="submit" name="decision" value="deny">Deny</button>
</form></main></body></html>`,
		200,
		{
			...PAGE_HEADERS,
			// The form posts here and is then redirected to the app: both must be allowed (Chrome
			// applies form-action to the redirect too).
			'Content-Security-Policy': `${PAGE_HEADERS['Content-Security-Policy']}; form-action 'self' ${formTarget(r.redirectUri)}`
		}
	);
}

/** The hosted demo's accounts: which demo streamer is signing in (the first is preselected). */
function whoSignsIn(core: SimCore): string {
	const choices = [...core.models.values()]
		.map(
			({ tenant }, i) =>
				`<label><input type="radio" name="tenant" value="${esc(tenant.id)}"${i === 0 ? ' checked' : ''}> ${esc(tenant.name)} <small>(${esc(tenant.currency)})</small></label>`
		)
		.join('');
	return `<fieldset><legend>Which demo streamer is signing in?</legend>${choices}</fieldset>`;
}

function formTarget(redirectUri: string): string {
	const u = new URL(redirectUri);
	return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol;
}

function esc(s: string): string {
	return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

async function formOf(c: Context): Promise<URLSearchParams> {
	return new URLSearchParams(await c.req.text());
}

/** Form-encoded (the standard) or JSON (the upstream also accepts it). */
async function bodyOf(c: Context): Promise<unknown> {
	const text = await c.req.text();
	if (text.length > 16 * 1024) throw new OAuthError(400, 'invalid_request', 'body too large');
	if ((c.req.header('content-type') ?? '').includes('application/json')) {
		try {
			return JSON.parse(text);
		} catch {
			throw new OAuthError(400, 'invalid_request', 'body is not valid JSON');
		}
	}
	return Object.fromEntries(new URLSearchParams(text));
}

/** RFC 6749 2.3.1: id and secret are form-encoded, then joined by ':' and base64-encoded. */
function basicAuth(c: Context): { id: string; secret: string } | null {
	const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(c.req.header('authorization') ?? '');
	if (!m) return null;
	const decoded = Buffer.from(m[1], 'base64').toString('utf8');
	const i = decoded.indexOf(':');
	if (i < 0) throw new OAuthError(401, 'invalid_client', 'malformed Basic credentials');
	const un = (s: string) => {
		try {
			return decodeURIComponent(s.replace(/\+/g, ' '));
		} catch {
			throw new OAuthError(401, 'invalid_client', 'malformed Basic credentials');
		}
	};
	return { id: un(decoded.slice(0, i)), secret: un(decoded.slice(i + 1)) };
}

function oauthError(c: Context, err: unknown): Response {
	if (!(err instanceof OAuthError)) throw err;
	const headers: Record<string, string> = { ...NO_STORE };
	if (err.status === 401) headers['WWW-Authenticate'] = 'Basic realm="oauth"';
	return c.json(err.body(), err.status, headers);
}
