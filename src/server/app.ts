// The token endpoint as a web-standard Request -> Response app (Hono). It holds the upstream key via
// UpstreamClient, mints realtime handoff tokens for pages, forwards the contract's allowlist of
// calls, and serves the built pages. Only serve.ts touches node:http. Each concern's routes are in
// routes/; this file puts them in order, and every error reaches the one handler in http-error.ts.
import { Hono } from 'hono';
import type { AppOptions } from './app-options.ts';
import { errorResponse, HttpError } from './http-error.ts';
import { oauthRoutes } from './oauth-routes.ts';
import { demoActionRoutes } from './routes/demo-actions.ts';
import { guardRequests } from './routes/guards.ts';
import { healthRoute } from './routes/health.ts';
import { KeyGuard } from './routes/key-guard.ts';
import { overlayKeyCheck } from './routes/overlay-key.ts';
import { controlRoutes } from './routes/control.ts';
import { pageRoutes } from './routes/pages.ts';
import { proxyRoutes } from './routes/proxy.ts';
import { limitReads } from './routes/read-limit.ts';
import { tokenRoute } from './routes/token.ts';
import { MemoryPushChannel } from './live/push-channel.ts';
import { LiveSockets } from './live/sockets.ts';
import { chatFile } from './chat/store.ts';
import { Thanker } from './chat/thanker.ts';
import { moderationFile } from './moderation/store.ts';
import { Moderator } from './moderation/moderator.ts';
import { settingsRoute } from './routes/settings.ts';
import { settingsFile } from './settings/store.ts';
import { activityModeration } from './activity/moderation.ts';
import { CommandRunner } from './commands/runner.ts';
import { commandsFile } from './commands/store.ts';
import { localControlLock } from './control-lock.ts';

export type { AppOptions } from './app-options.ts';
export { WIDGET_PAGES } from './routes/pages.ts';

export function createApp(opts: AppOptions): Hono {
	const app = new Hono();
	// One limit on wrong keys of either kind: guessing control keys costs as much as overlay keys.
	const guard = new KeyGuard(opts);
	const key = limitReads(overlayKeyCheck(opts, guard), opts);
	// The push channel (live/): what both stores publish, every page's socket hears.
	const push = new MemoryPushChannel();
	const moderator = new Moderator(opts.moderation ?? moderationFile(null, push));
	const settings = opts.settings ?? settingsFile(null, push);
	const thanker = opts.thanker ?? singleThanker(opts, moderator, push);
	const commands = opts.commands ?? commandsFile(null, push);
	const pushes = [moderator.store.push, settings.push, thanker.store.push, commands.push];
	if (opts.activity) opts.activity.useModeration(activityModeration(moderator));
	const live = new LiveSockets(...pushes, ...(opts.activity ? [opts.activity.push] : []));
	const lock = opts.controlLock ?? localControlLock();
	const runner = new CommandRunner({
		store: commands,
		moderator,
		lock,
		upstreamOf: opts.upstreamOf ?? (() => opts.upstream)
	});
	opts.events?.listen((streamer, event) => runner.heard(streamer, event));
	// Order matters: the guards run first, hosted mode's routes come ahead of the widget routes, and
	// the static files come after every page route.
	guardRequests(app, opts);
	if (opts.routes) app.route('/', opts.routes);
	healthRoute(app, opts);
	tokenRoute(app, key);
	app.get('/live', live.route(key));
	settingsRoute(app, key, settings);
	proxyRoutes(app, key, moderator, thanker, opts.intakeOf);
	demoActionRoutes(app, opts, key);
	// The dock's routes exist only where a control credential does (a control key, or hosted mode).
	if (opts.controlKey !== undefined || opts.resolveControl)
		app.route(
			'/control',
			controlRoutes(opts, guard, { moderator, live, settings, thanker, lock, commands })
		);
	if (opts.oauth)
		app.route(
			'/oauth',
			oauthRoutes({ ...opts.oauth, overlayKey: opts.overlayKey, requireKey: key })
		);
	pageRoutes(app, opts);

	app.notFound((c) => errorResponse(c, new HttpError(404, 'not_found', 'not found')));
	app.onError((err, c) => errorResponse(c, err));
	return app;
}

/** One streamer's thanks: what the last run left owed (a restart after a finish) goes out now. */
function singleThanker(opts: AppOptions, moderator: Moderator, push: MemoryPushChannel): Thanker {
	const thanker = new Thanker({
		store: opts.chat ?? chatFile(null, push),
		moderation: moderator.store,
		upstreamOf: () => opts.upstream,
		soleWriter: true,
		posted: opts.activity && ((streamer, sent) => void opts.activity!.thanked(streamer, sent))
	});
	thanker.start();
	return thanker;
}
