// Realtime WebSocket messages (docs/upstream.md, the realtime
// socket and its authentication). Every message in both directions is one JSON object with a string
// `type`.
import { z } from 'zod/mini';
// `/*@__PURE__*/` before `z.x().check(...)`: zod's functions are marked pure but `.check` is a
// method call the bundler must keep, with the schema and the checks it builds; marked, a page drops
// the schemas it does not use.
import { DateTime, describeIssues } from './common.ts';
import { EventEnvelope, PageEventEnvelope } from './events.ts';

/** POST /realtime/token 200 body: a single-use handoff token valid 60 seconds. */
export const HandoffToken = z.looseObject({
	// Prefixes as regexes, here and in resources.ts: the same check as z.startsWith, without a check
	// class of its own in every page (60 to 80 bytes gzipped).
	token: /*@__PURE__*/ z.string().check(z.regex(/^rth_/)),
	expires_at: DateTime,
	expires_in: /*@__PURE__*/ z.int().check(z.positive())
});
export type HandoffToken = z.infer<typeof HandoffToken>;

// --- client -> server ---

/** First message, within 10 s of opening: `data.token` (handoff) or `data.apiKey`. */
export const AuthMessage = z.looseObject({
	type: z.literal('auth'),
	data: z.union([
		z.looseObject({ token: /*@__PURE__*/ z.string().check(z.minLength(1)) }),
		z.looseObject({ apiKey: /*@__PURE__*/ z.string().check(z.minLength(1)) })
	])
});
export type AuthMessage = z.infer<typeof AuthMessage>;

export const PongMessage = z.looseObject({ type: z.literal('pong') });

// --- server -> client ---

export const ReadyMessage = z.looseObject({
	type: z.literal('ready'),
	data: z.looseObject({
		/** The event types this connection's scopes allow. */
		events: z.array(z.string()),
		heartbeat_s: /*@__PURE__*/ z.number().check(z.positive())
	})
});
export type ReadyMessage = z.infer<typeof ReadyMessage>;

export const REALTIME_ERROR_CODES = [
	'invalid_token',
	'invalid_api_key',
	'missing_api_key',
	'auth_timeout'
] as const;

export const RealtimeErrorMessage = z.looseObject({
	type: z.literal('error'),
	data: z.looseObject({ code: z.string(), error: z.string() })
});

export const PingMessage = z.looseObject({
	type: z.literal('ping'),
	data: z.looseObject({ t: z.number() })
});

/** Close codes: 4401 credential problem (also a revoked authorization), 4408 no auth in time. */
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_AUTH_TIMEOUT = 4408;

/** A server message; `E`: the envelope as checked (the contract's, or a page's). */
export type ServerMessage<E = EventEnvelope> =
	| { kind: 'ready'; message: ReadyMessage }
	| { kind: 'error'; message: z.infer<typeof RealtimeErrorMessage> }
	| { kind: 'ping'; message: z.infer<typeof PingMessage> }
	| { kind: 'event'; message: E }
	/** A control message of a type this project does not know: ignored. */
	| { kind: 'other'; type: string };

type FrameResult<E> = { ok: true; value: ServerMessage<E> } | { ok: false; error: string };

/**
 * Classify one text frame from the server. An object whose `id` starts with `evt_` is an event;
 * anything else is a control message. Malformed frames come back as `ok: false` with a reason that
 * names the field, for the caller to log once and drop. Never throws.
 */
export function parseServerFrame(text: string): FrameResult<EventEnvelope> {
	return parseFrameWith(EventEnvelope, text);
}

/**
 * parseServerFrame as a widget page needs it: an event's envelope checked without its actor
 * (PageEventEnvelope), which no widget reads.
 */
export function parsePageFrame(text: string): FrameResult<PageEventEnvelope> {
	return parseFrameWith(PageEventEnvelope, text);
}

function parseFrameWith<E>(envelope: z.ZodMiniType<E>, text: string): FrameResult<E> {
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return { ok: false, error: 'frame is not JSON' };
	}
	if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
		return { ok: false, error: 'frame is not a JSON object' };
	const obj = raw as Record<string, unknown>;
	if (typeof obj.id === 'string' && obj.id.startsWith('evt_')) {
		const event = envelope.safeParse(obj);
		return event.success
			? { ok: true, value: { kind: 'event', message: event.data } }
			: { ok: false, error: describeIssues(event.error) };
	}
	const schemas = { ready: ReadyMessage, error: RealtimeErrorMessage, ping: PingMessage } as const;
	if (typeof obj.type !== 'string') return { ok: false, error: 'type: expected string' };
	// Own keys only: `type: "constructor"` or `"toString"` must not reach Object.prototype.
	if (!Object.hasOwn(schemas, obj.type))
		return { ok: true, value: { kind: 'other', type: obj.type } };
	const kind = obj.type as keyof typeof schemas;
	const parsed = schemas[kind].safeParse(obj);
	if (!parsed.success) return { ok: false, error: describeIssues(parsed.error) };
	return { ok: true, value: { kind, message: parsed.data } as ServerMessage<E> };
}
