// Floor page (b): the same component plus zod/mini, as the project validates upstream frames: a
// discriminated union of two event shapes, parsed once (what any page does with its first frame).
import { mount } from 'svelte';
import * as z from 'zod/mini';
import Counter from './Counter.svelte';

const Frame = z.discriminatedUnion('type', [
	z.object({ type: z.literal('ping'), data: z.object({ t: z.number() }) }),
	z.object({
		type: z.literal('event'),
		data: z.object({ id: z.string(), amount: z.number(), message: z.optional(z.string()) })
	})
]);
const parsed = Frame.safeParse(JSON.parse('{"type":"ping","data":{"t":1}}'));

mount(Counter, {
	target: document.getElementById('app')!,
	props: { note: parsed.success ? ` ${parsed.data.type}` : ' invalid' }
});
