// /control/moderation: the streamer's rules (read, save), Approve and Reject of a held tip, and the
// whole message of a tip for the dock's Reveal. Behind the control credential (control.ts); the
// streamer comes from it (`c.var.caller`), so one streamer never reads or settles another's. The
// requests are checked as src/contract/control-bodies.ts says; the work is the Moderator's.
import { Hono } from 'hono';
import { CONTROL_BODIES, OrderBody } from '../../contract/control-bodies.ts';
import { describeIssues } from '../../contract/index.ts';
import type { CallerEnv } from '../caller.ts';
import { HttpError } from '../http-error.ts';
import type { Moderator } from '../moderation/moderator.ts';
import { notJson, serve } from './control-input.ts';

const badOrder = () => new HttpError(400, 'bad_request', CONTROL_BODIES.approve.badBody);

export function moderationRoutes(moderator: Moderator): Hono<CallerEnv> {
	const app = new Hono<CallerEnv>();
	serve(app, 'rules', async (c) => c.json(await moderator.rules(c.var.caller.streamer)));

	serve(
		app,
		'saveRules',
		async (c, { body }) => c.json(await moderator.saveRules(c.var.caller.streamer, body)),
		{
			refuse: (error) =>
				error ? new HttpError(400, 'bad_rules', describeIssues(error)) : notJson()
		}
	);

	// A tip's (`queue` absent or `tts`) or a video's (`queue: "media"`); settling a tip settles
	// the video held only with it (moderation/settle.ts).
	for (const how of ['approve', 'reject'] as const)
		serve(
			app,
			how,
			async (c, { body: { order_id: orderId, queue } }) => {
				const { streamer, upstream } = c.var.caller;
				return c.json(await moderator.settle(streamer, upstream, { how, queue, orderId }));
			},
			{
				refuse: (error) => {
					if (!error) return notJson();
					if (error.issues.some((i) => i.path[0] === 'queue'))
						return new HttpError(400, 'bad_request', 'queue: expected "tts" or "media"');
					return badOrder();
				}
			}
		);

	serve(app, 'message', async (c) => {
		// One order_id only (twice is no id at all).
		const ids = c.req.queries('order_id');
		const query = OrderBody.safeParse({ order_id: ids?.length === 1 ? ids[0] : ids });
		if (!query.success) throw badOrder();
		return c.json({ message: await moderator.message(c.var.caller.upstream, query.data.order_id) });
	});
	return app;
}
