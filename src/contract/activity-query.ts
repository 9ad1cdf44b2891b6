// What the server checks of the Activity's queries (control-activity.ts names the routes), apart
// from the routes so that the dock carries none of it.
import { z } from 'zod/mini';
import { ACTIVITY_KINDS, type ActivityKind } from './activity.ts';
import { DateTime } from './common.ts';

/** The largest page of the list. */
export const MAX_ACTIVITY_PAGE = 100;

const Kinds = /*@__PURE__*/ z.pipe(
	z.string(),
	z.transform((s, ctx) => {
		const kinds = s.split(',').filter((k) => k !== '');
		for (const k of kinds)
			if (!(ACTIVITY_KINDS as readonly string[]).includes(k)) {
				ctx.issues.push({ code: 'custom', message: `unknown kind ${k}`, input: s });
				return z.NEVER;
			}
		return kinds as ActivityKind[];
	})
);

const Limit = /*@__PURE__*/ z.pipe(
	z.string().check(z.regex(/^\d{1,3}$/, 'expected 1 to 100')),
	z.pipe(z.transform(Number), z.int().check(z.gte(1), z.lte(MAX_ACTIVITY_PAGE)))
);

export const ActivityQuery = z.object({
	kind: z.optional(Kinds),
	q: z.optional(/*@__PURE__*/ z.string().check(z.trim(), z.maxLength(100))),
	cursor: z.optional(/*@__PURE__*/ z.string().check(z.maxLength(300))),
	limit: z.optional(Limit)
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;

export const SummaryQuery = z.object({ since: z.optional(DateTime) });

export const ExportQuery = z.object({
	from: z.optional(DateTime),
	to: z.optional(DateTime),
	kind: z.optional(Kinds)
});
export type ExportQuery = z.infer<typeof ExportQuery>;
