// POST /token: mints a realtime handoff token with the upstream key (or OAuth token), so a page can
// open the upstream's realtime connection without ever holding the key. What it answers is a schema
// with room for nothing else (STYLE.md, secrets stop at the server).
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { HandoffToken, ROUTES } from '../../contract/index.ts';
import { HttpError } from '../http-error.ts';
import { bodyBytes, type UpstreamClient } from '../upstream.ts';
import { refuseBody } from './guards.ts';
import type { RequireKey } from './overlay-key.ts';
import { passThrough } from './proxy.ts';

/** What POST /token answers: a schema with no room for anything else (the key above all). */
const TokenResponse = z.object({
	token: z.string(),
	ws_url: z.string(),
	expires_at: z.string()
});

const utf8 = new TextDecoder();

export function tokenRoute(app: Hono, requireKey: RequireKey) {
	app.post('/token', requireKey, async (c) => {
		await refuseBody(c);
		return mintToken(c, c.var.caller.upstream);
	});
}

/**
 * The answer to a page's (or the dock's) token request: a handoff token minted with `upstream`'s
 * credential, its ws_url and expiry; the upstream's refusal (a scope, its rate limit) as it was sent.
 */
export async function mintToken(c: Context, upstream: UpstreamClient): Promise<Response> {
	const res = await upstream.call('POST', ROUTES.realtimeToken.path);
	if (!res.ok) return passThrough(res);
	// The bytes keepAliveFetch holds (Response.json() would stream them through undici again).
	const minted = HandoffToken.safeParse(
		await bodyBytes(res)
			.then((b) => JSON.parse(utf8.decode(b)) as unknown)
			.catch(() => null)
	);
	if (!minted.success)
		throw new HttpError(502, 'bad_upstream_answer', 'the upstream answered with no handoff token');
	return c.json(
		TokenResponse.parse({
			token: minted.data.token,
			ws_url: upstream.wsUrl,
			expires_at: minted.data.expires_at
		})
	);
}
