// The Activity's calls (docs/dock.md, "Activity"), through the dock's /control client: the list,
// the summary of this stream and its start, Replay, Export CSV and Delete history. Apart from
// control-client.ts so that their schemas load with the Activity's own chunk (Activity.svelte).
import type { ControlApi } from '../../src/client/control.ts';
import type { ActivityKind } from '../../src/contract/activity.ts';
import * as routes from '../../src/contract/control-activity.ts';

/** One page of the list: newest first, filtered by kinds and a name. */
export interface ListQuery {
	kinds: readonly ActivityKind[];
	q: string;
	cursor?: string | null;
	limit: number;
}

/** The range (ISO date-times, `to` excluded) and kinds of an export. */
export interface ExportRange {
	from: string | null;
	to: string | null;
	kinds: readonly ActivityKind[];
}

export class ActivityClient {
	readonly #control: ControlApi;

	constructor(control: ControlApi) {
		this.#control = control;
	}

	/** GET /control/activity. */
	list({ kinds, q, cursor, limit }: ListQuery) {
		const query: Record<string, string> = { limit: String(limit) };
		if (kinds.length) query.kind = kinds.join(',');
		if (q.trim()) query.q = q.trim();
		if (cursor) query.cursor = cursor;
		return this.#control.call(routes.activity, { query });
	}

	/** GET /control/activity/summary: from the stream's start (the kit's, or the one set). */
	summary() {
		return this.#control.call(routes.activitySummary);
	}

	/** PUT /control/activity/start: the stream's start as the streamer sets it; null: the kit's. */
	setStart(at: string | null) {
		return this.#control.call(routes.activityStart, { body: { at } });
	}

	/** POST /control/activity/replay of a recorded tip, or of a video (`media`). */
	replay(orderId: string, queue: 'tts' | 'media') {
		const body = queue === 'media' ? { order_id: orderId, queue } : { order_id: orderId };
		return this.#control.call(routes.activityReplay, { body });
	}

	/** GET /control/activity/export: the range as CSV text, oldest first. */
	exportCsv({ from, to, kinds }: ExportRange) {
		const query: Record<string, string> = {};
		if (from) query.from = from;
		if (to) query.to = to;
		if (kinds.length) query.kind = kinds.join(',');
		return this.#control.call(routes.activityExport, { query });
	}

	/** POST /control/activity/delete: every recorded entry. */
	deleteAll() {
		return this.#control.call(routes.activityDelete, { body: {} });
	}
}
