// The route table: every upstream endpoint that the widgets, the token endpoint or the simulator
// use, with its scope and its body schemas. Paths are relative to {base_url} (which ends in /v1)
// and use `:param` segments; each param's schema validates the segment.
import type { z } from 'zod/mini';
import { CounterName, OrderId, OverlayId, type Scope } from './common.ts';
import * as B from './bodies.ts';
import { Me } from './resources.ts';
import { HandoffToken } from './realtime.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
	method: Method;
	path: string;
	/** null: any valid credential. */
	scope: Scope | null;
	params?: Record<string, z.ZodMiniType<string>>;
	query?: z.ZodMiniType;
	request?: z.ZodMiniType;
	response: z.ZodMiniType;
	/** Success status. */
	status: 200 | 201;
	/** The token endpoint forwards this call for the widgets (its allowlist). */
	proxied: boolean;
}

const order = { orderId: OrderId };
const overlay = { overlayId: OverlayId };
const counter = { name: CounterName };

/**
 * The entry keeps its literal types (params, response schema, `proxied: true`) so that a client can
 * derive a route's params and body types from the table instead of restating them.
 */
function route<const R extends Omit<Route, 'status' | 'proxied'> & Partial<Route>>(
	r: R
): Omit<Route, keyof R> & R {
	return { status: 200, proxied: false, ...r } as Omit<Route, keyof R> & R;
}

export const ROUTES = {
	me: route({ method: 'GET', path: '/me', scope: null, response: Me, proxied: true }),
	events: route({
		method: 'GET',
		path: '/events',
		scope: null,
		response: B.EventsCatalogBody,
		proxied: true
	}),
	realtimeToken: route({
		method: 'POST',
		path: '/realtime/token',
		scope: null,
		response: HandoffToken
	}),

	ttsQueue: route({
		method: 'GET',
		path: '/tts/queue',
		scope: 'tts:read',
		response: B.TtsQueueBody,
		proxied: true
	}),
	ttsHistory: route({
		method: 'GET',
		path: '/tts/history',
		scope: 'tts:read',
		query: B.HistoryQuery,
		response: B.TtsHistoryBody
	}),
	ttsStart: route({
		method: 'POST',
		path: '/tts/:orderId/start',
		scope: 'tts:control',
		params: order,
		response: B.TtsStartBody,
		proxied: true
	}),
	ttsFinish: route({
		method: 'POST',
		path: '/tts/:orderId/finish',
		scope: 'tts:control',
		params: order,
		response: B.TtsFinishBody,
		proxied: true
	}),
	ttsRelease: route({
		method: 'POST',
		path: '/tts/:orderId/release',
		scope: 'tts:control',
		params: order,
		response: B.TtsReleaseBody,
		proxied: true
	}),
	ttsPause: route({
		method: 'POST',
		path: '/tts/pause',
		scope: 'tts:control',
		response: B.PausedBody
	}),
	ttsResume: route({
		method: 'POST',
		path: '/tts/resume',
		scope: 'tts:control',
		response: B.PausedBody
	}),
	ttsSkip: route({ method: 'POST', path: '/tts/skip', scope: 'tts:control', response: B.SkipBody }),
	ttsClear: route({
		method: 'POST',
		path: '/tts/clear',
		scope: 'tts:control',
		response: B.SuccessBody
	}),
	ttsRemove: route({
		method: 'DELETE',
		path: '/tts/:orderId',
		scope: 'tts:control',
		params: order,
		response: B.SuccessBody
	}),
	ttsReplay: route({
		method: 'POST',
		path: '/tts/:orderId/replay',
		scope: 'tts:control',
		params: order,
		response: B.TtsReplayBody
	}),

	mediaQueue: route({
		method: 'GET',
		path: '/media/queue',
		scope: 'media:read',
		response: B.MediaQueueBody,
		proxied: true
	}),
	mediaStatus: route({
		method: 'GET',
		path: '/media/status',
		scope: 'media:read',
		response: B.MediaStatusBody,
		proxied: true
	}),
	mediaHistory: route({
		method: 'GET',
		path: '/media/history',
		scope: 'media:read',
		query: B.HistoryQuery,
		response: B.MediaHistoryBody
	}),
	mediaStart: route({
		method: 'POST',
		path: '/media/:orderId/start',
		scope: 'media:control',
		params: order,
		response: B.MediaStartBody,
		proxied: true
	}),
	mediaFinish: route({
		method: 'POST',
		path: '/media/:orderId/finish',
		scope: 'media:control',
		params: order,
		response: B.MediaFinishBody,
		proxied: true
	}),
	mediaRelease: route({
		method: 'POST',
		path: '/media/:orderId/release',
		scope: 'media:control',
		params: order,
		response: B.MediaReleaseBody,
		proxied: true
	}),
	mediaPause: route({
		method: 'POST',
		path: '/media/pause',
		scope: 'media:control',
		response: B.PausedBody
	}),
	mediaResume: route({
		method: 'POST',
		path: '/media/resume',
		scope: 'media:control',
		response: B.MediaResumeBody
	}),
	mediaSkip: route({
		method: 'POST',
		path: '/media/skip',
		scope: 'media:control',
		response: B.SkipBody
	}),
	// Remove is named among the media transitions ("remove ... not shown") and by the
	// queue.media.removed event; its shape mirrors DELETE /tts/{orderId}.
	mediaRemove: route({
		method: 'DELETE',
		path: '/media/:orderId',
		scope: 'media:control',
		params: order,
		response: B.SuccessBody
	}),
	mediaVisibility: route({
		method: 'POST',
		path: '/media/visibility',
		scope: 'media:control',
		request: B.MediaVisibilityRequest,
		response: B.MediaVisibilityBody
	}),
	mediaEnqueue: route({
		method: 'POST',
		path: '/media/queue',
		scope: 'media:control',
		request: B.MediaQueueRequest,
		response: B.MediaQueuedBody,
		status: 201
	}),

	countersList: route({
		method: 'GET',
		path: '/counters',
		scope: 'counters:manage',
		response: B.CountersBody,
		proxied: true
	}),
	counterRead: route({
		method: 'GET',
		path: '/counters/:name',
		scope: 'counters:manage',
		params: counter,
		response: B.CounterBody,
		proxied: true
	}),
	counterCreate: route({
		method: 'POST',
		path: '/counters',
		scope: 'counters:manage',
		request: B.CounterCreateRequest,
		response: B.CounterBody,
		status: 201
	}),
	counterSet: route({
		method: 'PUT',
		path: '/counters/:name',
		scope: 'counters:manage',
		params: counter,
		request: B.CounterSetRequest,
		response: B.CounterBody
	}),
	counterIncrement: route({
		method: 'POST',
		path: '/counters/:name/increment',
		scope: 'counters:manage',
		params: counter,
		request: B.CounterIncrementRequest,
		response: B.CounterBody
	}),
	counterDelete: route({
		method: 'DELETE',
		path: '/counters/:name',
		scope: 'counters:manage',
		params: counter,
		response: B.SuccessBody
	}),

	overlaysList: route({
		method: 'GET',
		path: '/overlays',
		scope: 'overlays:manage',
		response: B.OverlaysBody,
		proxied: true
	}),
	overlayRead: route({
		method: 'GET',
		path: '/overlays/:overlayId',
		scope: 'overlays:manage',
		params: overlay,
		response: B.OverlayBody,
		proxied: true
	}),
	overlayDelete: route({
		method: 'DELETE',
		path: '/overlays/:overlayId',
		scope: 'overlays:manage',
		params: overlay,
		response: B.SuccessBody
	}),
	overlayReload: route({
		method: 'POST',
		path: '/overlays/:overlayId/reload',
		scope: 'overlays:manage',
		params: overlay,
		response: B.SuccessBody
	}),
	celebration: route({
		method: 'POST',
		path: '/overlays/celebration',
		scope: 'overlays:manage',
		request: B.CelebrationRequest,
		response: B.SuccessBody
	}),
	tipGoalRead: route({
		method: 'GET',
		path: '/overlays/:overlayId/tip-goal',
		scope: 'overlays:manage',
		params: overlay,
		response: B.TipGoalBody,
		proxied: true
	}),
	tipGoalUpdate: route({
		method: 'PATCH',
		path: '/overlays/:overlayId/tip-goal',
		scope: 'overlays:manage',
		params: overlay,
		request: B.TipGoalPatchRequest,
		response: B.SuccessBody
	}),
	tipGoalAdd: route({
		method: 'POST',
		path: '/overlays/:overlayId/tip-goal/add',
		scope: 'overlays:manage',
		params: overlay,
		request: B.TipGoalAddRequest,
		response: B.TipGoalAddBody
	}),

	tipping: route({ method: 'GET', path: '/tipping', scope: null, response: B.TippingBody }),
	tippingOpen: route({
		method: 'POST',
		path: '/tipping/open',
		scope: 'tipping:control',
		response: B.TippingChangeBody
	}),
	tippingClose: route({
		method: 'POST',
		path: '/tipping/close',
		scope: 'tipping:control',
		response: B.TippingChangeBody
	}),
	leaderboard: route({
		method: 'GET',
		path: '/leaderboard',
		scope: null,
		query: B.LeaderboardQuery,
		response: B.LeaderboardBody
	}),
	createTip: route({
		method: 'POST',
		path: '/tips',
		scope: 'tips:create',
		request: B.CreateTipRequest,
		response: B.CreateTipBody,
		status: 201
	})
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;

/**
 * Match a method and a path (relative to {base_url}) against the table. Each `:param` segment is
 * checked with its schema, so a segment that does not match never reaches a handler or upstream.
 */
export function matchRoute(
	method: string,
	path: string
): { name: RouteName; route: Route; params: Record<string, string> } | null {
	const segments = path.split('/').slice(1);
	for (const [name, r] of Object.entries(ROUTES) as [RouteName, Route][]) {
		if (r.method !== method) continue;
		const pattern = r.path.split('/').slice(1);
		if (pattern.length !== segments.length) continue;
		const params: Record<string, string> = {};
		let ok = true;
		for (let i = 0; i < pattern.length && ok; i++) {
			const p = pattern[i];
			const s = segments[i];
			if (p.startsWith(':')) {
				const schema = r.params?.[p.slice(1)];
				ok = schema !== undefined && schema.safeParse(s).success;
				params[p.slice(1)] = s;
			} else ok = p === s;
		}
		if (ok) return { name, route: r, params };
	}
	return null;
}
