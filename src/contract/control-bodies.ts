// What the server checks of a /control route's request (src/contract/control.ts names the routes):
// its path's parameters, its JSON body's schema, the 400's sentence for one that does not match,
// and its largest size.
// Apart from the routes, so that the dock's and the editor's pages carry none of it.
import { z } from 'zod/mini';
import { ChatResendBody, ChatSendBody, ThanksSettings } from './chat.ts';
import { CommandChangeBody, CommandKeyParam } from './control-commands.ts';
import { CounterName, DateTime, OrderId, OverlayId } from './common.ts';
import { ACTION_ORDER, isActionName, type ActionName } from './control.ts';
import { ModerationRules } from './moderation.ts';
import { tipGoalFieldsShape } from './resources.ts';
import {
	isSettingsTarget,
	MAX_SETTING_LENGTH,
	MAX_SETTINGS_PER_TARGET,
	SaveSettings,
	type SettingsTarget
} from './settings.ts';

/** The largest request body of a /control route without a `maxBody` of its own. */
export const MAX_BODY = 16 * 1024;
/**
 * The moderation rules' body: as long as their schema lets them be (1000 words and 1000 names of up
 * to 100 characters), far past MAX_BODY, which a few hundred words pass.
 */
export const RULES_MAX_BODY = 384 * 1024;
/**
 * A target's stored settings: as long as their schema lets them be (MAX_SETTINGS_PER_TARGET values
 * of up to MAX_SETTING_LENGTH characters, about 420 kB), far past MAX_BODY, which the TTS widget's
 * five tiers with their image and sound URLs can pass.
 */
export const SETTINGS_MAX_BODY = MAX_SETTINGS_PER_TARGET * (MAX_SETTING_LENGTH + 64) + 1024;

/** The body of an action on one order, and the query of a held tip's message. */
export const OrderBody = z.object({ order_id: OrderId });
/** The body of an action on nothing in particular: none, or `{}` (a client that always sends JSON). */
export const NoBody = /*@__PURE__*/ z.strictObject({});
/**
 * Approve or Reject, and the Activity's Replay: a tip's (`queue` absent or `tts`) or a video's
 * (`queue: "media"`).
 */
export const SettleBody = z.object({
	order_id: OrderId,
	queue: z._default(z.enum(['tts', 'media']), 'tts')
});
export type SettleBody = z.infer<typeof SettleBody>;
/** The stream's start as the streamer sets it; null: the kit's own. */
export const ActivityStartBody = z.strictObject({ at: z.nullable(DateTime) });
/** Undo: none, `{}`, or the revision the editor read (a save since then is a 409). */
export const UndoBody = z.union([
	/*@__PURE__*/ z.strictObject({}),
	z.object({ base_revision: /*@__PURE__*/ z.int().check(z.gte(0)) })
]);

/** A counter's value as the dock sets it (the upstream's counters are integers). */
const CounterValue = /*@__PURE__*/ z.int().check(z.gte(-1_000_000_000), z.lte(1_000_000_000));
export const CounterNewBody = z.strictObject({
	name: CounterName,
	value: z.optional(CounterValue)
});
export const CounterAddBody = z.strictObject({
	by: /*@__PURE__*/ z.int().check(z.gte(-1_000_000), z.lte(1_000_000))
});
export const CounterSetBody = z.strictObject({ value: CounterValue });
/** A tip goal's fields, any of them (docs/upstream.md, tip goal); null clears a date. */
export const TipGoalEdit = z.partial(z.strictObject(tipGoalFieldsShape));
export type TipGoalEdit = z.infer<typeof TipGoalEdit>;
/** Widget ids are `w_` and a short token (docs/upstream.md, overlays). */
export const WIDGET_ID = /^w_[A-Za-z0-9_-]{1,64}$/;
export const CelebrateBody = z.strictObject({
	overlay_id: z.optional(OverlayId),
	widget_id: z.optional(/*@__PURE__*/ z.string().check(z.regex(WIDGET_ID)))
});

const ORDER = 'a JSON body { "order_id": "<order id>" }';

/** The body an action takes, and the 400's sentence for one it does not. */
export function actionBody(name: ActionName): { body: z.ZodMiniType; message: string } {
	return ACTION_ORDER[name]
		? { body: OrderBody, message: `expected ${ORDER}` }
		: { body: NoBody, message: 'expected no body, or {}' };
}

export interface RouteBody {
	/** The path's parameters (`:name` of the route's path), each checked by its schema. */
	params?: Record<string, z.ZodMiniType<string>>;
	/** The JSON body (a 400 when it does not match); absent: the route takes no body. */
	body?: z.ZodMiniType;
	/** No body at all reads as `{}`. */
	optional?: boolean;
	/** The 400's sentence for a body that does not match (the field it names). */
	badBody?: string;
	/** The largest body, in bytes (MAX_BODY when absent). */
	maxBody?: number;
}

const SETTLE = { body: SettleBody, badBody: `expected ${ORDER}` } as const;
const TARGET = {
	target: z.custom<SettingsTarget>((s) => typeof s === 'string' && isSettingsTarget(s))
};
const COUNTER = { name: CounterName };

/** Each /control route's body, by the route's name (CONTROL in control.ts). */
export const CONTROL_BODIES = {
	session: {},
	token: {},
	read: {},
	// Each action's body and sentence are the action's own (actionBody).
	action: {
		params: { action: z.custom<ActionName>((s) => typeof s === 'string' && isActionName(s)) },
		optional: true
	},
	rules: {},
	saveRules: { body: ModerationRules, maxBody: RULES_MAX_BODY },
	approve: SETTLE,
	reject: SETTLE,
	message: {},
	settings: {},
	saveSettings: {
		params: TARGET,
		body: SaveSettings,
		badBody:
			'expected a JSON body { "values": { "<parameter>": "<value>" }, "base_revision": <revision> }',
		maxBody: SETTINGS_MAX_BODY
	},
	undoSettings: {
		params: TARGET,
		body: UndoBody,
		optional: true,
		badBody: 'expected no body, or { "base_revision": <revision> }'
	},
	counterNew: {
		body: CounterNewBody,
		badBody: 'expected a JSON body { "name": "<a-z 0-9 _ -, 1 to 64>", "value": <integer> }'
	},
	counterAdd: {
		params: COUNTER,
		body: CounterAddBody,
		badBody: 'expected a JSON body { "by": <integer> }'
	},
	counterSet: {
		params: COUNTER,
		body: CounterSetBody,
		badBody: 'expected a JSON body { "value": <integer> }'
	},
	counterDelete: { params: COUNTER },
	tipGoal: {
		params: { overlayId: OverlayId },
		body: TipGoalEdit,
		badBody:
			'expected a JSON body with any of "enabled", "title" (up to 80 characters), "amount" (0 to 1000000), "starts_at" and "ends_at" (a date-time, or null)'
	},
	celebrate: {
		body: CelebrateBody,
		optional: true,
		badBody:
			'expected a JSON body {}, { "overlay_id": "o_…" } or { "overlay_id": "o_…", "widget_id": "w_…" }'
	},
	chat: {},
	saveThanks: {
		body: ThanksSettings,
		badBody:
			'expected a JSON body { "enabled": true|false, "template": "<text>", "burst": "<text>" }'
	},
	commands: {},
	changeCommand: {
		params: { command: CommandKeyParam },
		body: CommandChangeBody,
		badBody:
			'expected a JSON body { "on": true|false, "trigger"?: "<a-z 0-9 _ ->", "permission"?: "everyone"|"subscriber"|"moderator" }'
	},
	sendChat: {
		body: ChatSendBody,
		badBody: 'expected a JSON body { "message": "<1 to 500 characters>" }'
	},
	resendChat: {
		body: ChatResendBody,
		badBody: 'expected a JSON body { "id": "<the id of a thanks that may not have gone>" }'
	},
	dismissChat: {
		body: ChatResendBody,
		badBody: 'expected a JSON body { "id": "<the id of a thanks that may not have gone>" }'
	},
	activity: {},
	activitySummary: {},
	activityStart: {
		body: ActivityStartBody,
		badBody: 'expected a JSON body { "at": "<date-time>" } or { "at": null }'
	},
	// The Activity's Replay: a tip (`queue` absent or `tts`) or a video (`queue: "media"`).
	activityReplay: {
		body: SettleBody,
		badBody: `expected ${ORDER}, with "queue": "media" for a video`
	},
	activityExport: {},
	activityDelete: { body: NoBody, optional: true, badBody: 'expected no body, or {}' },
	newKey: {},
	live: {}
} as const satisfies Record<string, RouteBody>;
