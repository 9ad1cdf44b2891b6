// The dock's chat routes (docs/dock.md, "Thanks in chat" and "Send to chat"), served by
// src/server/routes/chat.ts: the chat's status, the thanks settings, Send to chat, and Send again
// or It went of a thanks that may not have gone. Part of the CONTROL table (control.ts), which
// lists their error codes; their bodies are in control-bodies.ts.
import { ChatStatus } from './chat.ts';
import { ActionAnswer, route } from './control-route.ts';

/** Thanks in chat: its settings, the tips waiting, the current problem and the last messages. */
export const chat = /*@__PURE__*/ route({
	name: 'chat',
	method: 'GET',
	path: '/chat',
	credential: true,
	answer: ChatStatus
});
/** Save the thanks settings (contract/chat.ts, ThanksSettings); answers the chat's status. */
export const saveThanks = /*@__PURE__*/ route({
	name: 'saveThanks',
	method: 'PUT',
	path: '/chat/thanks',
	credential: true,
	answer: ChatStatus
});
/** The dock's Send to chat: one message, posted as written, within the chat budget. */
export const sendChat = /*@__PURE__*/ route({
	name: 'sendChat',
	method: 'POST',
	path: '/chat/send',
	credential: true,
	upstream: true,
	answer: ActionAnswer
});
/**
 * Send again: a thanks that may not have gone (ChatStatus's `unsure`) posted once more, within the
 * chat budget, when the streamer decides so. 504 `outcome_unknown`: again no answer said whether.
 */
export const resendChat = /*@__PURE__*/ route({
	name: 'resendChat',
	method: 'POST',
	path: '/chat/resend',
	credential: true,
	upstream: true,
	answer: ActionAnswer
});

/**
 * It went: a thanks that may not have gone (ChatStatus's `unsure`) the streamer saw in chat, taken
 * off the list as sent, never posted. 404 `not_unsure`: not listed (sent again, gone, or taken).
 */
export const dismissChat = /*@__PURE__*/ route({
	name: 'dismissChat',
	method: 'POST',
	path: '/chat/dismiss',
	credential: true,
	answer: ActionAnswer
});
