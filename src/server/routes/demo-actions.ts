// POST /demo/:action: the preview's buttons (demo.ts says what each action does). Only the named
// actions run; anything else is a 404.
import type { Hono } from 'hono';
import type { AppOptions } from '../app-options.ts';
import { DEMO_ACTIONS, runDemoAction, type DemoAction } from '../demo.ts';
import { HttpError } from '../http-error.ts';
import type { OverlayKeyCheck } from './overlay-key.ts';

export function demoActionRoutes(
	app: Hono,
	opts: Pick<AppOptions, 'mode' | 'simulatorOrigin' | 'resolveKey'>,
	{ requireKey, upstreamOf }: OverlayKeyCheck
) {
	/** Counts the actions run, so repeated presses send different demo tips. */
	let demoCount = 0;
	app.post('/demo/:action', requireKey, async (c) => {
		const action = c.req.param('action');
		if (!(DEMO_ACTIONS as readonly string[]).includes(action))
			throw new HttpError(404, 'not_found', 'no such demo action');
		return runDemoAction(action as DemoAction, {
			mode: opts.mode,
			simulatorOrigin: opts.simulatorOrigin,
			upstream: upstreamOf(c),
			n: demoCount++,
			perStreamer: opts.resolveKey !== undefined
		});
	});
}
