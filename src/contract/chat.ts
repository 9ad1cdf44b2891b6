// Thanks in chat and the dock's Send to chat (docs/dock.md, "Thanks in chat"): what the streamer
// sets, what the dock is told of the chat, and the dock's own message. Ours, not the upstream's:
// the token endpoint posts through the upstream's POST /chat/messages (routes.ts, chatSend).
import { z } from 'zod/mini';

/** The upstream's longest chat message, in characters (docs/upstream.md, chat). */
export const CHAT_MESSAGE_MAX = 500;
/** The longest thanks template: room left for a burst's names within CHAT_MESSAGE_MAX. */
export const THANKS_TEMPLATE_MAX = 200;
/** The upstream's chat budget per streamer, shared by every key and tool (docs/upstream.md). */
export const CHAT_BUDGET = { messages: 20, perMs: 30_000 } as const;

/** A thanks for one tip: `{name}` the tipper, `{amount}` the tip with its currency. */
export const DEFAULT_THANKS_TEMPLATE = 'Thank you {name} for the {amount} tip!';
/** A burst thanked in one message: `{name}` the tippers ("A, B and C"), `{amount}` their total. */
export const DEFAULT_THANKS_BURST = 'Thanks {name}!';

// `/*@__PURE__*/` before each `.check(...)` (common.ts says why): the dock keeps what it uses, the
// widget pages nothing.
const Template = /*@__PURE__*/ z.string().check(z.maxLength(THANKS_TEMPLATE_MAX));

/** What the streamer sets: off by default (docs/dock.md). */
export const ThanksSettings = z.object({
	enabled: z.boolean(),
	/** One tip's thanks (core/thanks.ts renders it). */
	template: Template,
	/** Several tips thanked in one message. */
	burst: Template
});
export type ThanksSettings = z.infer<typeof ThanksSettings>;

export const DEFAULT_THANKS: ThanksSettings = {
	enabled: false,
	template: DEFAULT_THANKS_TEMPLATE,
	burst: DEFAULT_THANKS_BURST
};

/** Why chat cannot be sent to now, as the upstream or our budget said it. */
export const ChatProblem = z.looseObject({
	/** The upstream's code (`bot_disabled`, `bot_unavailable`, `missing_scope`, ...) or ours. */
	code: z.string(),
	/** A sentence for the streamer: what is wrong and how to fix it. */
	error: z.string(),
	at: z.string(),
	/** With `missing_scope`: the scope to add (`chat:write`). */
	required_scope: z.optional(z.string())
});
export type ChatProblem = z.infer<typeof ChatProblem>;

/** One message the token endpoint posted or tried to post, as the dock lists it. */
export const ChatSent = z.looseObject({
	at: z.string(),
	/** The message as posted (a thanks names tippers and amounts, never a tip's message). */
	text: z.string(),
	/** `thanks`: posted for read tips (`tips` of them); `dock`: the dock's Send to chat. */
	kind: z.enum(['thanks', 'dock']),
	tips: z.optional(z.int()),
	/** `unsure`: no answer said whether it went (a timeout, a 5xx without the chat's code). */
	outcome: z.enum(['sent', 'failed', 'unsure']),
	/**
	 * `failed`: the upstream's code, or `too_late`; `unsure`: `interrupted` (the sender stopped);
	 * `sent`: `seen` when the streamer saw it in chat (the dock's It went), not chat's answer.
	 */
	code: z.optional(z.string())
});
export type ChatSent = z.infer<typeof ChatSent>;

/**
 * A thanks that may not have gone: posted, and no answer said whether chat took it. The token
 * endpoint never posts it again by itself; the dock's Send again does (POST /control/chat/resend),
 * and its It went (POST /control/chat/dismiss) takes it off the list as sent, unposted.
 */
export const ChatUnsure = z.looseObject({
	/** What Send again names. */
	id: z.string(),
	/** When it was posted (or last tried by Send again). */
	at: z.string(),
	/** The message as it was posted. */
	text: z.string(),
	/** The tips it thanks: their tippers and amounts (in the tenant's currency). */
	tips: z.array(z.looseObject({ name: z.string(), amount: z.nullable(z.number()) }))
});
export type ChatUnsure = z.infer<typeof ChatUnsure>;

/** GET /control/chat: the thanks settings and how the chat is doing. */
export const ChatStatus = z.looseObject({
	thanks: ThanksSettings,
	/** Read tips waiting for their thanks (the chat budget, a retry). */
	waiting: z.int(),
	/** The failure that stops chat now (cleared by the next message that goes through). */
	problem: z.nullable(ChatProblem),
	/** The last messages, newest first. */
	recent: z.array(ChatSent),
	/**
	 * Thanks that may not have gone, oldest first, until Send again (or a day later); none from a
	 * server that lists none.
	 */
	unsure: z._default(z.array(ChatUnsure), [])
});
export type ChatStatus = z.infer<typeof ChatStatus>;

/** POST /control/chat/send: the dock's own message, posted as written (no template). */
export const ChatSendBody = z.object({
	message: /*@__PURE__*/ z.string().check(z.minLength(1), z.maxLength(CHAT_MESSAGE_MAX))
});
export type ChatSendBody = z.infer<typeof ChatSendBody>;

/**
 * POST /control/chat/resend (Send again) and /control/chat/dismiss (It went) of a thanks that may
 * not have gone: ChatUnsure's id.
 */
export const ChatResendBody = z.object({
	id: /*@__PURE__*/ z.string().check(z.minLength(1), z.maxLength(100))
});
