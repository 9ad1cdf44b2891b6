// The show's controls in the dock (docs/dock.md, "Counters", "Tip goal", "Celebrate"): each /control
// route forwards one upstream call with the server's credential, its path segments checked with
// the contract's schemas before anything is sent (control-actions.ts, ask). The upstream's changes
// reach the OBS sources as its own events (counter.updated, overlay.tip_goal.updated,
// overlay.celebration).
import type { Hono } from 'hono';
import { ROUTES } from '../../contract/index.ts';
import { CelebrateBody, CONTROL_BODIES, TipGoalEdit } from '../../contract/control-bodies.ts';
import { ask } from '../control-actions.ts';
import { HttpError } from '../http-error.ts';
import type { ControlEnv } from './control-key.ts';
import { jsonInput, limitOf } from './control-input.ts';
import { refuseBody } from './guards.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The field an upstream's 400 about a counter concerns: its name (a bad slug, the 100 limit). */
const counterField = (text: string) => (/value|integer|number/i.test(text) ? 'value' : 'name');
/** The field an upstream's 400 about a tip goal concerns, from its sentence. */
function goalField(text: string): string {
	if (/start/i.test(text)) return 'starts_at';
	if (/end/i.test(text)) return 'ends_at';
	if (/title/i.test(text)) return 'title';
	return /date/i.test(text) ? 'starts_at' : 'amount';
}

const bad = (sentence: string) => () => new HttpError(400, 'bad_request', sentence);

const B = CONTROL_BODIES;

export function showRoutes(control: Hono<ControlEnv>) {
	counterRoutes(control);
	goalRoutes(control);
}

/** The counter changes: a new one, a step added, a value set; each answers the counter after. */
const COUNTER_CHANGES = [
	{ method: 'POST', path: '/counters', route: ROUTES.counterCreate, input: B.counterNew },
	{
		method: 'POST',
		path: '/counters/:name/add',
		route: ROUTES.counterIncrement,
		input: B.counterAdd
	},
	{ method: 'PUT', path: '/counters/:name', route: ROUTES.counterSet, input: B.counterSet }
] as const;

function counterRoutes(control: Hono<ControlEnv>) {
	for (const { method, path, route, input } of COUNTER_CHANGES) {
		const named = path.includes(':name');
		control.on(
			method,
			path,
			limitOf(input),
			jsonInput({ schema: input.body, refuse: bad(input.badBody) }),
			async (c) => {
				const params = named ? { name: c.req.param('name') as string } : undefined;
				const body = c.req.valid('json');
				const answer = await ask(c.var.caller.upstream, route, {
					params,
					body,
					fieldOf: counterField
				});
				return c.json({ counter: answer.counter }, 200, NO_STORE);
			}
		);
	}
	control.post('/counters/:name/delete', limitOf(B.counterDelete), async (c) => {
		await refuseBody(c);
		const name = c.req.param('name');
		try {
			await ask(c.var.caller.upstream, ROUTES.counterDelete, { params: { name } });
		} catch (err) {
			// Deleted already (another dock, the dashboard): what was asked is so.
			if (err instanceof HttpError && err.status === 404)
				return c.json(
					{ outcome: 'already', message: `${name} was deleted already` },
					200,
					NO_STORE
				);
			throw err;
		}
		return c.json({ outcome: 'done', message: `${name} deleted` }, 200, NO_STORE);
	});
}

/** An overlay's tip goal, and the celebration. */
function goalRoutes(control: Hono<ControlEnv>) {
	control.put(
		'/overlays/:overlayId/tip-goal',
		limitOf(B.tipGoal),
		jsonInput({ schema: TipGoalEdit, refuse: bad(B.tipGoal.badBody) }),
		async (c) => {
			const { upstream } = c.var.caller;
			const params = { overlayId: c.req.param('overlayId') };
			const body = c.req.valid('json');
			if (Object.keys(body).length)
				await ask(upstream, ROUTES.tipGoalUpdate, { params, body, fieldOf: goalField });
			const read = await ask(upstream, ROUTES.tipGoalRead, { params });
			return c.json({ tip_goal: read.tip_goal }, 200, NO_STORE);
		}
	);
	control.post(
		'/celebrate',
		limitOf(B.celebrate),
		jsonInput({ schema: CelebrateBody, refuse: bad(B.celebrate.badBody), optional: true }),
		async (c) => {
			const body = c.req.valid('json');
			await ask(c.var.caller.upstream, ROUTES.celebration, {
				body,
				fieldOf: () => (body.widget_id ? 'widget_id' : 'overlay_id')
			});
			const where = body.widget_id
				? 'one widget'
				: body.overlay_id
					? 'one overlay'
					: 'every overlay';
			return c.json({ outcome: 'done', message: `celebrating on ${where}` }, 200, NO_STORE);
		}
	);
}
