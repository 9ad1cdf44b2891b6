// /control/*: the streamer's dock (docs/dock.md), every route behind the control credential
// (control-key.ts) except GET /control/session, which hands a signed-in hosted dashboard its CSRF
// token, and GET /control/live, the push channel, whose credential comes in its socket's first
// frame (live/sockets.ts). The dock's token, its reads (an allowlist of its own: /api stays the
// widgets'; answered from the streamer's live view where it can, as the pages' are), its actions
// (control-actions.ts, one at a time per streamer) and a new control key.
import { Hono } from 'hono';
import { CONTROL, type ActionName } from '../../contract/control.ts';
import { actionBody } from '../../contract/control-bodies.ts';
import { matchRoute, type RouteName } from '../../contract/index.ts';
import type { AppOptions } from '../app-options.ts';
import type { CallerEnv } from '../caller.ts';
import { CONTROL_ACTIONS } from '../control-actions.ts';
import type { ControlLock } from '../control-lock.ts';
import type { CommandsStore } from '../commands/store.ts';
import { commandRoutes } from './commands.ts';
import { HttpError } from '../http-error.ts';
import type { KeyGuard } from './key-guard.ts';
import { controlKeyCheck } from './control-key.ts';
import { serve } from './control-input.ts';
import { checkedQuery, passThrough } from './proxy.ts';
import { answerFromIntake, SEEN_EVENT_HEADER, seenEvents } from '../intake/page-reads.ts';
import type { LiveSockets } from '../live/sockets.ts';
import { isModeratedRoute, type Moderator } from '../moderation/moderator.ts';
import { moderationRoutes } from './moderation.ts';
import type { SettingsStore } from '../settings/store.ts';
import { controlSettingsRoutes } from './settings.ts';
import { showRoutes } from './show.ts';
import { chatRoutes } from './chat.ts';
import { activityRoutes } from './activity.ts';
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
	| 'intakeOf'
	| 'activity'
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

/** What the dock's routes share with the widgets' (app.ts): one store of each, one push channel. */
interface ControlParts {
	moderator: Moderator;
	live: LiveSockets;
	settings: SettingsStore;
	thanker: Thanker;
	lock: ControlLock;
	commands: CommandsStore;
}

/** The /control app, every route of CONTROL (src/contract/control.ts), for app.ts to mount. */
export function controlRoutes(
	opts: ControlOptions,
	guard: KeyGuard,
	parts: ControlParts
): Hono<CallerEnv> {
	const { moderator, live, settings, thanker, lock } = parts;
	const { requireControl, replaceKey } = controlKeyCheck(opts, guard);
	const control = new Hono<CallerEnv>();

	serve(control, 'session', async (c) => {
		if (!opts.sessionCsrf) throw new HttpError(404, 'not_found', 'not found');
		const csrf = await opts.sessionCsrf(c);
		if (csrf === null) throw new HttpError(401, 'not_signed_in', 'sign in on the dashboard first');
		return c.json({ csrf });
	});
	control.on(CONTROL.live.method, CONTROL.live.path, live.route(requireControl));
	control.use('*', requireControl);

	serve(control, 'token', (c) => mintToken(c, c.var.caller.upstream));
	serve(control, 'read', async (c) => {
		const url = new URL(c.req.url);
		const path = url.pathname.slice('/control/api'.length);
		const match = matchRoute('GET', path);
		// HEAD too reaches a GET route.
		if (c.req.method !== 'GET' || !match || !DOCK_READS.has(match.name)) throw notRead();
		const { query, parsed } = checkedQuery(match.route, url);
		const { streamer, upstream } = c.var.caller;
		const name = match.name;
		// What the streamer's intake answers (its view, the account it read), as a page's read is
		// answered (routes/proxy.ts): the dock's reads cost the upstream nothing either.
		const source = opts.intakeOf?.(streamer) ?? null;
		if (name === 'me' && source?.account) return passThrough(await source.account.read(() => {}));
		const seen = seenEvents(c.req.header(SEEN_EVENT_HEADER));
		const answer = source && (await answerFromIntake(source, name, match.params, parsed, { seen }));
		const res = answer !== null ? Response.json(answer) : await upstream.call('GET', path + query);
		if (!isModeratedRoute(name)) return passThrough(res);
		// Moderated for the dock, from the view or not: held tips shown as held, removed ones left out.
		return passThrough(res, (body) => moderator.rewrite(streamer, upstream, name, body, 'dock'));
	});
	// The dock only reads through /control/api.
	control.all(CONTROL.read.path, () => {
		throw notRead();
	});

	control.route('/', moderationRoutes(moderator));
	control.route('/', controlSettingsRoutes(settings, opts.checkSettings));
	actionRoute(control, lock);
	control.route('/', showRoutes());
	control.route('/', chatRoutes(thanker));
	if (opts.activity) control.route('/', activityRoutes(opts.activity, lock));
	control.route('/', commandRoutes(parts.commands, lock));

	serve(control, 'newKey', async (c) =>
		// In the lock: a new key is never made while an action of the old one runs half-way.
		c.json({ key: await lock(c.var.caller.streamer, replaceKey) })
	);
	return control;
}

const notRead = () => new HttpError(404, 'not_forwarded', 'the dock does not read this');

/** POST /control/actions/:action (control-actions.ts), one at a time per streamer. */
function actionRoute(control: Hono<CallerEnv>, lock: ControlLock) {
	serve(
		control,
		'action',
		async (c, { params, body }) => {
			const action = CONTROL_ACTIONS[params.action];
			const { order_id: orderId } = body as { order_id?: string };
			const { streamer, upstream } = c.var.caller;
			return c.json(
				await lock(streamer, () =>
					action.order ? action.run(upstream, orderId!) : action.run(upstream)
				)
			);
		},
		{
			body: (c) => {
				const { body, message } = actionBody(c.req.param('action') as ActionName);
				return {
					schema: body,
					optional: true,
					refuse: () => new HttpError(400, 'bad_request', message)
				};
			}
		}
	);
}
