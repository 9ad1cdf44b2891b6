// The dock's chat (docs/dock.md, "Thanks in chat"): GET /control/chat (the thanks settings and how
// the chat is doing), PUT /control/chat/thanks (save the settings), POST /control/chat/send (the
// dock's own message, within the chat budget), POST /control/chat/resend (Send again of a thanks
// that may not have gone) and POST /control/chat/dismiss (It went: the streamer saw that thanks in
// chat). The sending is the thanker's (chat/thanker.ts).
import { Hono, type Context } from 'hono';
import { startsAsCommand, templateProblem } from '../../core/thanks.ts';
import type { CallerEnv } from '../caller.ts';
import type { ChatOutcome } from '../chat/post.ts';
import type { Thanker } from '../chat/thanker.ts';
import { chatStatus } from '../chat/store.ts';
import { HttpError, upstreamUnavailable } from '../http-error.ts';
import { serve } from './control-input.ts';

export function chatRoutes(thanker: Thanker): Hono<CallerEnv> {
	const app = new Hono<CallerEnv>();
	serve(app, 'chat', async (c) => c.json(await chatStatus(thanker.store, c.var.caller.streamer)));

	serve(app, 'saveThanks', async (c, { body: thanks }) => {
		for (const field of ['template', 'burst'] as const) {
			const problem = templateProblem(thanks[field]);
			if (problem)
				throw new HttpError(400, 'bad_template', `${field}: ${problem}`, undefined, { field });
		}
		const { streamer, upstream } = c.var.caller;
		const settings = {
			enabled: thanks.enabled,
			template: thanks.template.trim(),
			burst: thanks.burst.trim()
		};
		await thanker.saveSettings(streamer, settings, upstream);
		return c.json(await chatStatus(thanker.store, streamer));
	});

	serve(app, 'sendChat', async (c, { body }) => {
		const message = body.message.trim();
		if (!message) throw new HttpError(400, 'bad_request', 'the message is empty');
		if (startsAsCommand(message))
			throw new HttpError(
				400,
				'message_disallowed',
				'a message cannot start with / or ! (the chat takes it for a command)'
			);
		const { streamer, upstream } = c.var.caller;
		return answered(c, await thanker.send(streamer, upstream, message));
	});

	unsureRoutes(app, thanker);
	return app;
}

/** Send again and It went of a thanks that may not have gone (ChatStatus's `unsure`). */
function unsureRoutes(app: Hono<CallerEnv>, thanker: Thanker) {
	serve(app, 'resendChat', async (c, { body }) => {
		const { streamer, upstream } = c.var.caller;
		const outcome = await thanker.resend(streamer, upstream, body.id);
		if (outcome !== null) return answered(c, outcome);
		throw new HttpError(404, 'not_unsure', 'no such thanks to send again (sent again, or gone)');
	});

	serve(app, 'dismissChat', async (c, { body }) => {
		if (await thanker.seen(c.var.caller.streamer, body.id))
			return c.json({ outcome: 'done', message: 'taken off the list as sent' });
		throw new HttpError(
			404,
			'not_unsure',
			'no such thanks to take off the list (sent again, taken off already, or gone)'
		);
	});
}

/** A message's outcome as the dock's answer: sent, or why not (or that no answer said). */
function answered(c: Context, outcome: ChatOutcome): Response {
	if (outcome.ok) return c.json({ outcome: 'done', message: 'sent to chat' });
	if (outcome.retry === 'unknown')
		throw new HttpError(504, outcome.problem.code, outcome.problem.error);
	const { code, error, required_scope } = outcome.problem;
	if (code === 'chat_budget' || code === 'rate_limited')
		throw new HttpError(429, 'chat_budget', error, { 'Retry-After': '5' });
	if (code === 'missing_scope')
		throw new HttpError(403, code, error, undefined, { required_scope: required_scope ?? '' });
	if (code === 'unreachable') throw upstreamUnavailable();
	if (outcome.retry === 'soon') throw new HttpError(503, code, error, { 'Retry-After': '5' });
	throw new HttpError(outcome.retry === 'never' ? 400 : 409, code, error);
}
