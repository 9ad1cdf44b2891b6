// The token endpoint's OAuth routes (mounted under /oauth by app.ts): Connect, the callback the
// upstream redirects to, the status the preview shows, and Disconnect. All but the callback need the
// overlay key in a header (which a cross-site page cannot send: CORS is closed); the callback is
// trusted only with a state that a Connect of this server started.
import { Hono, type MiddlewareHandler } from 'hono';
import { HttpError } from './http-error.ts';
import { OAuthProblem } from './oauth-errors.ts';
import type { OAuthConnection } from './oauth-client.ts';

export interface OAuthRouteOptions {
	connection: OAuthConnection;
	overlayKey: string;
	requireKey: MiddlewareHandler;
	/** An API key is configured too: it is used while OAuth is not connected. */
	hasApiKey: boolean;
}

export function oauthRoutes(o: OAuthRouteOptions): Hono {
	const app = new Hono();
	const { connection } = o;

	app.get('/status', o.requireKey, async (c) => {
		const status = await connection.status();
		return c.json({
			...status,
			using: status.state === 'connected' ? 'oauth' : o.hasApiKey ? 'api_key' : 'none'
		});
	});

	app.post('/connect', o.requireKey, async (c) => {
		let url: string;
		try {
			url = await connection.start();
		} catch (err) {
			throw refusal(err);
		}
		// Ask the upstream before sending the streamer there: an unknown client id or an unregistered
		// redirect URI is answered as a JSON 400 (docs/oauth.md), which is better shown here, with
		// what to fix, than as raw JSON on the upstream's page.
		const refused = await connection.preflight(url);
		if (refused) throw refusal(refused);
		return c.json({ authorize_url: url });
	});

	app.get('/callback', async (c) => {
		try {
			await connection.callback(new URL(c.req.url).searchParams);
		} catch (err) {
			if (err instanceof OAuthProblem && err.code === 'bad_state')
				// Not started here: no way back to the preview (its URL carries the overlay key).
				return c.html(
					`<!doctype html><meta charset="utf-8"><title>Not connected</title><p>${err.message.replace(/[<>&]/g, '')}</p>`,
					400
				);
			// Denied, refused or failed: the preview shows why (GET /oauth/status, last_error).
		}
		const back = `/preview?key=${encodeURIComponent(o.overlayKey)}`;
		return c.redirect(back, 303);
	});

	app.post('/disconnect', o.requireKey, async (c) => {
		const result = await connection.disconnect();
		return c.json({ success: true, ...result });
	});

	return app;
}

/** An OAuth problem is the streamer's to fix (a 400 saying what); anything else is unexpected. */
function refusal(err: unknown): unknown {
	return err instanceof OAuthProblem ? new HttpError(400, err.code, err.message) : err;
}
