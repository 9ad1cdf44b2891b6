// A page's read of /api answered from its streamer's live view (docs/architecture.md, the intake
// and the view): the body the upstream would answer (src/core/view/answers.ts), which costs the
// upstream nothing however many pages ask. When the view is not sure of the part read and an answer
// of it is on its way (the intake is reading it, or connecting, whose `ready` reads every part),
// the page waits for that answer, at most READ_WAIT_MS: that read is the one the page would make,
// and every page that asks while it is in flight shares it, where going upstream at once would cost
// one read per page at the very moments they all read (a reconnect, an event the view could not
// apply). With no answer on its way (a retry waiting out its backoff, a part the credential may not
// read), or past the wait, the read goes upstream.
//
// A tip goal of an overlay the view does not hold (one made after the goals were read) has the
// intake read the goals again, and the page waits for that read like any other: every page that
// asks meanwhile shares it, and the view holds the overlay after it. An overlay that is not there
// (a wrong id) has that read once in GOAL_MISS_MS, and such reads at most once in GOAL_REREAD_MS
// however many ids are asked for; past those its reads go upstream.
//
// A page's read may name the last events its own socket brought (SEEN_EVENT_HEADER): the page has
// acted on them (a tip that may count toward a goal, a re-read on doubt) and its answer must hold
// them. The page's socket and the intake's hear the same event at about the same time, either
// first: the view answers once it has those events too, waiting for them as for a read on its way,
// and past the wait the read goes upstream, whose answer holds them. An event waited for in vain
// (one the view forgot in a busy stream, or a read replayed long after) is not waited for again:
// a read that names it later is answered as one that names none.
import { LRUCache } from 'lru-cache';
import type { RouteName } from '../../contract/index.ts';
import { answerFromView, viewPartOf, type PageQuery } from '../../core/view/answers.ts';
import type { StreamIntake } from './intake.ts';

/**
 * What a page's read needs of the streamer's intake (its kept GET /me, account.ts, if any);
 * `touch`, told before a read of a part, is how a copy of another instance's view
 * (src/hosted/shared-view.ts) reads it again when stale.
 */
export type ViewSource = Pick<
	StreamIntake,
	'view' | 'pending' | 'changed' | 'status' | 'readAgain'
> &
	Partial<Pick<StreamIntake, 'account'>> & { touch?(): void };

/**
 * The header a page's read names the last events of its own socket with, comma-separated
 * (src/client/api.ts).
 */
export const SEEN_EVENT_HEADER = 'X-Seen-Event';
/** The most ids of SEEN_EVENT_HEADER taken (the page sends 8); the others are ignored. */
const SEEN_EVENTS_TAKEN = 16;
const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,100}$/;

/**
 * The event ids a read's SEEN_EVENT_HEADER names: what is not an event id is ignored (a read that
 * names none is answered as ever).
 */
export function seenEvents(value: string | undefined): string[] {
	if (value === undefined) return [];
	const ids = value.split(',', SEEN_EVENTS_TAKEN).map((id) => id.trim());
	return ids.filter((id) => EVENT_ID.test(id));
}

/**
 * The longest a page's read waits for a part's answer on its way: a read of the upstream takes
 * well under it when the upstream is well, and past it the page's read goes upstream itself.
 */
export const READ_WAIT_MS = 2_000;

/** An overlay id whose goal had the goals read again is not the cause of another this soon. */
export const GOAL_MISS_MS = 10 * 60_000;
/** The least time between two reads of the goals made for overlays the view did not hold. */
export const GOAL_REREAD_MS = 10_000;

/** Per streamer's intake: the events a read waited for in vain (the most recent ones). */
const givenUp = new WeakMap<ViewSource, LRUCache<string, true>>();

function givenUpOf(source: ViewSource): LRUCache<string, true> {
	let ids = givenUp.get(source);
	if (!ids) {
		ids = new LRUCache({ max: 64 });
		givenUp.set(source, ids);
	}
	return ids;
}

/**
 * Per streamer's intake: when each overlay id (the most recent ones) had the goals read again, and
 * when the last read of them for any did.
 */
const goalMisses = new WeakMap<ViewSource, { ids: LRUCache<string, number>; at: number }>();

/**
 * Whether a read of `overlayId`'s goal, which the view is sure it does not hold, may have the goals
 * read again now; if so, it is counted as done.
 */
function mayReadGoals(source: ViewSource, overlayId: string, now: number): boolean {
	let misses = goalMisses.get(source);
	if (!misses) {
		misses = { ids: new LRUCache({ max: 256 }), at: -Infinity };
		goalMisses.set(source, misses);
	}
	const last = misses.ids.get(overlayId) ?? -Infinity;
	if (now - last < GOAL_MISS_MS || now - misses.at < GOAL_REREAD_MS) return false;
	misses.ids.set(overlayId, now);
	misses.at = now;
	return true;
}

/** The view's answer to the read, or null: the read goes upstream. */
export async function answerFromIntake(
	source: ViewSource,
	name: RouteName,
	params: Record<string, string>,
	query: PageQuery,
	/**
	 * `seen`: the last events the page's socket brought (seenEvents), which the answer must hold;
	 * `waitMs`: the longest the read waits for an answer on its way.
	 */
	{ seen: named = [], waitMs = READ_WAIT_MS }: { seen?: readonly string[]; waitMs?: number } = {}
): Promise<unknown> {
	const part = viewPartOf(name);
	if (!part) return null;
	source.touch?.();
	const vain = named.length ? givenUpOf(source) : null;
	const seen = named.filter((id) => !vain?.has(id));
	/** The view has not had one of the page's last events yet: it may come on the intake's socket. */
	const behind = () => seen.some((id) => !source.view.hasSeen(id));
	const answer = () => (behind() ? null : answerFromView(source.view, name, params, query));
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<true>((resolve) => {
		timer = setTimeout(() => resolve(true), waitMs);
		timer.unref();
	});
	/** This read had the goals read again: it does not once more. */
	let asked = false;
	try {
		for (;;) {
			const found = answer();
			if (found !== null) return found;
			// Behind the page's last event: waited for below, as a read on its way.
			if (!behind()) {
				if (source.view.sure(part)) {
					// Sure of the part and still no answer: one the view never gives (a cursor, a
					// deeper page); or a goal of an overlay made after the goals were read, which a
					// read of the goals on its way, or asked for now, may bring.
					if (name !== 'tipGoalRead') return null;
					if (!source.pending(part)) {
						if (asked || !mayReadGoals(source, params.overlayId, Date.now())) return null;
						asked = true;
						source.readAgain(part);
						if (!source.pending(part)) return null;
					}
				} else if (!source.pending(part)) return null;
			}
			const changed = source.changed().then(() => false as const);
			if (!(await Promise.race([changed, late]))) continue;
			for (const id of seen) if (!source.view.hasSeen(id)) vain?.set(id, true);
			return answer();
		}
	} finally {
		clearTimeout(timer);
	}
}
