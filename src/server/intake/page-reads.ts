// A page's read of /api answered from its streamer's live view (docs/architecture.md, the intake
// and the view): the body the upstream would answer (src/core/view/answers.ts), which costs the
// upstream nothing however many pages ask. When the view is not sure of the part read and an answer
// of it is on its way (the intake is reading it, or connecting, whose `ready` reads every part),
// the page waits for that answer, at most READ_WAIT_MS: that read is the one the page would make,
// and every page that asks while it is in flight shares it, where going upstream at once would cost
// one read per page at the very moments they all read (a reconnect, an event the view could not
// apply). With no answer on its way (a retry waiting out its backoff, a part the credential may not
// read), or past the wait, the read goes upstream.
import type { RouteName } from '../../contract/index.ts';
import { answerFromView, viewPartOf, type PageQuery } from '../../core/view/answers.ts';
import type { StreamIntake } from './intake.ts';

/** What a page's read needs of the streamer's intake (its kept GET /me, account.ts, if any). */
export type ViewSource = Pick<StreamIntake, 'view' | 'pending' | 'changed' | 'status'> &
	Partial<Pick<StreamIntake, 'account'>>;

/**
 * The longest a page's read waits for a part's answer on its way: a read of the upstream takes
 * well under it when the upstream is well, and past it the page's read goes upstream itself.
 */
export const READ_WAIT_MS = 2_000;

/** The view's answer to the read, or null: the read goes upstream. */
export async function answerFromIntake(
	source: ViewSource,
	name: RouteName,
	params: Record<string, string>,
	query: PageQuery,
	waitMs = READ_WAIT_MS
): Promise<unknown> {
	const part = viewPartOf(name);
	if (!part) return null;
	const answer = () => answerFromView(source.view, name, params, query);
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<true>((resolve) => {
		timer = setTimeout(() => resolve(true), waitMs);
		timer.unref();
	});
	try {
		for (;;) {
			const found = answer();
			// Sure of the part and still no answer: one the view never gives (a cursor, a deeper page).
			if (found !== null || source.view.sure(part) || !source.pending(part)) return found;
			const changed = source.changed().then(() => false as const);
			if (await Promise.race([changed, late])) return answer();
		}
	} finally {
		clearTimeout(timer);
	}
}
