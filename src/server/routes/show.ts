// The show's controls in the dock (docs/dock.md, "Counters", "Tip goal", "Celebrate"): each /control
// route forwards one upstream call with the server's credential, its path segments and body checked
// with the contract's schemas before anything is sent (control-input.ts, control-actions.ts ask). The upstream's changes
// reach the OBS sources as its own events (counter.updated, overlay.tip_goal.updated,
// overlay.celebration).
import { Hono } from 'hono';
import { ROUTES } from '../../contract/index.ts';
import type { CallerEnv } from '../caller.ts';
import { ask } from '../control-actions.ts';
import { HttpError } from '../http-error.ts';
import { serve } from './control-input.ts';

/** The field an upstream's 400 about a counter concerns: its name (a bad slug, the 100 limit). */
const counterField = (text: string) => (/value|integer|number/i.test(text) ? 'value' : 'name');
/** The field an upstream's 400 about a tip goal concerns, from its sentence. */
function goalField(text: string): string {
	if (/start/i.test(text)) return 'starts_at';
	if (/end/i.test(text)) return 'ends_at';
	if (/title/i.test(text)) return 'title';
	return /date/i.test(text) ? 'starts_at' : 'amount';
}

export function showRoutes(): Hono<CallerEnv> {
	const app = new Hono<CallerEnv>();
	counterRoutes(app);
	goalRoutes(app);
	return app;
}

/** The counter changes: a new one, a step added, a value set; each answers the counter after. */
const COUNTER_CHANGES = [
	['counterNew', ROUTES.counterCreate],
	['counterAdd', ROUTES.counterIncrement],
	['counterSet', ROUTES.counterSet]
] as const;

function counterRoutes(app: Hono<CallerEnv>) {
	for (const [name, route] of COUNTER_CHANGES)
		serve(app, name, async (c, { params, body }) => {
			const answer = await ask(c.var.caller.upstream, route, {
				params: 'name' in params ? (params as { name: string }) : undefined,
				body,
				fieldOf: counterField
			});
			return c.json({ counter: answer.counter });
		});
	serve(app, 'counterDelete', async (c, { params: { name } }) => {
		try {
			await ask(c.var.caller.upstream, ROUTES.counterDelete, { params: { name } });
		} catch (err) {
			// Deleted already (another dock, the dashboard): what was asked is so.
			if (err instanceof HttpError && err.status === 404)
				return c.json({ outcome: 'already', message: `${name} was deleted already` });
			throw err;
		}
		return c.json({ outcome: 'done', message: `${name} deleted` });
	});
}

/** An overlay's tip goal, and the celebration. */
function goalRoutes(app: Hono<CallerEnv>) {
	serve(app, 'tipGoal', async (c, { params, body }) => {
		const { upstream } = c.var.caller;
		if (Object.keys(body).length)
			await ask(upstream, ROUTES.tipGoalUpdate, { params, body, fieldOf: goalField });
		const read = await ask(upstream, ROUTES.tipGoalRead, { params });
		return c.json({ tip_goal: read.tip_goal });
	});
	serve(app, 'celebrate', async (c, { body }) => {
		await ask(c.var.caller.upstream, ROUTES.celebration, {
			body,
			fieldOf: () => (body.widget_id ? 'widget_id' : 'overlay_id')
		});
		const where = body.widget_id ? 'one widget' : body.overlay_id ? 'one overlay' : 'every overlay';
		return c.json({ outcome: 'done', message: `celebrating on ${where}` });
	});
}
