// zod/mini as the pages use it: a discriminated union of two frame shapes, parsed once.
import * as z from 'zod/mini';

const Frame = z.discriminatedUnion('type', [
	z.object({ type: z.literal('ping'), data: z.object({ t: z.number() }) }),
	z.object({
		type: z.literal('event'),
		data: z.object({ id: z.string(), amount: z.number(), message: z.optional(z.string()) })
	})
]);

export function use(): string {
	const parsed = Frame.safeParse(JSON.parse('{"type":"ping","data":{"t":1}}'));
	return parsed.success ? parsed.data.type : 'invalid';
}
