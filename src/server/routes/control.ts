// /control/*: the streamer's dock (docs/dock.md), every route behind the control credential
// (control-key.ts) except GET /control/session, which hands a signed-in hosted dashboard its CSRF
// token, and GET /control/live, the push channel, whose credential comes in its socket's first
// frame (live/sockets.ts). The dock's token, its reads (an allowlist of its own: /api stays the
// widgets'), its actions (control-actions.ts, one at a time per streamer) and a new control key.
import { Hono, type Context } from 'hono';
import { isActionName, type ActionName } from '../../contract/control.ts';
import { actionBody, CONTROL_BODIES } from '../../contract/control-bodies.ts';
import { matchRoute, type RouteName } from '../../contract/index.ts';
import type { AppOptions } from '../app-options.ts';
import { CONTROL_ACTIONS } from '../control-actions.ts';
import { localControlLock, type ControlLock } from '../control-lock.ts';
import { HttpError } from '../http-error.ts';
import type { KeyGuard } from './key-guard.ts';
import { controlKeyCheck, type ControlEnv } from './control-key.ts';
import { jsonInput, limitOf } from './control-input.ts';
import { refuseBody } from './guards.ts';
import { forwardedQuery, passThrough } from './proxy.ts';
import type { LiveSockets } from '../live/sockets.ts';
import { isModeratedRoute, type Moderator } from '../moderation/moderator.ts';
import { moderationRoutes } from './moderation.ts';
import type { SettingsStore } from '../settings/store.ts';
import { controlSettingsRoutes } from './settings.ts';
import { showRoutes } from './show.ts';
import { chatRoutes } from './chat.ts';
import type { Thanker } from '../chat/thanker.ts';
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
 * The reads the dock makes (GET only): the snapshots it shows, the counters and the overlays' tip
 * goals, nothing else; and the overlays, which the dock and the settings editor's page list.
 */
const DOCK_READS: ReadonlySet<RouteName> = new Set([
	'me',
	'overlaysList',
	'ttsQueue',
	'ttsHistory',
	'mediaQueue',
	'mediaHistory',
	'tipping',
	'countersList',
	'tipGoalRead'
]);

const NO_STORE = { 'Cache-Control': 'no-store' };

/** What the dock's routes share with the widgets' (app.ts): one store of each, one push channel. */
interface ControlParts {
	moderator: Moderator;
	live: LiveSockets;
	settings: SettingsStore;
	thanker: Thanker;
}

export function controlRoutes(
	app: Hono,
	opts: ControlOptions,
	guard: KeyGuard,
	parts: ControlParts
) {
	const { moderator, live, settings, thanker } = parts;
	const { requireControl, replaceKey } = controlKeyCheck(opts, guard);
	const lock = opts.controlLock ?? localControlLock();
	const control = new Hono<ControlEnv>();

	control.get('/session', async (c) => {
		if (!opts.sessionCsrf) throw new HttpError(404, 'not_found', 'not found');
		const csrf = await opts.sessionCsrf(c);
		if (csrf === null) throw new HttpError(401, 'not_signed_in', 'sign in on the dashboard first');
		return c.json({ csrf }, 200, NO_STORE);
	});
	control.get(
		'/live',
		live.route(requireControl, (c: Context<ControlEnv>) => c.var.caller)
	);
	control.use('*', requireControl);

	control.post('/token', limitOf(CONTROL_BODIES.token), async (c) => {
		await refuseBody(c);
		return mintToken(c, c.var.caller.upstream);
	});

	control.all('/api/*', async (c) => {
		const url = new URL(c.req.url);
		const path = url.pathname.slice('/control/api'.length);
		const match = matchRoute(c.req.method, path);
		if (c.req.method !== 'GET' || !match || !DOCK_READS.has(match.name))
			throw new HttpError(404, 'not_forwarded', 'the dock does not read this');
		const query = forwardedQuery(match.route, url);
		const { streamer, upstream } = c.var.caller;
		const res = await upstream.call('GET', path + query);
		const name = match.name;
		if (!isModeratedRoute(name)) return passThrough(res);
		return passThrough(res, (body) => moderator.rewrite(streamer, upstream, name, body, 'dock'));
	});

	moderationRoutes(control, moderator);
	controlSettingsRoutes(control, settings, opts.checkSettings);

	actionRoutes(control, lock);
	showRoutes(control);
	chatRoutes(control, thanker);

	control.post('/new-key', limitOf(CONTROL_BODIES.newKey), async (c) => {
		await refuseBody(c);
		// In the lock: a new key is never made while an action of the old one runs half-way.
		const key = await lock(c.var.caller.streamer, replaceKey);
		return c.json({ key }, 200, NO_STORE);
	});

	app.route('/control', control);
}

/** POST /control/actions/:action (control-actions.ts), one at a time per streamer. */
function actionRoutes(control: Hono<ControlEnv>, lock: ControlLock) {
	control.post(
		'/actions/:action',
		(c, next) => {
			if (!isActionName(c.req.param('action')))
				throw new HttpError(404, 'not_found', 'no such dock action');
			return next();
		},
		limitOf(CONTROL_BODIES.action),
		jsonInput((c) => {
			const { body, message } = actionBody(c.req.param('action') as ActionName);
			return {
				schema: body,
				optional: true,
				refuse: () => new HttpError(400, 'bad_request', message)
			};
		}),
		async (c) => {
			const action = CONTROL_ACTIONS[c.req.param('action') as ActionName];
			const body = c.req.valid('json') as { order_id?: string };
			const { streamer, upstream } = c.var.caller;
			const outcome = await lock(streamer, () =>
				action.order ? action.run(upstream, body.order_id!) : action.run(upstream)
			);
			return c.json(outcome, 200, NO_STORE);
		}
	);
}
