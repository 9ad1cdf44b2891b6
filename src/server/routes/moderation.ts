// /control/moderation: the streamer's rules (read, save), Approve and Reject of a held tip, and the
// whole message of a tip for the dock's Reveal. Behind the control credential (control.ts); the
// streamer comes from it (`c.var.caller`), so one streamer never reads or settles another's. The
// bodies are checked against src/contract/control.ts; the work is the Moderator's.
import type { Hono } from 'hono';
import { validator } from 'hono/validator';
import { CONTROL_BODIES, OrderBody } from '../../contract/control-bodies.ts';
import { describeIssues } from '../../contract/index.ts';
import { HttpError } from '../http-error.ts';
import type { Moderator } from '../moderation/moderator.ts';
import type { ControlEnv } from './control-key.ts';
import { jsonInput, limitOf, notJson } from './control-input.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

const badOrder = () => new HttpError(400, 'bad_request', CONTROL_BODIES.approve.badBody);

export function moderationRoutes(control: Hono<ControlEnv>, moderator: Moderator) {
	control.get('/moderation', async (c) =>
		c.json(await moderator.rules(c.var.caller.streamer), 200, NO_STORE)
	);

	control.put(
		'/moderation',
		limitOf(CONTROL_BODIES.saveRules),
		jsonInput({
			schema: CONTROL_BODIES.saveRules.body,
			refuse: (error) =>
				error ? new HttpError(400, 'bad_rules', describeIssues(error)) : notJson()
		}),
		async (c) =>
			c.json(await moderator.saveRules(c.var.caller.streamer, c.req.valid('json')), 200, NO_STORE)
	);

	// A tip's (`queue` absent or `tts`) or a video's (`queue: "media"`); settling a tip settles
	// the video held only with it (moderation/settle.ts).
	for (const how of ['approve', 'reject'] as const)
		control.post(
			`/moderation/${how}`,
			limitOf(CONTROL_BODIES[how]),
			jsonInput({
				schema: CONTROL_BODIES[how].body,
				refuse: (error) => {
					if (!error) return notJson();
					if (error.issues.some((i) => i.path[0] === 'queue'))
						return new HttpError(400, 'bad_request', 'queue: expected "tts" or "media"');
					return badOrder();
				}
			}),
			async (c) => {
				const { order_id: orderId, queue } = c.req.valid('json');
				const { streamer, upstream } = c.var.caller;
				const settled = await moderator.settle(streamer, upstream, { how, queue, orderId });
				return c.json(settled, 200, NO_STORE);
			}
		);

	control.get(
		'/moderation/message',
		validator('query', (query) => {
			const parsed = OrderBody.safeParse({ order_id: query.order_id });
			if (!parsed.success) throw badOrder();
			return parsed.data;
		}),
		async (c) => {
			const message = await moderator.message(c.var.caller.upstream, c.req.valid('query').order_id);
			return c.json({ message }, 200, NO_STORE);
		}
	);
}
