// The dock's chat (docs/dock.md, "Thanks in chat"): GET /control/chat (the thanks settings and how
// the chat is doing), PUT /control/chat/thanks (save the settings), POST /control/chat/send (the
// dock's own message, within the chat budget), POST /control/chat/resend (Send again of a thanks
// that may not have gone) and POST /control/chat/dismiss (It went: the streamer saw that thanks in
// chat). The sending is the thanker's (chat/thanker.ts).
import type { Context, Hono } from 'hono';
import { CONTROL_BODIES } from '../../contract/control-bodies.ts';
import { startsAsCommand, templateProblem } from '../../core/thanks.ts';
import type { ChatOutcome } from '../chat/post.ts';
import type { Thanker } from '../chat/thanker.ts';
import { chatStatus } from '../chat/store.ts';
import { HttpError, upstreamUnavailable } from '../http-error.ts';
import type { ControlEnv } from './control-key.ts';
import { jsonInput, limitOf } from './control-input.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };
const B = CONTROL_BODIES;
const bad = (sentence: string) => () => new HttpError(400, 'bad_request', sentence);

export function chatRoutes(control: Hono<ControlEnv>, thanker: Thanker) {
	control.get('/chat', async (c) =>
		c.json(await chatStatus(thanker.store, c.var.caller.streamer), 200, NO_STORE)
	);

	control.put(
		'/chat/thanks',
		limitOf(B.saveThanks),
		jsonInput({ schema: B.saveThanks.body, refuse: bad(B.saveThanks.badBody) }),
		async (c) => {
			const thanks = c.req.valid('json');
			for (const field of ['template', 'burst'] as const) {
				const problem = templateProblem(thanks[field]);
				if (problem)
					throw new HttpError(400, 'bad_template', `${field}: ${problem}`, undefined, {
						field
					});
			}
			const { streamer, upstream } = c.var.caller;
			const settings = {
				enabled: thanks.enabled,
				template: thanks.template.trim(),
				burst: thanks.burst.trim()
			};
			await thanker.saveSettings(streamer, settings, upstream);
			return c.json(await chatStatus(thanker.store, streamer), 200, NO_STORE);
		}
	);

	control.post(
		'/chat/send',
		limitOf(B.sendChat),
		jsonInput({ schema: B.sendChat.body, refuse: bad(B.sendChat.badBody) }),
		async (c) => {
			const message = c.req.valid('json').message.trim();
			if (!message) throw new HttpError(400, 'bad_request', 'the message is empty');
			if (startsAsCommand(message))
				throw new HttpError(
					400,
					'message_disallowed',
					'a message cannot start with / or ! (the chat takes it for a command)'
				);
			const { streamer, upstream } = c.var.caller;
			return answered(c, await thanker.send(streamer, upstream, message));
		}
	);

	unsureRoutes(control, thanker);
}

/** Send again and It went of a thanks that may not have gone (ChatStatus's `unsure`). */
function unsureRoutes(control: Hono<ControlEnv>, thanker: Thanker) {
	control.post(
		'/chat/resend',
		limitOf(B.resendChat),
		jsonInput({ schema: B.resendChat.body, refuse: bad(B.resendChat.badBody) }),
		async (c) => {
			const { streamer, upstream } = c.var.caller;
			const outcome = await thanker.resend(streamer, upstream, c.req.valid('json').id);
			if (outcome !== null) return answered(c, outcome);
			throw new HttpError(404, 'not_unsure', 'no such thanks to send again (sent again, or gone)');
		}
	);

	control.post(
		'/chat/dismiss',
		limitOf(B.dismissChat),
		jsonInput({ schema: B.dismissChat.body, refuse: bad(B.dismissChat.badBody) }),
		async (c) => {
			if (await thanker.seen(c.var.caller.streamer, c.req.valid('json').id))
				return c.json({ outcome: 'done', message: 'taken off the list as sent' }, 200, NO_STORE);
			throw new HttpError(
				404,
				'not_unsure',
				'no such thanks to take off the list (sent again, taken off already, or gone)'
			);
		}
	);
}

/** A message's outcome as the dock's answer: sent, or why not (or that no answer said). */
function answered(c: Context, outcome: ChatOutcome): Response {
	if (outcome.ok) return c.json({ outcome: 'done', message: 'sent to chat' }, 200, NO_STORE);
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
