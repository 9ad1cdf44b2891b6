// The routes: every upstream endpoint that the widgets, the token endpoint or the simulator use,
// with its scope and its body schemas. Paths are relative to {base_url} (which ends in /v1) and use
// `:param` segments; each param's schema validates the segment. The table of them all, and the
// matching of a request against it, are in route-table.ts.
import type { z } from 'zod/mini';
import { CounterName, OrderId, OverlayId, type Scope } from './common.ts';
import * as B from './bodies.ts';
import { Me, MeCurrency } from './resources.ts';
import { HandoffToken } from './realtime.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
	/** The route's name in the table (logs name the call). */
	name: string;
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
/* @__NO_SIDE_EFFECTS__ */
export function route<
	const N extends string,
	const R extends Omit<Route, 'status' | 'proxied' | 'name'> & Partial<Route>
>(name: N, r: R): Omit<Route, keyof R | 'name'> & R & { name: N } {
	return { status: 200, proxied: false, ...r, name } as Omit<Route, keyof R | 'name'> &
		R & { name: N };
}

export const me = /*@__PURE__*/ route('me', {
	method: 'GET',
	path: '/me',
	scope: null,
	response: Me,
	proxied: true
});
/** GET /me for a widget: the same call, its answer parsed for the tenant's currency only. */
export const meCurrency = /*@__PURE__*/ route('me', {
	method: 'GET',
	path: '/me',
	scope: null,
	response: MeCurrency,
	proxied: true
});
export const events = /*@__PURE__*/ route('events', {
	method: 'GET',
	path: '/events',
	scope: null,
	response: B.EventsCatalogBody,
	proxied: true
});
export const realtimeToken = /*@__PURE__*/ route('realtimeToken', {
	method: 'POST',
	path: '/realtime/token',
	scope: null,
	response: HandoffToken
});

export const ttsQueue = /*@__PURE__*/ route('ttsQueue', {
	method: 'GET',
	path: '/tts/queue',
	scope: 'tts:read',
	response: B.TtsQueueBody,
	proxied: true
});
export const ttsHistory = /*@__PURE__*/ route('ttsHistory', {
	method: 'GET',
	path: '/tts/history',
	scope: 'tts:read',
	query: B.HistoryQuery,
	response: B.TtsHistoryBody,
	proxied: true
});
export const ttsStart = /*@__PURE__*/ route('ttsStart', {
	method: 'POST',
	path: '/tts/:orderId/start',
	scope: 'tts:control',
	params: order,
	response: B.TtsStartBody,
	proxied: true
});
export const ttsFinish = /*@__PURE__*/ route('ttsFinish', {
	method: 'POST',
	path: '/tts/:orderId/finish',
	scope: 'tts:control',
	params: order,
	response: B.TtsFinishBody,
	proxied: true
});
export const ttsRelease = /*@__PURE__*/ route('ttsRelease', {
	method: 'POST',
	path: '/tts/:orderId/release',
	scope: 'tts:control',
	params: order,
	response: B.TtsReleaseBody,
	proxied: true
});
export const ttsPause = /*@__PURE__*/ route('ttsPause', {
	method: 'POST',
	path: '/tts/pause',
	scope: 'tts:control',
	response: B.PausedBody
});
export const ttsResume = /*@__PURE__*/ route('ttsResume', {
	method: 'POST',
	path: '/tts/resume',
	scope: 'tts:control',
	response: B.PausedBody
});
export const ttsSkip = /*@__PURE__*/ route('ttsSkip', {
	method: 'POST',
	path: '/tts/skip',
	scope: 'tts:control',
	response: B.SkipBody
});
export const ttsClear = /*@__PURE__*/ route('ttsClear', {
	method: 'POST',
	path: '/tts/clear',
	scope: 'tts:control',
	response: B.SuccessBody
});
export const ttsRemove = /*@__PURE__*/ route('ttsRemove', {
	method: 'DELETE',
	path: '/tts/:orderId',
	scope: 'tts:control',
	params: order,
	response: B.SuccessBody
});
export const ttsReplay = /*@__PURE__*/ route('ttsReplay', {
	method: 'POST',
	path: '/tts/:orderId/replay',
	scope: 'tts:control',
	params: order,
	response: B.TtsReplayBody
});

export const mediaQueue = /*@__PURE__*/ route('mediaQueue', {
	method: 'GET',
	path: '/media/queue',
	scope: 'media:read',
	response: B.MediaQueueBody,
	proxied: true
});
export const mediaStatus = /*@__PURE__*/ route('mediaStatus', {
	method: 'GET',
	path: '/media/status',
	scope: 'media:read',
	response: B.MediaStatusBody,
	proxied: true
});
export const mediaHistory = /*@__PURE__*/ route('mediaHistory', {
	method: 'GET',
	path: '/media/history',
	scope: 'media:read',
	query: B.HistoryQuery,
	response: B.MediaHistoryBody,
	proxied: true
});
export const mediaStart = /*@__PURE__*/ route('mediaStart', {
	method: 'POST',
	path: '/media/:orderId/start',
	scope: 'media:control',
	params: order,
	response: B.MediaStartBody,
	proxied: true
});
export const mediaFinish = /*@__PURE__*/ route('mediaFinish', {
	method: 'POST',
	path: '/media/:orderId/finish',
	scope: 'media:control',
	params: order,
	response: B.MediaFinishBody,
	proxied: true
});
export const mediaRelease = /*@__PURE__*/ route('mediaRelease', {
	method: 'POST',
	path: '/media/:orderId/release',
	scope: 'media:control',
	params: order,
	response: B.MediaReleaseBody,
	proxied: true
});
export const mediaPause = /*@__PURE__*/ route('mediaPause', {
	method: 'POST',
	path: '/media/pause',
	scope: 'media:control',
	response: B.PausedBody
});
export const mediaResume = /*@__PURE__*/ route('mediaResume', {
	method: 'POST',
	path: '/media/resume',
	scope: 'media:control',
	response: B.MediaResumeBody
});
export const mediaSkip = /*@__PURE__*/ route('mediaSkip', {
	method: 'POST',
	path: '/media/skip',
	scope: 'media:control',
	response: B.SkipBody
});
// Remove is named among the media transitions ("remove ... not shown") and by the
// queue.media.removed event; its shape mirrors DELETE /tts/{orderId}.
export const mediaRemove = /*@__PURE__*/ route('mediaRemove', {
	method: 'DELETE',
	path: '/media/:orderId',
	scope: 'media:control',
	params: order,
	response: B.SuccessBody
});
export const mediaVisibility = /*@__PURE__*/ route('mediaVisibility', {
	method: 'POST',
	path: '/media/visibility',
	scope: 'media:control',
	request: B.MediaVisibilityRequest,
	response: B.MediaVisibilityBody
});
export const mediaEnqueue = /*@__PURE__*/ route('mediaEnqueue', {
	method: 'POST',
	path: '/media/queue',
	scope: 'media:control',
	request: B.MediaQueueRequest,
	response: B.MediaQueuedBody,
	status: 201
});

export const countersList = /*@__PURE__*/ route('countersList', {
	method: 'GET',
	path: '/counters',
	scope: 'counters:manage',
	response: B.CountersBody,
	proxied: true
});
export const counterRead = /*@__PURE__*/ route('counterRead', {
	method: 'GET',
	path: '/counters/:name',
	scope: 'counters:manage',
	params: counter,
	response: B.CounterBody,
	proxied: true
});
export const counterCreate = /*@__PURE__*/ route('counterCreate', {
	method: 'POST',
	path: '/counters',
	scope: 'counters:manage',
	request: B.CounterCreateRequest,
	response: B.CounterBody,
	status: 201
});
export const counterSet = /*@__PURE__*/ route('counterSet', {
	method: 'PUT',
	path: '/counters/:name',
	scope: 'counters:manage',
	params: counter,
	request: B.CounterSetRequest,
	response: B.CounterBody
});
export const counterIncrement = /*@__PURE__*/ route('counterIncrement', {
	method: 'POST',
	path: '/counters/:name/increment',
	scope: 'counters:manage',
	params: counter,
	request: B.CounterIncrementRequest,
	response: B.CounterBody
});
export const counterDelete = /*@__PURE__*/ route('counterDelete', {
	method: 'DELETE',
	path: '/counters/:name',
	scope: 'counters:manage',
	params: counter,
	response: B.SuccessBody
});

export const overlaysList = /*@__PURE__*/ route('overlaysList', {
	method: 'GET',
	path: '/overlays',
	scope: 'overlays:manage',
	response: B.OverlaysBody,
	proxied: true
});
export const overlayRead = /*@__PURE__*/ route('overlayRead', {
	method: 'GET',
	path: '/overlays/:overlayId',
	scope: 'overlays:manage',
	params: overlay,
	response: B.OverlayBody,
	proxied: true
});
export const overlayDelete = /*@__PURE__*/ route('overlayDelete', {
	method: 'DELETE',
	path: '/overlays/:overlayId',
	scope: 'overlays:manage',
	params: overlay,
	response: B.SuccessBody
});
export const overlayReload = /*@__PURE__*/ route('overlayReload', {
	method: 'POST',
	path: '/overlays/:overlayId/reload',
	scope: 'overlays:manage',
	params: overlay,
	response: B.SuccessBody
});
export const celebration = /*@__PURE__*/ route('celebration', {
	method: 'POST',
	path: '/overlays/celebration',
	scope: 'overlays:manage',
	request: B.CelebrationRequest,
	response: B.SuccessBody
});
export const tipGoalRead = /*@__PURE__*/ route('tipGoalRead', {
	method: 'GET',
	path: '/overlays/:overlayId/tip-goal',
	scope: 'overlays:manage',
	params: overlay,
	response: B.TipGoalBody,
	proxied: true
});
export const tipGoalUpdate = /*@__PURE__*/ route('tipGoalUpdate', {
	method: 'PATCH',
	path: '/overlays/:overlayId/tip-goal',
	scope: 'overlays:manage',
	params: overlay,
	request: B.TipGoalPatchRequest,
	response: B.SuccessBody
});
export const tipGoalAdd = /*@__PURE__*/ route('tipGoalAdd', {
	method: 'POST',
	path: '/overlays/:overlayId/tip-goal/add',
	scope: 'overlays:manage',
	params: overlay,
	request: B.TipGoalAddRequest,
	response: B.TipGoalAddBody
});

/** The chat bot speaks; its own budget (docs/upstream.md, chat). Never forwarded for a page. */
export const chatSend = /*@__PURE__*/ route('chatSend', {
	method: 'POST',
	path: '/chat/messages',
	scope: 'chat:write',
	request: B.ChatSendRequest,
	response: B.SuccessBody
});

export const tipping = /*@__PURE__*/ route('tipping', {
	method: 'GET',
	path: '/tipping',
	scope: null,
	response: B.TippingBody
});
export const tippingOpen = /*@__PURE__*/ route('tippingOpen', {
	method: 'POST',
	path: '/tipping/open',
	scope: 'tipping:control',
	response: B.TippingChangeBody
});
export const tippingClose = /*@__PURE__*/ route('tippingClose', {
	method: 'POST',
	path: '/tipping/close',
	scope: 'tipping:control',
	response: B.TippingChangeBody
});
export const leaderboard = /*@__PURE__*/ route('leaderboard', {
	method: 'GET',
	path: '/leaderboard',
	scope: null,
	query: B.LeaderboardQuery,
	response: B.LeaderboardBody,
	proxied: true
});
export const createTip = /*@__PURE__*/ route('createTip', {
	method: 'POST',
	path: '/tips',
	scope: 'tips:create',
	request: B.CreateTipRequest,
	response: B.CreateTipBody,
	status: 201
});
