// The dock's actions (POST /control/actions/:action, docs/dock.md): what each one asks the
// upstream, and how the answers become the dock's outcome. Each is safe to press twice: the ones
// the upstream would repeat (a skip skips whatever plays, a replay queues another copy) first read
// the queue and answer `already` when the press has nothing left to do. routes/control.ts runs
// them one at a time per streamer, so that the read and the call it decides stay together.
import type { z } from 'zod/mini';
import { fillPath } from '../contract/route-table.ts';
import {
	ApiErrorBody,
	MissingScopeBody,
	ROUTES,
	type QueueMediaItem,
	type QueueTip,
	type Route
} from '../contract/index.ts';
import type { ACTION_ORDER, ActionAnswer, ActionName } from '../contract/control.ts';
import { HttpError, upstreamUnavailable } from './http-error.ts';
import { bodyBytes, UpstreamUnavailable, type UpstreamClient } from './upstream.ts';

/** The answer of an action (src/contract/control.ts, ActionAnswer). */
type ActionOutcome = ActionAnswer;

/** An action the dock can take: with an order id (`{ order_id }`) or without a body. */
export type ControlAction =
	| { order: true; run(upstream: UpstreamClient, orderId: string): Promise<ActionOutcome> }
	| { order: false; run(upstream: UpstreamClient): Promise<ActionOutcome> };

type Queue = 'tts' | 'media';

const done = (message: string): ActionOutcome => ({ outcome: 'done', message });
const already = (message: string): ActionOutcome => ({ outcome: 'already', message });

const NOUN = { tts: 'tip', media: 'video' } as const;
const QUEUE_NAME = { tts: 'TTS', media: 'media' } as const;

/** Each action as the contract states it (ACTION_ORDER): one that names an order runs with one. */
export const CONTROL_ACTIONS: {
	[K in ActionName]: Extract<ControlAction, { order: (typeof ACTION_ORDER)[K] }>;
} = {
	'tts-skip': { order: true, run: (up, id) => skip(up, 'tts', id) },
	'media-skip': { order: true, run: (up, id) => skip(up, 'media', id) },
	'tts-pause': { order: false, run: (up) => pause(up, 'tts', true) },
	'tts-resume': { order: false, run: (up) => pause(up, 'tts', false) },
	'media-pause': { order: false, run: (up) => pause(up, 'media', true) },
	'media-resume': { order: false, run: (up) => pause(up, 'media', false) },
	'media-show': { order: false, run: (up) => showMedia(up, true) },
	'media-hide': { order: false, run: (up) => showMedia(up, false) },
	'tipping-open': { order: false, run: (up) => tipping(up, true) },
	'tipping-close': { order: false, run: (up) => tipping(up, false) },
	'tts-remove': { order: true, run: (up, id) => remove(up, 'tts', id) },
	'media-remove': { order: true, run: (up, id) => remove(up, 'media', id) },
	'tts-replay': { order: true, run: replayTip },
	'media-replay': { order: true, run: replayVideo }
};

/**
 * The upstream's skip takes no order id (it skips the claimed item, else the head): it is sent only
 * while the item the dock shows as playing is the one claimed, so a press that comes after the
 * item ended, or a second press, never skips the next one.
 */
async function skip(up: UpstreamClient, q: Queue, orderId: string): Promise<ActionOutcome> {
	const queue = await ask(up, q === 'tts' ? ROUTES.ttsQueue : ROUTES.mediaQueue);
	if (queue.current_order_id !== orderId) {
		if (queue.items.some((item) => item.order_id === orderId))
			throw new HttpError(
				409,
				'not_playing',
				`that ${NOUN[q]} is waiting, not playing: remove it instead`
			);
		return already('already skipped, or it has ended');
	}
	const skipped = await ask(up, q === 'tts' ? ROUTES.ttsSkip : ROUTES.mediaSkip);
	if (skipped.order_id === orderId) return done('skipped');
	if (skipped.order_id === null) return already('it had ended: nothing was skipped');
	// It ended between the read and the skip, and the upstream skipped the next one: say so.
	return done(`it had just ended, so the ${NOUN[q]} after it was skipped`);
}

async function pause(up: UpstreamClient, q: Queue, paused: boolean): Promise<ActionOutcome> {
	const route = {
		tts: paused ? ROUTES.ttsPause : ROUTES.ttsResume,
		media: paused ? ROUTES.mediaPause : ROUTES.mediaResume
	}[q];
	await ask(up, route);
	return done(`${QUEUE_NAME[q]} queue ${paused ? 'paused' : 'resumed'}`);
}

async function showMedia(up: UpstreamClient, visible: boolean): Promise<ActionOutcome> {
	await ask(up, ROUTES.mediaVisibility, { body: { visible } });
	return done(visible ? 'the video player shows' : 'the video player is hidden');
}

async function tipping(up: UpstreamClient, open: boolean): Promise<ActionOutcome> {
	await ask(up, open ? ROUTES.tippingOpen : ROUTES.tippingClose);
	return done(open ? 'tipping is open' : 'tipping is closed: new tips are refused');
}

/** A 404 or 409 `not_in_queue` means it left the queue already (played, skipped, removed). */
async function remove(up: UpstreamClient, q: Queue, orderId: string): Promise<ActionOutcome> {
	try {
		await ask(up, q === 'tts' ? ROUTES.ttsRemove : ROUTES.mediaRemove, { orderId });
	} catch (err) {
		if (err instanceof HttpError && (err.status === 404 || err.code === 'not_in_queue'))
			return already('no longer in the queue');
		throw err;
	}
	return done('removed from the queue');
}

/** How far back a replay looks for the played item (one page, the upstream's largest). */
const HISTORY_PAGE = '?limit=100';

/**
 * A replay is a new queue item (`is_replay`) with the played tip's name, amount and message: one
 * such item waiting means a replay of it is queued already.
 */
async function replayTip(up: UpstreamClient, orderId: string): Promise<ActionOutcome> {
	const played = (await ask(up, ROUTES.ttsHistory, { query: HISTORY_PAGE })).tips.find(
		(tip) => tip.order_id === orderId
	);
	// Older than the page: the dedupe cannot see it; the upstream still knows it (or answers 404).
	if (played) {
		const same = (tip: QueueTip) =>
			tip.is_replay &&
			tip.name === played.name &&
			tip.amount === played.amount &&
			tip.message === played.message;
		if ((await ask(up, ROUTES.ttsQueue)).items.some(same)) return already('already queued again');
	}
	await ask(up, ROUTES.ttsReplay, { orderId });
	return done('queued again');
}

/** The upstream has no media replay: the played video is queued again by its URL. */
async function replayVideo(up: UpstreamClient, orderId: string): Promise<ActionOutcome> {
	const played = (await ask(up, ROUTES.mediaHistory, { query: HISTORY_PAGE })).media.find(
		(item) => item.order_id === orderId
	);
	if (!played) throw new HttpError(404, 'not_found', 'that video is not among the last 100 played');
	const same = (item: QueueMediaItem) => item.media_url === played.media_url;
	if ((await ask(up, ROUTES.mediaQueue)).items.some(same)) return already('already queued again');
	await ask(up, ROUTES.mediaEnqueue, {
		body: { url: played.media_url, start_time: played.media_start_time }
	});
	return done('queued again');
}

const utf8 = new TextDecoder();

export interface AskOptions {
	/** Fills the route's `:orderId`. */
	orderId?: string;
	/** Fills the route's other `:name` segments. */
	params?: Record<string, string>;
	query?: string;
	body?: unknown;
	/** A 400 is the dock's to fix: `invalid`, with the field its sentence concerns. */
	fieldOf?: (sentence: string) => string;
}

/**
 * One call of an action to the upstream: its path's segments checked with the route's schemas (a
 * 400 before anything is sent), its answer parsed with the route's schema, or the refusal the dock
 * gets (refusal()).
 */
export async function ask<R extends Route>(
	up: UpstreamClient,
	route: R,
	o: AskOptions = {}
): Promise<z.infer<R['response']>> {
	const filled = fillPath(route.path, route.params, { orderId: o.orderId ?? '', ...o.params });
	if (!filled.ok) throw new HttpError(400, 'bad_request', filled.error);
	const path = filled.value + (o.query ?? '');
	const res = await up.call(
		route.method,
		path,
		o.body === undefined ? undefined : JSON.stringify(o.body)
	);
	const data = await answerOf(res);
	if (!res.ok) throw refusal(res, data, o.fieldOf);
	const parsed = route.response.safeParse(data);
	if (!parsed.success)
		throw new HttpError(
			502,
			'bad_upstream_answer',
			'the upstream answered with something unexpected: try again'
		);
	return parsed.data as z.infer<R['response']>;
}

/**
 * An upstream answer's JSON body, or null when it is not JSON (the caller judges it by its status
 * and schema). A body cut off on the way is a failed call: UpstreamUnavailable.
 */
export async function answerOf(res: Response): Promise<unknown> {
	try {
		return JSON.parse(utf8.decode(await bodyBytes(res)));
	} catch (err) {
		if (err instanceof SyntaxError) return null;
		throw new UpstreamUnavailable(err instanceof Error ? err.message : String(err));
	}
}

/** What the dock gets for the upstream's refusal (docs/dock.md). */
export function refusal(
	res: Response,
	data: unknown,
	fieldOf?: (sentence: string) => string
): HttpError {
	const body = ApiErrorBody.safeParse(data);
	const code = body.success ? body.data.code : undefined;
	const text = body.success ? body.data.error : `the upstream answered ${res.status}`;
	// The dock shows a refusal of what it sent beside the field it concerns.
	const field = fieldOf && { field: fieldOf(text) };
	if (field && res.status === 400) return new HttpError(400, 'invalid', text, undefined, field);
	const scope = MissingScopeBody.safeParse(data);
	if (res.status === 403 && scope.success) {
		const required = scope.data.required_scope;
		return new HttpError(
			403,
			'missing_scope',
			`the upstream credential lacks the scope ${required}: give the key (or the connection) that scope`,
			undefined,
			{ required_scope: required }
		);
	}
	if (res.status === 404) return new HttpError(404, 'not_found', `not found upstream: ${text}`);
	if (res.status === 409) return new HttpError(409, code ?? 'conflict', text, undefined, field);
	if (res.status === 429) {
		const wait = [res.headers.get('retry-after'), res.headers.get('ratelimit-reset')].find(
			(v) => v !== null && /^\d{1,5}$/.test(v)
		);
		return new HttpError(
			429,
			'rate_limited',
			`the upstream's rate limit is spent: try again in ${wait ?? 'a few'} seconds`,
			{ 'Retry-After': wait ?? '5' }
		);
	}
	if (res.status >= 500) return upstreamUnavailable();
	// A 401 (the server's credential was refused, or OAuth is not connected), a 400: nothing the
	// dock can fix by pressing again; the upstream's words say what is wrong.
	return new HttpError(502, 'upstream_refused', `the upstream refused the call: ${text}`);
}
