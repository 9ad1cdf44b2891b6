// The dock's Activity (docs/activity.md; the routes' contract is src/contract/control-activity.ts),
// behind the control credential like the dock's other routes: the list, the summary of this stream
// and its start, Replay, Export CSV and Delete history, each for the caller's streamer only.
import { Hono, type Context } from 'hono';
import type { ActivitySummary, ReplayAnswer } from '../../contract/activity.ts';
import { ActivityQuery, ExportQuery, SummaryQuery } from '../../contract/activity-query.ts';
import { ROUTES } from '../../contract/index.ts';
import { replayUpdates, tipKey } from '../../core/activity/entries.ts';
import {
	cursorOf,
	positionOf,
	readCursor,
	streamStart,
	summarize
} from '../../core/activity/query.ts';
import { activityCsv } from '../activity/csv.ts';
import type { ActivityRecorder } from '../activity/recorder.ts';
import type { CallerEnv } from '../caller.ts';
import { ask, CONTROL_ACTIONS } from '../control-actions.ts';
import type { ControlLock } from '../control-lock.ts';
import { HttpError } from '../http-error.ts';
import { serve } from './control-input.ts';

/** The most entries a summary or an export reads. */
const MAX_READ = 100_000;
/** The latest entries the kit looks through for the stream's start. */
const START_LOOK = 2_000;

export function activityRoutes(recorder: ActivityRecorder, lock: ControlLock): Hono<CallerEnv> {
	const app = new Hono<CallerEnv>();
	const store = recorder.store;
	const q = <T>(c: Context) => c.req.valid('query' as never) as T;

	serve(
		app,
		'activity',
		async (c) => {
			const { kind, q: name, cursor, limit = 50 } = q<ActivityQuery>(c);
			const before = cursor === undefined ? undefined : (readCursor(cursor) ?? badCursor());
			const filter = { kinds: kind, name: name || undefined, before, limit: limit + 1 };
			const found = await stored(store.list(c.var.caller.streamer, filter));
			const entries = found.slice(0, limit);
			const next = found.length > limit ? cursorOf(positionOf(entries[limit - 1])) : null;
			return c.json({ entries, next_cursor: next });
		},
		{ query: ActivityQuery }
	);
	serve(
		app,
		'activitySummary',
		async (c) =>
			c.json(await summary(recorder, c.var.caller.streamer, q<{ since?: string }>(c).since)),
		{ query: SummaryQuery }
	);
	serve(app, 'activityStart', async (c, { body }) => {
		await stored(store.setStart(c.var.caller.streamer, body.at));
		return c.json(await summary(recorder, c.var.caller.streamer));
	});
	serve(app, 'activityReplay', async (c, { body }) => {
		const { streamer, upstream } = c.var.caller;
		const answer = await lock(streamer, () =>
			body.queue === 'media'
				? replayVideo(upstream, body.order_id)
				: replayTip(recorder, streamer, upstream, body.order_id)
		);
		return c.json(answer);
	});
	exportRoute(app, recorder);
	serve(app, 'activityDelete', async (c) => {
		const deleted = await stored(store.delete(c.var.caller.streamer));
		await recorder.told(c.var.caller.streamer);
		return c.json({ deleted });
	});
	return app;
}

/** Export CSV of a range, oldest first, as an attachment. */
function exportRoute(app: Hono<CallerEnv>, recorder: ActivityRecorder): void {
	const store = recorder.store;
	const q = <T>(c: Context) => c.req.valid('query' as never) as T;
	serve(
		app,
		'activityExport',
		async (c) => {
			const { from, to, kind } = q<ExportQuery>(c);
			const filter = {
				kinds: kind,
				from: from === undefined ? undefined : Date.parse(from),
				to: to === undefined ? undefined : Date.parse(to),
				limit: MAX_READ
			};
			const entries = (await stored(store.list(c.var.caller.streamer, filter))).reverse();
			const name = `activity-${(from ?? 'start').slice(0, 10)}-${(to ?? 'now').slice(0, 10)}.csv`;
			return c.body(activityCsv(entries), 200, {
				'Content-Type': 'text/csv; charset=utf-8',
				'Content-Disposition': `attachment; filename="${name}"`,
				'Cache-Control': 'no-store'
			});
		},
		{ query: ExportQuery }
	);
}

const badCursor = (): never => {
	throw new HttpError(
		400,
		'bad_cursor',
		'cursor: not a cursor of this list (read the first page again)'
	);
};

/** The store's answer; a store that fails is the dock's 503, nothing changed. */
async function stored<T>(work: Promise<T>): Promise<T> {
	try {
		return await work;
	} catch (err) {
		console.warn(`[activity] the store failed: ${(err as Error).message}`);
		throw new HttpError(
			503,
			'activity_unavailable',
			'the activity cannot be read or changed now: try again'
		);
	}
}

async function summary(
	recorder: ActivityRecorder,
	streamer: string,
	since?: string
): Promise<ActivitySummary> {
	const store = recorder.store;
	let start: { at: string; from: ActivitySummary['since_from'] } | null = null;
	const set = since ?? (await stored(store.start(streamer)));
	if (set) start = { at: set, from: 'streamer' };
	else start = streamStart(await stored(store.list(streamer, { limit: START_LOOK })));
	const at = start?.at ?? new Date().toISOString();
	const entries = await stored(
		store.list(streamer, { kinds: ['tip', 'video'], from: Date.parse(at), limit: MAX_READ })
	);
	return { since: at, since_from: start?.from ?? 'none', ...summarize(entries) };
}

/**
 * A recorded tip queued again (control-actions.ts's call, in the dock's lock): not when it, or its
 * replay, waits in the queue (as recorded, and as the upstream's queue shows).
 */
async function replayTip(
	recorder: ActivityRecorder,
	streamer: string,
	upstream: Parameters<typeof ask>[0],
	orderId: string
): Promise<ReplayAnswer> {
	const store = recorder.store;
	const entry = (await stored(store.get(streamer, [tipKey(orderId)]))).get(tipKey(orderId));
	const replay = entry?.kind === 'tip' && entry.replayed_as ? entry.replayed_as : null;
	const queue = await ask(upstream, ROUTES.ttsQueue);
	const waits = (id: string | null) => id !== null && queue.items.some((t) => t.order_id === id);
	// A replay made elsewhere (another dock, the upstream's dashboard): the same tip queued again.
	const again =
		entry?.kind === 'tip' &&
		queue.items.find(
			(t) =>
				t.is_replay &&
				t.name === entry.name &&
				t.amount === entry.amount &&
				t.message === entry.message
		);
	if (waits(orderId)) return inQueue(orderId);
	if (replay !== null && waits(replay)) return inQueue(replay);
	if (again) return inQueue(again.order_id);
	const { tip } = await ask(upstream, ROUTES.ttsReplay, { orderId });
	await recorder.apply(streamer, [
		{ eventId: null, updates: replayUpdates(orderId, tip, new Date().toISOString()) }
	]);
	return { outcome: 'done', message: 'queued again', order_id: tip.order_id };
}

const inQueue = (orderId: string): ReplayAnswer => ({
	outcome: 'in_queue',
	message: 'already in the queue: it plays when its turn comes',
	order_id: orderId
});

async function replayVideo(
	upstream: Parameters<typeof ask>[0],
	orderId: string
): Promise<ReplayAnswer> {
	const answer = await CONTROL_ACTIONS['media-replay'].run(upstream, orderId);
	return answer.outcome === 'already'
		? { outcome: 'in_queue', message: 'already in the queue again', order_id: null }
		: { outcome: 'done', message: answer.message, order_id: null };
}
