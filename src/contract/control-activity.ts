// The dock's Activity routes (docs/activity.md), served by src/server/routes/activity.ts: the list
// (newest first, a kind filter, a name search, a cursor), the summary of this stream and its start,
// Replay, Export CSV and Delete history. Part of the CONTROL table (control.ts), which lists their
// error codes; their bodies are in control-bodies.ts, their queries in activity-query.ts.
import { z } from 'zod/mini';
import { ActivityPage, ActivitySummary, DeleteAnswer, ReplayAnswer } from './activity.ts';
import { route } from './control-route.ts';

/**
 * Query: `kind` (one of ACTIVITY_KINDS, or several joined by commas), `q` (a name, matched
 * case-insensitively from the start of the name), `cursor` (a page's `next_cursor`), `limit` (1 to
 * 100, default 50). 400 `bad_cursor` for a cursor this server did not give.
 */
export const activity = /*@__PURE__*/ route({
	name: 'activity',
	method: 'GET',
	path: '/activity',
	credential: true,
	answer: ActivityPage
});
/** Query `since` (a date-time): the summary from then; absent: from the stream's start. */
export const activitySummary = /*@__PURE__*/ route({
	name: 'activitySummary',
	method: 'GET',
	path: '/activity/summary',
	credential: true,
	answer: ActivitySummary
});
/** The streamer sets the stream's start, `{ "at": "<date-time>" }`, or `{ "at": null }` for the kit's. */
export const activityStart = /*@__PURE__*/ route({
	name: 'activityStart',
	method: 'PUT',
	path: '/activity/start',
	credential: true,
	answer: ActivitySummary
});
/**
 * Replay a recorded tip (`{ "order_id" }`) or video (`{ "order_id", "queue": "media" }`) through the
 * dock's replay action. Refused by the upstream: its error's code and message (`not_found`: gone
 * from the upstream's history).
 */
export const activityReplay = /*@__PURE__*/ route({
	name: 'activityReplay',
	method: 'POST',
	path: '/activity/replay',
	credential: true,
	upstream: true,
	answer: ReplayAnswer
});
/**
 * Export CSV: query `from` and `to` (date-times, both optional, `to` excluded) and `kind` as the
 * list's; answers text/csv as an attachment, oldest first.
 */
export const activityExport = /*@__PURE__*/ route({
	name: 'activityExport',
	method: 'GET',
	path: '/activity/export',
	credential: true,
	answer: z.string()
});
/** Delete history: every recorded entry of the streamer, now. */
export const activityDelete = /*@__PURE__*/ route({
	name: 'activityDelete',
	method: 'POST',
	path: '/activity/delete',
	credential: true,
	answer: DeleteAnswer
});
