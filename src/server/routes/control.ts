// /control/*: the streamer's dock (docs/dock.md), every route behind the control credential
// (control-key.ts) except GET /control/session, which hands a signed-in hosted dashboard its CSRF
// token, and GET /control/live, the push channel, whose credential comes in its socket's first
// frame (live/sockets.ts). The dock's token, its reads (an allowlist of its own: /api stays the
// widgets'), its actions (control-actions.ts, one at a time per streamer) and a new control key.
import { Hono, type Context } from 'hono';
import { matchRoute, OrderId, type RouteName } from '../../contract/index.ts';
import type { AppOptions } from '../app-options.ts';
import { CONTROL_ACTIONS, upstreamUnavailable } from '../control-actions.ts';
import { localControlLock } from '../control-lock.ts';
import { errorResponse, HttpError } from '../http-error.ts';
import type { KeyGuard } from './key-guard.ts';
import { UpstreamUnavailable } from '../upstream.ts';
import { controlKeyCheck } from './control-key.ts';
import { MAX_BODY, refuseBody, tooLarge } from './guards.ts';
import { forwardedQuery, passThrough } from './proxy.ts';
import type { LiveSockets } from '../live/sockets.ts';
import { isModeratedRoute, type Moderator } from '../moderation/moderator.ts';
import { moderationRoutes } from './moderation.ts';
import type { SettingsStore } from '../settings/store.ts';
import { controlSettingsRoutes } from './settings.ts';
import { mintToken } from './token.ts';

type ControlOptions = Pick<
	AppOptions,
	| 'upstream'
	| 'controlKey'
	| 'newControlKey'
	| 'resolveControl'
	| 'sessionCsrf'
	| 'controlLock'
	| 'checkSettings'
>;

/**
 * The reads the dock makes (GET only): the snapshots it shows, nothing else; and the overlays, which
 * the settings editor's page (/editor) lists.
 */
const DOCK_READS: ReadonlySet<RouteName> = new Set([
	'me',
	'overlaysList',
	'ttsQueue',
	'ttsHistory',
	'mediaQueue',
	'mediaHistory',
	'tipping'
]);

const NO_STORE = { 'Cache-Control': 'no-store' };

/** What the dock's routes share with the widgets' (app.ts): one store of each, one push channel. */
interface ControlParts {
	moderator: Moderator;
	live: LiveSockets;
	settings: SettingsStore;
}

export function controlRoutes(
	app: Hono,
	opts: ControlOptions,
	guard: KeyGuard,
	parts: ControlParts
) {
	const { moderator, live, settings } = parts;
	const { requireControl, accessOf, replaceKey } = controlKeyCheck(opts, guard);
	const lock = opts.controlLock ?? localControlLock();
	const control = new Hono();
	// The dock tells "try again" from a refusal by this code (the widgets' /api keeps its own).
	control.onError((err, c) =>
		errorResponse(c, err instanceof UpstreamUnavailable ? upstreamUnavailable() : err)
	);

	control.get('/session', async (c) => {
		if (!opts.sessionCsrf) throw new HttpError(404, 'not_found', 'not found');
		const csrf = await opts.sessionCsrf(c);
		if (csrf === null) throw new HttpError(401, 'not_signed_in', 'sign in on the dashboard first');
		return c.json({ csrf }, 200, NO_STORE);
	});
	control.get('/live', live.route(requireControl, accessOf));
	control.use('*', requireControl);

	control.post('/token', async (c) => {
		await refuseBody(c);
		return mintToken(c, accessOf(c).upstream);
	});

	control.all('/api/*', async (c) => {
		const url = new URL(c.req.url);
		const path = url.pathname.slice('/control/api'.length);
		const match = matchRoute(c.req.method, path);
		if (c.req.method !== 'GET' || !match || !DOCK_READS.has(match.name))
			throw new HttpError(404, 'not_forwarded', 'the dock does not read this');
		const query = forwardedQuery(match.route, url);
		const { streamer, upstream } = accessOf(c);
		const res = await upstream.call('GET', path + query);
		const name = match.name;
		if (!isModeratedRoute(name)) return passThrough(res);
		return passThrough(res, (body) => moderator.rewrite(streamer, upstream, name, body, 'dock'));
	});

	moderationRoutes(control, moderator, accessOf);
	controlSettingsRoutes(control, settings, accessOf, opts.checkSettings);

	control.post('/actions/:action', async (c) => {
		const name = c.req.param('action');
		const action = Object.hasOwn(CONTROL_ACTIONS, name) ? CONTROL_ACTIONS[name] : undefined;
		if (!action) throw new HttpError(404, 'not_found', 'no such dock action');
		const orderId = await actionBody(c, action.order);
		const { streamer, upstream } = accessOf(c);
		const outcome = await lock(streamer, () =>
			action.order ? action.run(upstream, orderId!) : action.run(upstream)
		);
		return c.json(outcome, 200, NO_STORE);
	});

	control.post('/new-key', async (c) => {
		await refuseBody(c);
		// In the lock: a new key is never made while an action of the old one runs half-way.
		const key = await lock(accessOf(c).streamer, replaceKey);
		return c.json({ key }, 200, NO_STORE);
	});

	app.route('/control', control);
}

const badBody = (order: boolean) =>
	new HttpError(
		400,
		'bad_request',
		order ? 'expected a JSON body { "order_id": "<order id>" }' : 'expected no body, or {}'
	);

/** The action's order id from its JSON body (checked with OrderId), or null for the others. */
async function actionBody(c: Context, order: boolean): Promise<string | null> {
	if (!order) {
		// An empty object is what a client that always sends JSON sends.
		const text = await c.req.text();
		if (text.trim() !== '' && text.trim() !== '{}') throw badBody(false);
		return null;
	}
	const text = await c.req.text();
	if (text.length > MAX_BODY) throw tooLarge();
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		throw badBody(true);
	}
	const orderId = OrderId.safeParse((body as { order_id?: unknown } | null)?.order_id);
	if (!orderId.success) throw badBody(true);
	return orderId.data;
}
