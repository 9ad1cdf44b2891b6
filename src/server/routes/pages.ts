// The built pages: one per widget, the overlay (all of a scene's widgets), the preview, the dock, the
// settings editor and the index, each sent with a Content-Security-Policy and no caching; then the
// built static files.
// A page a build does not contain, or an id that cannot exist, is an HTML 404.
import type { Context, Hono } from 'hono';
import { OVERLAY_ID, SETTINGS_WIDGETS } from '../../contract/index.ts';
import type { AppOptions } from '../app-options.ts';

/** The /widget/{type} pages: the widgets that have stored settings, one page each. */
export const WIDGET_PAGES = SETTINGS_WIDGETS;

const PAGE_HEADERS = {
	'Content-Type': 'text/html; charset=utf-8',
	'Cache-Control': 'no-store',
	// The page URL carries the overlay key: send only the origin to other sites (YouTube needs one).
	'Referrer-Policy': 'strict-origin-when-cross-origin',
	'X-Content-Type-Options': 'nosniff',
	'Content-Security-Policy': [
		"default-src 'self'",
		"script-src 'self' https://www.youtube.com https://s.ytimg.com",
		"style-src 'self' 'unsafe-inline'",
		'img-src * data: blob:',
		'media-src * data: blob:',
		"connect-src 'self' ws: wss: http: https:",
		"frame-src 'self' https://www.youtube.com https://www.youtube-nocookie.com",
		"object-src 'none'",
		"base-uri 'none'"
	].join('; ')
};

export function pageRoutes(app: Hono, opts: Pick<AppOptions, 'readPage' | 'staticFiles'>) {
	const page = async (
		c: Context,
		name: string,
		headers: Record<string, string> = PAGE_HEADERS
	): Promise<Response> => {
		const html = await opts.readPage(name);
		if (html === null) return notFoundPage(c);
		return c.body(html, 200, headers);
	};

	app.get('/widget/:type', async (c) => {
		const type = c.req.param('type');
		if (!(WIDGET_PAGES as readonly string[]).includes(type)) return notFoundPage(c);
		return page(c, `widget-${type}`);
	});
	// The page reads its id from the URL: an id that cannot exist is refused here, not in the page.
	app.get('/overlay/:overlayId', (c) =>
		OVERLAY_ID.test(c.req.param('overlayId')) ? page(c, 'overlay') : notFoundPage(c)
	);
	app.get('/preview', (c) => page(c, 'preview'));
	// The dock's URL carries the control key: no Referer at all, not even the origin.
	app.get('/dock', (c) => page(c, 'dock', { ...PAGE_HEADERS, 'Referrer-Policy': 'no-referrer' }));
	// The settings editor's URL carries the control key too.
	app.get('/editor', (c) =>
		page(c, 'editor', { ...PAGE_HEADERS, 'Referrer-Policy': 'no-referrer' })
	);
	app.get('/', (c) => page(c, 'index'));
	if (opts.staticFiles) app.use('*', opts.staticFiles);
}

/** A page is for a person in a browser: its 404 is a line of HTML, not the JSON the calls get. */
function notFoundPage(c: Context): Response {
	return c.html(
		'<!doctype html><meta charset="utf-8"><title>Not found</title><p>This page is not part of this build.</p>',
		404
	);
}
