// The push channel (docs/push-channel.md): what the token endpoint pushes to open
// pages on GET /live (overlay key) and GET /control/live (control credential), a WebSocket carrying
// one JSON frame per message. Ours, not the upstream's. Hints only, never viewer text: a page
// answers each by reading again.
//
// A socket's life: the page sends LiveAuth first (its key header: a browser's WebSocket cannot
// send one, and a URL would put it in logs); the server answers LiveOpen, or LiveRefused and
// closes; then `hello`, every LiveMessage of the page's streamer, and a LivePing now and then.
import { z } from 'zod/mini';
import { OrderId } from './common.ts';

/** Read everything again: sent first on every (re)connect. */
const Hello = z.looseObject({ type: z.literal('hello') });
/** Read everything again: the server itself may have missed changes (hosted: LISTEN came back). */
const Resync = z.looseObject({ type: z.literal('resync') });
/** A tip's or a video's decision changed (approved or rejected). */
const DecisionChanged = z.looseObject({
	type: z.literal('decision'),
	order_id: z.optional(OrderId),
	/** `media` for a video's, absent for a tip's. */
	queue: z.optional(z.enum(['tts', 'media']))
});
/** The moderation rules were saved, as `version`. */
const RulesSaved = z.looseObject({ type: z.literal('rules'), version: z.optional(z.int()) });
/** A target's stored settings (settings.ts) were saved or undone, making revision `version`. */
const SettingsSaved = z.looseObject({
	type: z.literal('settings'),
	target: z.optional(z.string().check(z.maxLength(64))),
	version: z.optional(z.int())
});

/** Thanks in chat changed: its settings, a message posted or failed, the tips waiting (chat.ts). */
const ChatChanged = z.looseObject({ type: z.literal('chat') });
/**
 * The Activity changed (control-activity.ts): entries `ids` were recorded or updated; absent: read
 * it again (history deleted, many at once).
 */
const ActivityChanged = z.looseObject({
	type: z.literal('activity'),
	ids: z.optional(z.array(/*@__PURE__*/ z.string().check(z.maxLength(200))))
});

/** Chat commands changed: one turned on or off, a run noted or its outcome (control-commands.ts). */
const CommandsChanged = z.looseObject({ type: z.literal('commands') });

const MESSAGES = [
	Hello,
	Resync,
	DecisionChanged,
	RulesSaved,
	SettingsSaved,
	ChatChanged,
	ActivityChanged,
	CommandsChanged
] as const;

/** One message of the push channel, as the stores publish it and a page hears it. */
// The list written out, not spread from MESSAGES: the bundler keeps a call whose argument spreads
// an array (a spread may run an iterator), and every page would carry zod's discriminated union.
export const LiveMessage = /*@__PURE__*/ z.discriminatedUnion('type', [
	Hello,
	Resync,
	DecisionChanged,
	RulesSaved,
	SettingsSaved,
	ChatChanged,
	ActivityChanged,
	CommandsChanged
]);
export type LiveMessage = z.infer<typeof LiveMessage>;

/** The page's first frame: its credential headers (nothing else of it is read). */
export const LiveAuth = /*@__PURE__*/ z.object({
	type: z.literal('auth'),
	headers: z.record(z.string(), z.string())
});
export type LiveAuth = z.infer<typeof LiveAuth>;

/** The server accepted the credential: messages follow. */
const LiveOpen = z.looseObject({ type: z.literal('open') });
/**
 * The server refused the socket, with the status and the body (`code`, `error`) an HTTP request
 * with the same credential gets (a wrong key, a lockout, too many open sockets); then it closes.
 */
const LiveRefused = z.looseObject({
	type: z.literal('refused'),
	status: z.int(),
	code: z.optional(z.string()),
	error: z.optional(z.string())
});
/** The server's keep-alive (every LIVE_PING_MS): the page's watchdog hears it. */
const LivePing = z.looseObject({ type: z.literal('ping') });

/**
 * Every frame the server sends. A plain union of the same objects (each knows its `type`): the
 * pages parse frames only, and zod's discriminated-union code would weigh on every one of them.
 */
export const LiveFrame = /*@__PURE__*/ z.union([...MESSAGES, LiveOpen, LiveRefused, LivePing]);
export type LiveFrame = z.infer<typeof LiveFrame>;

/** How often the server sends a LivePing: proxies keep the socket, the page knows it is alive. */
export const LIVE_PING_MS = 25_000;
