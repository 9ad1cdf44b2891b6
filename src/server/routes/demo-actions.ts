// POST /demo/:action: the preview's buttons (demo.ts says what each action does). Only the named
// actions run; anything else is a 404. GET /demo/chat: what the simulator's chat bot said, for the
// preview's Chat panel; POST /demo/chat-line: a line typed there as a viewer or a moderator (the
// simulator runs the custom command it names, and the kit hears its chat.command).
import type { Hono } from 'hono';
import { z } from 'zod/mini';
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
	// Before /demo/:action, which would take its path.
	app.post('/demo/chat-line', requireKey, async (c) => {
		const sim = demoSimulator(opts);
		const body = ChatLine.safeParse(await c.req.json().catch(() => null));
		if (!body.success)
			throw new HttpError(
				400,
				'bad_request',
				'expected { "line": "<1 to 500 characters>", "as": "viewer"|"moderator" }'
			);
		const { line, as } = body.data;
		const login = as === 'moderator' ? 'demo_mod' : 'demo_viewer';
		const res = await fetch(`${sim}/_sim/chat/line`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ line, role: as, login })
		});
		if (!res.ok) throw new HttpError(502, 'upstream_error', 'the simulator did not answer');
		const said = (await res.json()) as { ran: boolean; why?: string };
		return Response.json({ ran: said.ran, ...(said.why ? { why: said.why } : {}) });
	});
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
		const sim = demoSimulator(opts);
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

const ChatLine = z.object({
	line: z.string().check(z.minLength(1), z.maxLength(500)),
	as: z.enum(['viewer', 'moderator'])
});

/** The simulator of demo mode with one streamer (the hosted demo's streamers share it). */
function demoSimulator(opts: Pick<AppOptions, 'mode' | 'simulatorOrigin' | 'resolveKey'>): string {
	const sim = opts.simulatorOrigin;
	if (opts.mode !== 'demo' || !sim || opts.resolveKey)
		throw new HttpError(404, 'not_found', 'the demo chat exists in demo mode only');
	return sim;
}

/** The most messages GET /demo/chat returns, newest first. */
const DEMO_CHAT_MAX = 50;
