// The table of every route by name and the matching of a request against it (the token endpoint's
// allowlist, the simulator's dispatch), and a route's path filled with checked params (every call
// made upstream). Widgets import the routes they call one by one from routes.ts instead, so that a
// page bundles only those.
import type { z } from 'zod/mini';
import { describeIssues } from './common.ts';
import * as C from './routes-commands.ts';
import * as R from './routes.ts';
import * as W from './webhooks.ts';
import type { Route } from './routes.ts';

/** Every route by name (the token endpoint, the simulator and the tests walk it). */
export const ROUTES = {
	me: R.me,
	events: R.events,
	realtimeToken: R.realtimeToken,
	ttsQueue: R.ttsQueue,
	ttsHistory: R.ttsHistory,
	ttsStart: R.ttsStart,
	ttsFinish: R.ttsFinish,
	ttsRelease: R.ttsRelease,
	ttsPause: R.ttsPause,
	ttsResume: R.ttsResume,
	ttsSkip: R.ttsSkip,
	ttsClear: R.ttsClear,
	ttsRemove: R.ttsRemove,
	ttsReplay: R.ttsReplay,
	mediaQueue: R.mediaQueue,
	mediaStatus: R.mediaStatus,
	mediaHistory: R.mediaHistory,
	mediaStart: R.mediaStart,
	mediaFinish: R.mediaFinish,
	mediaRelease: R.mediaRelease,
	mediaPause: R.mediaPause,
	mediaResume: R.mediaResume,
	mediaSkip: R.mediaSkip,
	mediaRemove: R.mediaRemove,
	mediaVisibility: R.mediaVisibility,
	mediaEnqueue: R.mediaEnqueue,
	countersList: R.countersList,
	counterRead: R.counterRead,
	counterCreate: R.counterCreate,
	counterSet: R.counterSet,
	counterIncrement: R.counterIncrement,
	counterDelete: R.counterDelete,
	overlaysList: R.overlaysList,
	overlayRead: R.overlayRead,
	overlayDelete: R.overlayDelete,
	overlayReload: R.overlayReload,
	celebration: R.celebration,
	tipGoalRead: R.tipGoalRead,
	tipGoalUpdate: R.tipGoalUpdate,
	tipGoalAdd: R.tipGoalAdd,
	chatSend: R.chatSend,
	commandsList: C.commandsList,
	commandCreate: C.commandCreate,
	commandDelete: C.commandDelete,
	tipping: R.tipping,
	tippingOpen: R.tippingOpen,
	tippingClose: R.tippingClose,
	leaderboard: R.leaderboard,
	createTip: R.createTip,
	webhookCreate: W.webhookCreate,
	webhookList: W.webhookList,
	webhookRead: W.webhookRead,
	webhookDelete: W.webhookDelete
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

/**
 * A route's path (`/tts/:orderId/start`) with each param checked by its schema, then URL-encoded:
 * the pages' calls through /api (client/api.ts) and the token endpoint's own calls upstream
 * (server/control-actions.ts) build their paths here, so a segment that does not match is never sent.
 */
export function fillPath(
	pattern: string,
	schemas: Record<string, z.ZodMiniType<string>> | undefined,
	params: Record<string, string>
): { ok: true; value: string } | { ok: false; error: string } {
	let error: string | null = null;
	const value = pattern.replace(/:(\w+)/g, (_, key: string) => {
		const schema = schemas?.[key];
		const parsed = schema?.safeParse(params[key]);
		if (!parsed?.success) {
			error ??= `${key}: ${parsed ? describeIssues(parsed.error) : 'no schema'}`;
			return '';
		}
		return encodeURIComponent(parsed.data);
	});
	return error === null ? { ok: true, value } : { ok: false, error };
}
