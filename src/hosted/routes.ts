// Hosted mode's own pages and actions: the landing page with "Connect your tip page", the OAuth
// callback that signs a streamer in, their dashboard (their overlay URLs, the control room, their
// dock URL and the dock's controls, New overlay key, New control key, Disconnect, Sign out). Everything else (widget pages, /token, /api) is the
// single-streamer app with the overlay key naming the streamer (app.ts resolveKey).
//
// Sessions: a random token in an HttpOnly, SameSite=Lax cookie (session-cookie.ts), stored by
// hash with an expiry. State-changing calls are POSTs whose Origin must be PUBLIC_URL's. The dock
// (/dock, its /control calls) works with the same cookie plus a CSRF token (control.ts).
import { Hono, type Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { Overlay } from '../contract/index.ts';
import { OAuthProblem } from '../server/oauth-errors.ts';
import type { HostedConnections } from './connections.ts';
import { sessionCookie } from './session-cookie.ts';
import type { HostedSignIn } from './signin.ts';
import type { HostedStore, Streamer } from './store.ts';

export interface HostedRouteOptions {
	store: HostedStore;
	signIn: HostedSignIn;
	connections: HostedConnections;
	/** PUBLIC_URL: the origin streamers use. */
	publicUrl: string;
	/** The upstream's OAuth origin, where Connect sends the browser (the forms' CSP). */
	oauthOrigin: string;
	/** Hosted demo: a note on the landing page. */
	demo: boolean;
	/** The streamer's webhook endpoint: registered after a sign-in, forgotten at Disconnect. */
	webhooks?: {
		afterSignIn(streamer: string, scopes: string): Promise<void>;
		forget(streamer: string): Promise<void>;
	};
}

const SESSION_MS = 30 * 24 * 3600_000;
const WIDGETS = [
	['tts', 'Tips read aloud (TTS)'],
	['media', 'Video requests'],
	['counters', 'Chat counters'],
	['celebration', 'Celebration'],
	['recent', 'Recent events'],
	['leaderboard', 'Top supporters']
] as const;

export function hostedRoutes(o: HostedRouteOptions): Hono {
	const app = new Hono();
	const shared = sharedParts(o);
	signInRoutes(app, shared);
	dashboardRoute(app, shared);
	accountRoutes(app, shared);
	return app;
}

/** What every route below uses: the options, the session cookie and the page helpers. */
interface SharedParts {
	o: HostedRouteOptions;
	cookie: ReturnType<typeof sessionCookie>;
	/** One of our pages, with the headers every one of them carries (CSP, no caching). */
	page(c: Context, title: string, body: string, status?: number): Response;
	/** The streamer signed in by this request's session cookie, if any. */
	sessionOf(c: Context): Promise<Streamer | null>;
	/** A POST from one of our own pages: Origin must be PUBLIC_URL's (no cross-site forms). */
	sameOrigin(c: Context): boolean;
	/** The answer to a POST that did not come from our pages. */
	refuse(c: Context): Response;
	/** The page of a sign-in that did not complete. */
	failure(c: Context, err: unknown): Response;
}

function sharedParts(o: HostedRouteOptions): SharedParts {
	const cookie = sessionCookie(o.publicUrl);
	const origin = new URL(o.publicUrl).origin;

	const page = (c: Context, title: string, body: string, status = 200) =>
		c.html(layout(title, body), status as 200, {
			'Cache-Control': 'no-store',
			'Content-Security-Policy': [
				"default-src 'none'",
				"style-src 'unsafe-inline'",
				`form-action 'self' ${o.oauthOrigin}`,
				"frame-ancestors 'none'",
				"base-uri 'none'"
			].join('; '),
			// Not no-referrer: with it Chromium sends `Origin: null` on the pages' own form POSTs.
			'Referrer-Policy': 'same-origin',
			'X-Content-Type-Options': 'nosniff'
		});

	const sessionOf = async (c: Context): Promise<Streamer | null> => {
		const token = cookie.tokenOf(c);
		const id = token ? await o.store.session(token) : null;
		return id ? o.store.streamer(id) : null;
	};

	const failure = (c: Context, err: unknown) => {
		const message =
			err instanceof OAuthProblem ? err.message : 'the sign-in could not be completed: try again';
		if (!(err instanceof OAuthProblem))
			console.error('[hosted] sign-in failed:', err instanceof Error ? err.message : err);
		return page(
			c,
			'Sign-in failed',
			`<h1>Sign-in failed</h1><p>${esc(message)}</p><p><a href="/">Back</a></p>`,
			400
		);
	};

	return {
		o,
		cookie,
		page,
		sessionOf,
		sameOrigin: (c) => c.req.header('origin') === origin,
		refuse: (c) =>
			page(c, 'Refused', '<p>This request did not come from this site’s pages.</p>', 403),
		failure
	};
}

/** The landing page, and signing in (Connect, the OAuth callback) and out. */
function signInRoutes(app: Hono, s: SharedParts): void {
	const { o, page } = s;

	app.get('/', async (c) => {
		const me = await s.sessionOf(c);
		if (me) return c.redirect('/dashboard', 303);
		return page(
			c,
			'Tip Overlay Kit',
			`<h1>Tip Overlay Kit</h1>
<p>Overlays for OBS: every tip read aloud exactly once, viewers' video requests, tip goals, chat
counters and celebrations, for your tip page on the tipping service.</p>
<p>Sign in with your tip page and paste the URLs you get into OBS as browser sources. No
download, no API key to copy.</p>
${o.demo ? '<p class="note">Demo: the tipping service here is a simulator with demo streamers.</p>' : ''}
<form method="post" action="/auth/start"><button>Connect your tip page</button></form>`
		);
	});

	app.post('/auth/start', async (c) => {
		if (!s.sameOrigin(c)) return s.refuse(c);
		try {
			return c.redirect(await o.signIn.start(), 303);
		} catch (err) {
			return s.failure(c, err);
		}
	});

	app.get('/auth/callback', async (c) => {
		let streamer: Streamer & { scopes: string };
		try {
			streamer = await o.signIn.finish(new URL(c.req.url).searchParams);
		} catch (err) {
			return s.failure(c, err);
		}
		// A re-authorization replaced the grant: the cached client must read the new one.
		o.connections.forget(streamer.id);
		await o.webhooks?.afterSignIn(streamer.id, streamer.scopes);
		const token = await o.store.createSession(streamer.id, SESSION_MS);
		setCookie(c, s.cookie.name, token, {
			httpOnly: true,
			sameSite: 'Lax',
			secure: s.cookie.secure,
			path: '/',
			maxAge: SESSION_MS / 1000
		});
		return c.redirect('/dashboard', 303);
	});

	app.post('/auth/signout', async (c) => {
		if (!s.sameOrigin(c)) return s.refuse(c);
		const token = s.cookie.tokenOf(c);
		if (token) await o.store.endSession(token);
		deleteCookie(c, s.cookie.name, { path: '/', secure: s.cookie.secure });
		return c.redirect('/', 303);
	});
}

/** The signed-in streamer's dashboard: their overlay URLs, or Reconnect when they are off. */
function dashboardRoute(app: Hono, s: SharedParts): void {
	const { o } = s;
	app.get('/dashboard', async (c) => {
		const me = await s.sessionOf(c);
		if (!me) return c.redirect('/', 303);
		const key = me.status === 'connected' ? await o.store.overlayKey(me.id) : null;
		if (!key) return s.page(c, 'Dashboard', reconnectBody(me));
		const url = (path: string) => `${o.publicUrl}${path}?key=${encodeURIComponent(key)}`;
		const [overlays, controlKey] = await Promise.all([
			listOverlays(o.connections, me.id),
			o.store.controlKey(me.id)
		]);
		const dockUrl = controlKey && `${o.publicUrl}/dock?key=${encodeURIComponent(controlKey)}`;
		return s.page(c, 'Dashboard', dashboardBody(me, url, overlays, dockUrl));
	});
}

/** The account's actions on the dashboard: New overlay key, New control key and Disconnect. */
function accountRoutes(app: Hono, s: SharedParts): void {
	const { o } = s;

	/** A form of the dashboard: from our own pages only, by a signed-in streamer; back to it after. */
	const action = (path: string, act: (me: Streamer) => Promise<unknown>) =>
		app.post(path, async (c) => {
			if (!s.sameOrigin(c)) return s.refuse(c);
			const me = await s.sessionOf(c);
			if (!me) return c.redirect('/', 303);
			await act(me);
			return c.redirect('/dashboard', 303);
		});

	action('/account/new-key', async (me) => {
		if (me.status === 'connected') await o.store.newOverlayKey(me.id);
	});
	action('/account/new-control-key', async (me) => {
		if (me.status === 'connected') await o.store.newControlKey(me.id);
	});
	// Forgotten here, then revoked at the upstream (best effort: whatever it answers).
	action('/account/disconnect', async (me) => {
		// Its endpoint first, while the authorization still works to delete it upstream.
		await o.webhooks?.forget(me.id);
		await o.connections.disconnect(me.id);
	});
}

/** The dashboard of a streamer whose overlay URLs are off (disconnected, or authorization ended). */
function reconnectBody(me: Streamer): string {
	return `${header(me)}
<p class="warn">${
		me.status === 'disconnected'
			? 'You disconnected this tip page: its overlay URLs are off.'
			: 'The authorization of this tip page ended (revoked in the tipping service, or its scopes changed). Reconnect to bring your overlays back.'
	}</p>
<form method="post" action="/auth/start"><button>Reconnect</button></form>
${signOut()}`;
}

/**
 * The dashboard of a connected streamer: `url` adds their overlay key to one of our paths;
 * `dockUrl` carries their control key.
 */
function dashboardBody(
	me: Streamer,
	url: (path: string) => string,
	overlays: Overlay[] | null,
	dockUrl: string | null
): string {
	return `${header(me)}
<p><a class="button" href="${esc(url('/preview'))}">Open the control room</a>
<span class="note">Your overlays live, queues, last events, test tips.</span></p>
<h2>Overlays</h2>
${
	overlays === null
		? '<p class="warn">The tipping service did not list your overlays just now.</p>'
		: overlays.length === 0
			? '<p>No overlays yet: create one in the tipping service.</p>'
			: `<ul>${overlays
					.map(
						(ov) =>
							`<li><strong>${esc(ov.name)}</strong> (${ov.width} × ${ov.height})${urlBox(url(`/overlay/${ov.id}`), `OBS URL of ${ov.name}`, 'data-overlay-url')}</li>`
					)
					.join('')}</ul>`
}
<h2>Widgets one by one</h2>
<ul>${WIDGETS.map(
		([w, label]) =>
			`<li>${label}${urlBox(url(`/widget/${w}`), `OBS URL: ${label}`, 'data-widget-url')}</li>`
	).join('')}</ul>
<p class="note">A click selects a whole URL. Add each in OBS as a browser source (1920x1080,
“Control audio via OBS” ticked). The URLs carry your overlay key: keep them to yourself.</p>
${dockSection(dockUrl)}
<h2>Your account</h2>
<form method="post" action="/account/new-key"><button>New overlay key</button>
<span class="note">The old URLs stop working within a second; OBS sources still using them show that they were replaced.</span></form>
<form method="post" action="/account/disconnect"><button>Disconnect</button>
<span class="note">Ends this app’s access to your tip page and turns your overlay URLs off.</span></form>
${signOut()}`;
}

/** The dock: its controls here, its URL for OBS, and New control key. */
function dockSection(dockUrl: string | null): string {
	return `<h2>Dock</h2>
<p><a class="button" href="/dock">Open the controls</a>
<span class="note">Now playing, Skip, Pause, Remove and Replay for your tips and videos, in this browser while you are signed in.</span></p>
<p>Moderation is in the dock too: the tips your rules hold for you to approve, and
<a href="/dock#rules" data-rules-link>the rules</a> (blocked words and names, links, amounts).</p>
<p><a class="button" href="/editor" data-settings-link>Settings</a>
<span class="note">Your widgets' looks, alert tiers, sounds and images, stored with your account: your OBS sources follow a save at once, their URLs unchanged.</span></p>
${
	dockUrl
		? `<p>Your dock URL${urlBox(dockUrl, 'Dock URL for OBS', 'data-dock-url')}</p>
<p class="note">In OBS: Docks › Custom Browser Docks…, type a name (Tips), paste this URL, Apply.
The dock opens beside your scenes. It carries your control key, which can skip, remove and pause:
never show it on stream. Your overlay URLs cannot do any of this.</p>
<form method="post" action="/account/new-control-key"><button>New control key</button>
<span class="note">The old dock URL stops at once; paste the new one into OBS.</span></form>`
		: ''
}`;
}

async function listOverlays(connections: HostedConnections, streamerId: string) {
	try {
		const res = await connections.upstream(streamerId).call('GET', '/overlays');
		if (!res.ok) return null;
		const body = (await res.json()) as { overlays?: unknown[] };
		return (body.overlays ?? []).flatMap((raw) => {
			const parsed = Overlay.safeParse(raw);
			return parsed.success ? [parsed.data] : [];
		});
	} catch {
		return null;
	}
}

/** A URL to copy: wraps on narrow screens, and one click selects all of it (no script needed). */
function urlBox(value: string, label: string, attr: string): string {
	return `<code class="url" tabindex="0" aria-label="${esc(label)}" ${attr}>${esc(value)}</code>`;
}

function header(me: Streamer): string {
	return `<h1>${esc(me.name)}</h1><p class="note">Tip page currency: ${esc(me.currency)}</p>`;
}

function signOut(): string {
	return '<form method="post" action="/auth/signout"><button>Sign out</button></form>';
}

/** Text into HTML: every character that could start markup or end an attribute is escaped. */
export function esc(text: string): string {
	return text.replace(
		/[&<>"']/g,
		(ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!
	);
}

function layout(title: string, body: string): string {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>
<style>
body{margin:0 auto;max-width:46rem;padding:2rem 1rem;font:16px/1.5 system-ui,sans-serif;background:#111114;color:#e4e4e7}
a{color:#facc15}h1{margin-top:0}.note{color:#a1a1aa;font-size:.9rem}.warn{color:#fca5a5}
.url{display:block;margin-top:.3rem;padding:.4rem .5rem;font:13px/1.4 ui-monospace,monospace;background:#09090b;color:#e4e4e7;border:1px solid #52525b;border-radius:.4rem;word-break:break-all;user-select:all;-webkit-user-select:all;cursor:copy}
li{margin:.7rem 0}ul{padding-left:1.2rem}form{margin:1rem 0}form .note,p>.note{display:block;margin-top:.3rem}
button,.button{display:inline-block;padding:.45rem .9rem;border:1px solid #52525b;border-radius:.5rem;background:#27272a;color:inherit;font:inherit;cursor:pointer;text-decoration:none}
button:focus-visible,.button:focus-visible,.url:focus-visible{outline:3px solid #facc15;outline-offset:2px}
</style></head><body><main>${body}</main></body></html>`;
}
