// Shared building blocks of the wire types. Parse leniently, emit strictly (docs/upstream.md, how
// the kit reads the upstream): every object is a looseObject so that unknown extra fields from the
// upstream pass through.
import { z } from 'zod/mini';
// `/*@__PURE__*/` before `z.x().check(...)`: zod's functions are marked pure but `.check` is a
// method call the bundler must keep, with the schema and the checks it builds; marked, a page drops
// the schemas it does not use.
import './zod-messages.ts';

/** ISO 8601 date-time with a zone (docs/upstream.md, conventions). */
export const DateTime = z.iso.datetime({ offset: true });

/** A URI string; audio and video URLs are absolute. */
export const Url = z.url();

/**
 * Any order id as a path segment. docs/upstream.md shapes tip order ids as `tip_<number>_<suffix>`
 * and leaves media order ids open, so a path segment is accepted when it is a short safe token.
 */
export const ORDER_ID_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
export const OrderId = /*@__PURE__*/ z.string().check(z.regex(ORDER_ID_SEGMENT, 'not an order id'));

/** Overlay ids are `o_` followed by 8 hex characters (docs/upstream.md, tip goal). */
export const OVERLAY_ID = /^o_[0-9a-f]{8}$/;
export const OverlayId = /*@__PURE__*/ z
	.string()
	.check(z.regex(OVERLAY_ID, 'not an overlay id (o_ + 8 hex)'));

/** Counter names: lowercase slug of a-z 0-9 _ -, max 64 (docs/upstream.md, records). */
export const COUNTER_NAME = /^[a-z0-9_-]{1,64}$/;
export const CounterName = /*@__PURE__*/ z
	.string()
	.check(z.regex(COUNTER_NAME, 'counter names are 1 to 64 of a-z 0-9 _ -'));

export const Platform = z.literal(['twitch', 'kick']);
export type Platform = z.infer<typeof Platform>;

/** Every scope of docs/upstream.md, scopes. */
export const SCOPES = [
	'tts:read',
	'tips:create',
	'tts:control',
	'media:read',
	'media:control',
	'tipping:control',
	'viewers:read',
	'viewers:manage',
	'channel_points:manage',
	'webhooks:manage',
	'timers:manage',
	'counters:manage',
	'chat:write',
	'commands:manage',
	'overlays:manage',
	'ai_voices:manage'
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

/** One readable line per problem, each naming the field path: `tip.order_id: expected string`. */
export function describeIssues(
	error: z.core.$ZodError,
	prefix: readonly PropertyKey[] = []
): string {
	return error.issues
		.map((issue) => {
			const path = [...prefix, ...issue.path];
			const where = path.length ? path.map(String).join('.') : '(root)';
			return `${where}: ${issue.message}`;
		})
		.join('; ');
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** safeParse with a message that names the failing fields; never throws. */
export function parseWith<S extends z.ZodMiniType>(schema: S, input: unknown): Parsed<z.infer<S>> {
	const result = schema.safeParse(input);
	return result.success
		? { ok: true, value: result.data }
		: { ok: false, error: describeIssues(result.error) };
}

/**
 * A record of another's fields and its own (`base` and `more` are plain shapes): what `z.extend`
 * makes of a looseObject, without zod's extend machinery on every page (about 0.2 kB gzipped). Free
 * of side effects, so a page drops the records it does not use, spread included.
 */
/*@__NO_SIDE_EFFECTS__*/
export function withFields<A extends z.core.$ZodLooseShape, B extends z.core.$ZodLooseShape>(
	base: A,
	more: B
) {
	return z.looseObject({ ...base, ...more });
}
