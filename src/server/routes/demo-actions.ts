// POST /demo/:action: the preview's buttons (demo.ts says what each action does). Only the named
// actions run; anything else is a 404. GET /demo/chat: what the simulator's chat bot said, for the
// preview's Chat panel.
import type { Hono } from 'hono';
import type { AppOptions } from '../app-options.ts';
import { DEMO_ACTIONS, runDemoAction, type DemoAction } from '../demo.ts';
import { HttpError } from '../http-error.ts';
import type { RequireKey } from './overlay-key.ts';

export function demoActionRoutes(
	app: Hono,
	opts: Pick<AppOptions, 'mode' | 'simulatorOrigin' | 'resolveKey'>,
	requireKey: RequireKey
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
			upstream: c.var.caller.upstream,
			n: demoCount++,
			perStreamer: opts.resolveKey !== undefined
		});
	});
	// Demo mode with one streamer only: the hosted demo's streamers share the simulator, and in
	// single mode there is no simulator to read. Only the text, its time and platform leave (never
	// who sent it).
	app.get('/demo/chat', requireKey, async () => {
		const sim = opts.simulatorOrigin;
		if (opts.mode !== 'demo' || !sim || opts.resolveKey)
			throw new HttpError(404, 'not_found', 'the chat log exists in demo mode only');
		const res = await fetch(`${sim}/_sim/chat?limit=${DEMO_CHAT_MAX}`);
		if (!res.ok) throw new HttpError(502, 'upstream_error', 'the simulator did not answer');
		const { messages } = (await res.json()) as {
			messages: { at: string; text: string; platform: string }[];
		};
		return Response.json({
			messages: messages
				.slice(0, DEMO_CHAT_MAX)
				.map(({ at, text, platform }) => ({ at, text, platform }))
		});
	});
}

/** The most messages GET /demo/chat returns, newest first. */
const DEMO_CHAT_MAX = 50;
