// Event envelopes and the payload of each event type (docs/upstream.md, the
// realtime socket and its events). The same envelope is a webhook body and a realtime message.
import { z } from 'zod/mini';
// `/*@__PURE__*/` before `z.x().check(...)`: zod's functions are marked pure but `.check` is a
// method call the bundler must keep, with the schema and the checks it builds; marked, a page drops
// the schemas it does not use.
import {
	CounterName,
	DateTime,
	describeIssues,
	OrderId,
	OverlayId,
	Url,
	withFields,
	type Scope
} from './common.ts';
import {
	Actor,
	Counter,
	HistoryMediaItem,
	HistoryTip,
	QueueMediaItem,
	QueueTip,
	TipGoal
} from './resources.ts';
import { ChatCommandData } from './commands.ts';

const orderOnly = () => z.looseObject({ order_id: OrderId });
const paused = () => z.looseObject({ is_paused: z.boolean() });
const empty = () => z.looseObject({});

/**
 * One event type: the scope a credential needs to receive it (null: any) and its payload, as a
 * function that builds the payload's schema: parseEventWith builds it the first time an event of
 * that type arrives (eventData), so an idle page holds no schema of an event it has not seen.
 */
export interface EventSpec {
	scope: Scope | null;
	data: () => z.ZodMiniType<Record<string, unknown>>;
}
export type EventTable = Record<string, EventSpec>;

const built = new WeakMap<EventSpec, z.ZodMiniType<Record<string, unknown>>>();

/** The payload schema of an event type, built on first use and kept. */
export function eventData(spec: EventSpec): z.ZodMiniType<Record<string, unknown>> {
	let schema = built.get(spec);
	if (!schema) built.set(spec, (schema = spec.data()));
	return schema;
}

// The catalog in groups, so that a page passes the realtime client only the events its widgets
// read and bundles only their schemas (an event of another type is ignored unparsed).
/** Tips and the TTS queue. */
export const TTS_EVENTS = {
	'tip.created': { scope: 'tts:read', data: () => z.looseObject({ tip: QueueTip }) },
	'tip.tts_ready': {
		scope: 'tts:read',
		data: () => z.looseObject({ order_id: OrderId, tts_url: Url })
	},
	'queue.tts.started': {
		scope: 'tts:read',
		data: () => z.looseObject({ order_id: OrderId, tip: QueueTip })
	},
	'queue.tts.finished': {
		scope: 'tts:read',
		data: () => z.looseObject({ order_id: OrderId, tip: HistoryTip })
	},
	'queue.tts.released': { scope: 'tts:read', data: orderOnly },
	'queue.tts.skipped': { scope: 'tts:read', data: orderOnly },
	'queue.tts.removed': { scope: 'tts:read', data: orderOnly },
	'queue.tts.replayed': { scope: 'tts:read', data: () => z.looseObject({ tip: QueueTip }) },
	'queue.tts.paused': { scope: 'tts:read', data: paused },
	'queue.tts.resumed': { scope: 'tts:read', data: paused },
	'queue.tts.cleared': { scope: 'tts:read', data: empty }
} as const satisfies EventTable;

/** The media queue. */
export const MEDIA_EVENTS = {
	'queue.media.added': {
		scope: 'media:read',
		data: () => z.looseObject({ media: QueueMediaItem })
	},
	'queue.media.started': {
		scope: 'media:read',
		data: () => z.looseObject({ order_id: OrderId, media: QueueMediaItem })
	},
	'queue.media.finished': {
		scope: 'media:read',
		data: () => z.looseObject({ order_id: OrderId, media: HistoryMediaItem })
	},
	'queue.media.released': { scope: 'media:read', data: orderOnly },
	'queue.media.skipped': { scope: 'media:read', data: orderOnly },
	'queue.media.removed': { scope: 'media:read', data: orderOnly },
	'queue.media.paused': { scope: 'media:read', data: paused },
	'queue.media.resumed': { scope: 'media:read', data: paused },
	'queue.media.visibility': {
		scope: 'media:read',
		data: () => z.looseObject({ visible: z.boolean() })
	}
} as const satisfies EventTable;

/** Counters. */
export const COUNTER_EVENTS = {
	'counter.updated': {
		scope: 'counters:manage',
		data: () => z.looseObject({ counter: Counter, previous: z.nullable(z.int()) })
	},
	'counter.deleted': { scope: 'counters:manage', data: () => z.looseObject({ name: CounterName }) }
} as const satisfies EventTable;

/** Overlays: celebration, reload, tip goal. */
export const OVERLAY_EVENTS = {
	'overlay.celebration': {
		scope: 'overlays:manage',
		data: () =>
			z.looseObject({ overlay_id: z.nullable(OverlayId), widget_id: z.nullable(z.string()) })
	},
	'overlay.reload': {
		scope: 'overlays:manage',
		data: () => z.looseObject({ overlay_id: z.nullable(OverlayId) })
	},
	'overlay.tip_goal.updated': {
		scope: 'overlays:manage',
		data: () => z.looseObject({ overlay_id: OverlayId, tip_goal: TipGoal })
	}
} as const satisfies EventTable;

/** Tipping, chat commands, channel points: no widget reads them. */
export const OTHER_EVENTS = {
	'tipping.opened': { scope: null, data: empty },
	'tipping.closed': { scope: null, data: empty },
	// A custom command ran (src/contract/commands.ts); the server's intake acts on it.
	'chat.command': { scope: 'commands:manage', data: () => ChatCommandData },
	'twitch.channel_point_redemption': {
		scope: 'channel_points:manage',
		data: () => z.looseObject({ is_managed: z.optional(z.boolean()) })
	}
} as const satisfies EventTable;

/**
 * Every event type the project knows. Their descriptions are EVENT_DESCRIPTIONS, apart, so that
 * the widget pages, which never show them, do not carry them.
 */
export const EVENT_CATALOG = /*@__PURE__*/ Object.assign(
	{},
	TTS_EVENTS,
	MEDIA_EVENTS,
	COUNTER_EVENTS,
	OVERLAY_EVENTS,
	OTHER_EVENTS
) as typeof TTS_EVENTS &
	typeof MEDIA_EVENTS &
	typeof COUNTER_EVENTS &
	typeof OVERLAY_EVENTS &
	typeof OTHER_EVENTS;

export type EventType = keyof typeof EVENT_CATALOG;

/** What GET /events says of each event type (docs/upstream.md, events). */
export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
	'tip.created': 'A tip was created.',
	'tip.tts_ready': "The tip's pre-rendered audio is ready (tts_url becomes non-null).",
	'queue.tts.started': 'A TTS item was claimed with POST /tts/{orderId}/start.',
	'queue.tts.finished': 'A TTS item finished playing and moved to history.',
	'queue.tts.released': 'A TTS claim was dropped without finishing.',
	'queue.tts.skipped': 'The streamer skipped a TTS item; a consumer playing it stops at once.',
	'queue.tts.removed': 'A TTS item was removed from the queue.',
	'queue.tts.replayed': 'A played tip was queued again as a new item.',
	'queue.tts.paused': 'The TTS queue paused.',
	'queue.tts.resumed': 'The TTS queue resumed.',
	'queue.tts.cleared': 'Every queued TTS item was deleted.',
	'queue.media.added': 'A video request entered the media queue.',
	'queue.media.started': 'A media item was claimed with POST /media/{orderId}/start.',
	'queue.media.finished': 'A media item finished playing and moved to history.',
	'queue.media.released': 'A media claim was dropped without finishing.',
	'queue.media.skipped': 'The streamer skipped a media item.',
	'queue.media.removed': 'A media item was removed from the queue.',
	'queue.media.paused': 'The media queue paused.',
	'queue.media.resumed': 'The media queue resumed.',
	'queue.media.visibility': 'The media player was shown or hidden on the overlay.',
	'counter.updated': 'A counter changed, from chat or from the API.',
	'counter.deleted': 'A counter was deleted.',
	'overlay.celebration':
		'Fire the celebration widget: every overlay (null), one overlay, or one widget.',
	'overlay.reload': 'Reload a connected overlay (null: every overlay).',
	'overlay.tip_goal.updated': "An overlay's tip goal changed.",
	'tipping.opened': 'Tipping opened.',
	'tipping.closed': 'Tipping closed; viewers already mid-payment still complete.',
	'chat.command': 'A custom command ran.',
	'twitch.channel_point_redemption':
		'A channel point reward was redeemed; is_managed tells whether it is resolvable.'
};
export const EVENT_TYPES = /*@__PURE__*/ Object.keys(EVENT_CATALOG) as EventType[];
export type EventData<T extends EventType> = z.infer<ReturnType<(typeof EVENT_CATALOG)[T]['data']>>;

export function isKnownEventType(type: string): type is EventType {
	return Object.hasOwn(EVENT_CATALOG, type);
}

/** The event types a credential with these scopes may receive (docs/upstream.md, event catalog). */
export function eventTypesForScopes(scopes: readonly string[]): EventType[] {
	return EVENT_TYPES.filter((type) => {
		const need = EVENT_CATALOG[type].scope;
		return need === null || scopes.includes(need);
	});
}

export const EventId = /*@__PURE__*/ z
	.string()
	.check(z.regex(/^evt_[A-Za-z0-9_-]+$/, 'event ids start with evt_'));

const pageEnvelopeShape = {
	id: EventId,
	type: z.string(),
	created_at: DateTime,
	// Any JSON object (not an array or null): the same check as z.record(z.string(), z.unknown()),
	// without zod's record schema (about 0.6 kB gzipped on every widget page).
	data: z.looseObject({})
};

/**
 * The envelope as the widget pages read it (parseEventWith, parsePageFrame): everything but the
 * actor, which no widget shows; it passes through unchecked. The actor's schema, a union of three
 * records, was 0.3 kB gzipped on every widget page.
 */
export const PageEventEnvelope = z.looseObject(pageEnvelopeShape);
export type PageEventEnvelope = z.infer<typeof PageEventEnvelope>;

/** The envelope without a type-specific payload check. */
export const EventEnvelope = withFields(pageEnvelopeShape, { actor: z.optional(Actor) });
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/**
 * A known event whose payload has been validated. Pick, not Omit: the envelope is a looseObject with
 * an index signature, and Omit over it would turn `id` and `created_at` into `unknown`. No `actor`:
 * a page does not check it (PageEventEnvelope).
 */
export type KnownEvent = {
	[T in EventType]: Pick<EventEnvelope, 'id' | 'created_at'> & {
		type: T;
		data: EventData<T>;
	};
}[EventType];

export type ParsedEvent =
	| { ok: true; known: true; event: KnownEvent }
	/** A valid envelope of a type this project does not know: keep the envelope, ignore the data. */
	| { ok: true; known: false; event: PageEventEnvelope }
	| { ok: false; error: string };

/** Parse an event envelope, its actor included, and, for known types, its payload. Never throws. */
export function parseEvent(input: unknown): ParsedEvent {
	const envelope = EventEnvelope.safeParse(input);
	if (!envelope.success) return { ok: false, error: describeIssues(envelope.error) };
	return parseEventWith(EVENT_CATALOG, envelope.data);
}

/**
 * parseEvent as a widget page needs it: the envelope without its actor (PageEventEnvelope), and the
 * payloads of the types of `table` only: an event of another type is a valid envelope the page
 * ignores (`known: false`), its payload not parsed.
 */
export function parseEventWith(table: EventTable, input: unknown): ParsedEvent {
	const envelope = PageEventEnvelope.safeParse(input);
	if (!envelope.success) return { ok: false, error: describeIssues(envelope.error) };
	const type = envelope.data.type;
	if (!Object.hasOwn(table, type)) return { ok: true, known: false, event: envelope.data };
	const data = eventData(table[type]).safeParse(envelope.data.data);
	if (!data.success)
		return { ok: false, error: `${type}: ${describeIssues(data.error, ['data'])}` };
	return {
		ok: true,
		known: true,
		event: { ...envelope.data, type, data: data.data } as KnownEvent
	};
}
