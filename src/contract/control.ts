// The dock's and the settings editor's calls to the token endpoint: every /control route (docs/
// dock.md), its method and path, the answer it gives and the error codes it may
// answer. What the browser reads; the bodies the server checks are in
// control-bodies.ts, by the same names. One source for the server's routes and the browser's client (src/client/control.ts). Ours, not the upstream's: /api
// forwards the upstream's routes (routes.ts), /control is the token endpoint's own.
import { z } from 'zod/mini';
import {
	activity,
	activityDelete,
	activityExport,
	activityReplay,
	activityStart,
	activitySummary
} from './control-activity.ts';
import { chat, dismissChat, resendChat, saveThanks, sendChat } from './control-chat.ts';
import { changeCommand, commands } from './control-commands.ts';
import { ActionAnswer, route } from './control-route.ts';
import { KEY_FORMAT } from './keys.ts';
import { StoredRules, TipModeration } from './moderation.ts';
import { Counter, TipGoal } from './resources.ts';
import { ControlSettings, SavedSettings } from './settings.ts';

// `/*@__PURE__*/` before each `.check(...)` (common.ts says why): the dock and the editor keep
// what they use, the other pages nothing. Each route a const of its own (control-route.ts says why);
// the chat's are in control-chat.ts.

export { chat, dismissChat, resendChat, saveThanks, sendChat };
export { activity, activityDelete, activityExport, activityReplay, activityStart, activitySummary };
export { ActionAnswer, type ControlRoute } from './control-route.ts';

/** The dock's actions; `true`: the action names one order (`{ order_id }`), else no body (or `{}`). */
export const ACTION_ORDER = {
	'tts-skip': true,
	'tts-pause': false,
	'tts-resume': false,
	'tts-remove': true,
	'tts-replay': true,
	'media-skip': true,
	'media-pause': false,
	'media-resume': false,
	'media-remove': true,
	'media-replay': true,
	'media-show': false,
	'media-hide': false,
	'tipping-open': false,
	'tipping-close': false
} as const;
export type ActionName = keyof typeof ACTION_ORDER;

export function isActionName(name: string): name is ActionName {
	return Object.hasOwn(ACTION_ORDER, name);
}

/** The control key's format (docs/dock.md: like the overlay key). */
export const CONTROL_KEY = KEY_FORMAT;

/** Approve or Reject: done, or already settled (by another dock), and the decision now. */
export const SettleAnswer = /*@__PURE__*/ z.looseObject({
	outcome: z.enum(['done', 'already']),
	decision: TipModeration
});
/** A held tip's message as the viewer wrote it (the dock's Reveal; shown as text only). */
export const MessageAnswer = /*@__PURE__*/ z.looseObject({ message: z.nullable(z.string()) });
export const NewKeyAnswer = /*@__PURE__*/ z.looseObject({
	key: /*@__PURE__*/ z.string().check(z.regex(CONTROL_KEY))
});
export const SessionAnswer = /*@__PURE__*/ z.looseObject({
	csrf: /*@__PURE__*/ z.string().check(z.minLength(1))
});
/** POST /control/token: the realtime handoff, as POST /token answers it. */
export const TokenAnswer = /*@__PURE__*/ z.looseObject({
	token: /*@__PURE__*/ z.string().check(z.minLength(1)),
	ws_url: z.string(),
	expires_at: z.string()
});

/** A counter as the upstream has it after the dock's change. */
export const CounterAnswer = /*@__PURE__*/ z.looseObject({ counter: Counter });
/** An overlay's tip goal as the upstream has it after the dock's save. */
export const TipGoalAnswer = /*@__PURE__*/ z.looseObject({ tip_goal: TipGoal });

/** Codes every route behind the control credential may answer (control-key.ts, key-guard.ts). */
export const CREDENTIAL_ERRORS = [
	'bad_control_key',
	'control_key_replaced',
	'too_many_attempts',
	'cross_site'
] as const;
/** Codes of a route that calls the upstream for the dock (src/server/control-actions.ts). */
export const UPSTREAM_ERRORS = [
	'upstream_unavailable',
	'upstream_refused',
	'bad_upstream_answer',
	'missing_scope',
	'rate_limited',
	'not_found'
] as const;

/** Hosted: the signed-in dashboard's CSRF token (no credential needed; 404 in single mode). */
export const session = /*@__PURE__*/ route({
	name: 'session',
	method: 'GET',
	path: '/session',
	credential: false,
	answer: SessionAnswer
});
/** The realtime handoff token for the dock's own connection. */
export const token = /*@__PURE__*/ route({
	name: 'token',
	method: 'POST',
	path: '/token',
	credential: true,
	upstream: true,
	answer: TokenAnswer
});
/** The dock's reads: GET /control/api/<path> of an allowlist (routes/control.ts, DOCK_READS). */
export const read = /*@__PURE__*/ route({
	name: 'read',
	method: 'GET',
	path: '/api/*',
	credential: true,
	answer: z.unknown()
});
/** One of ACTION_ORDER; its body is an order id or none, as the action says (control-bodies.ts). */
export const action = /*@__PURE__*/ route({
	name: 'action',
	method: 'POST',
	path: '/actions/:action',
	credential: true,
	upstream: true,
	answer: ActionAnswer
});
export const rules = /*@__PURE__*/ route({
	name: 'rules',
	method: 'GET',
	path: '/moderation',
	credential: true,
	answer: StoredRules
});
export const saveRules = /*@__PURE__*/ route({
	name: 'saveRules',
	method: 'PUT',
	path: '/moderation',
	credential: true,
	answer: StoredRules
});
/** Approve a held tip, or a held video (`queue: "media"`). */
export const approve = /*@__PURE__*/ route({
	name: 'approve',
	method: 'POST',
	path: '/moderation/approve',
	credential: true,
	answer: SettleAnswer
});
/** Reject a held tip, or a held video (`queue: "media"`). */
// Written out, not spread from approve: the bundler keeps a call that spreads an object (a
// spread may run a getter), and every page that imports this file would carry moderation's schemas.
export const reject = /*@__PURE__*/ route({
	name: 'reject',
	method: 'POST',
	path: '/moderation/reject',
	credential: true,
	answer: SettleAnswer
});
/** Query `?order_id=`: the tip from the TTS queue, else the last page of its history. */
export const message = /*@__PURE__*/ route({
	name: 'message',
	method: 'GET',
	path: '/moderation/message',
	credential: true,
	answer: MessageAnswer
});
export const settings = /*@__PURE__*/ route({
	name: 'settings',
	method: 'GET',
	path: '/settings',
	credential: true,
	answer: ControlSettings
});
export const saveSettings = /*@__PURE__*/ route({
	name: 'saveSettings',
	method: 'PUT',
	path: '/settings/:target',
	credential: true,
	answer: SavedSettings
});
export const undoSettings = /*@__PURE__*/ route({
	name: 'undoSettings',
	method: 'POST',
	path: '/settings/:target/undo',
	credential: true,
	answer: SavedSettings
});
/**
 * The push channel (contract/live.ts): a WebSocket whose first frame carries the credential, so the
 * request itself needs none.
 */
export const live = /*@__PURE__*/ route({
	name: 'live',
	method: 'GET',
	path: '/live',
	credential: false,
	answer: z.unknown()
});
/** Single mode: a new control key (the old one stops at once); hosted: 404, the dashboard makes it. */
export const newKey = /*@__PURE__*/ route({
	name: 'newKey',
	method: 'POST',
	path: '/new-key',
	credential: true,
	answer: NewKeyAnswer
});

// The show's controls (docs/dock.md, "Counters", "Tip goal", "Celebrate"): each forwards one
// upstream call (src/server/routes/show.ts). An upstream 400 is `invalid` with the `field` it
// concerns, so that the dock shows it beside that field.

/** A new counter: `{ name, value? }`. */
export const counterNew = /*@__PURE__*/ route({
	name: 'counterNew',
	method: 'POST',
	path: '/counters',
	credential: true,
	upstream: true,
	answer: CounterAnswer
});
/** +1, -1 or any step: `{ by }`, added by the upstream itself (two docks never lose a press). */
export const counterAdd = /*@__PURE__*/ route({
	name: 'counterAdd',
	method: 'POST',
	path: '/counters/:name/add',
	credential: true,
	upstream: true,
	answer: CounterAnswer
});
/** Set a value (0 is Reset): `{ value }`. */
export const counterSet = /*@__PURE__*/ route({
	name: 'counterSet',
	method: 'PUT',
	path: '/counters/:name',
	credential: true,
	upstream: true,
	answer: CounterAnswer
});
export const counterDelete = /*@__PURE__*/ route({
	name: 'counterDelete',
	method: 'POST',
	path: '/counters/:name/delete',
	credential: true,
	upstream: true,
	answer: ActionAnswer
});
/** An overlay's tip goal: any of its fields (absent ones stay); answers the goal as it is now. */
export const tipGoal = /*@__PURE__*/ route({
	name: 'tipGoal',
	method: 'PUT',
	path: '/overlays/:overlayId/tip-goal',
	credential: true,
	upstream: true,
	answer: TipGoalAnswer
});
/** The celebration: `{}` every overlay, `{ overlay_id }` one, `{ overlay_id, widget_id }` one widget. */
export const celebrate = /*@__PURE__*/ route({
	name: 'celebrate',
	method: 'POST',
	path: '/celebrate',
	credential: true,
	upstream: true,
	answer: ActionAnswer
});

/** Every /control route by name (the server, and the tests that walk them). */
export const CONTROL = {
	session,
	token,
	read,
	action,
	rules,
	saveRules,
	approve,
	reject,
	message,
	settings,
	saveSettings,
	undoSettings,
	counterNew,
	counterAdd,
	counterSet,
	counterDelete,
	tipGoal,
	celebrate,
	chat,
	saveThanks,
	sendChat,
	resendChat,
	dismissChat,
	activity,
	activitySummary,
	activityStart,
	activityReplay,
	activityExport,
	activityDelete,
	commands,
	changeCommand,
	newKey,
	live
} as const;
