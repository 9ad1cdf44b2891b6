// What the server checks of a /control route's request (src/contract/control.ts names the routes):
// its JSON body's schema, the 400's sentence for one that does not match, and its largest size.
// Apart from the routes, so that the dock's and the editor's pages carry none of it.
import { z } from 'zod/mini';
import { ChatSendBody, ThanksSettings } from './chat.ts';
import { OrderId } from './common.ts';
import { ACTION_ORDER, type ActionName } from './control.ts';
import { ModerationRules } from './moderation.ts';
import { MAX_SETTING_LENGTH, MAX_SETTINGS_PER_TARGET, SaveSettings } from './settings.ts';

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
/** Approve or Reject: a tip's (`queue` absent or `tts`) or a video's (`queue: "media"`). */
export const SettleBody = z.object({
	order_id: OrderId,
	queue: z._default(z.enum(['tts', 'media']), 'tts')
});
export type SettleBody = z.infer<typeof SettleBody>;
/** Undo: none, `{}`, or the revision the editor read (a save since then is a 409). */
export const UndoBody = z.union([
	/*@__PURE__*/ z.strictObject({}),
	z.object({ base_revision: /*@__PURE__*/ z.int().check(z.gte(0)) })
]);

const ORDER = 'a JSON body { "order_id": "<order id>" }';

/** The body an action takes, and the 400's sentence for one it does not. */
export function actionBody(name: ActionName): { body: z.ZodMiniType; message: string } {
	return ACTION_ORDER[name]
		? { body: OrderBody, message: `expected ${ORDER}` }
		: { body: NoBody, message: 'expected no body, or {}' };
}

export interface RouteBody {
	/** The JSON body (a 400 when it does not match); absent: the route takes no body. */
	body?: z.ZodMiniType;
	/** The 400's sentence for a body that does not match (the field it names). */
	badBody?: string;
	/** The largest body, in bytes (MAX_BODY when absent). */
	maxBody?: number;
}

const SETTLE = { body: SettleBody, badBody: `expected ${ORDER}` } as const;

/** Each /control route's body, by the route's name (CONTROL in control.ts). */
export const CONTROL_BODIES = {
	session: {},
	token: {},
	read: {},
	action: { body: z.union([OrderBody, NoBody]), badBody: `expected ${ORDER}` },
	rules: {},
	saveRules: { body: ModerationRules, maxBody: RULES_MAX_BODY },
	approve: SETTLE,
	reject: SETTLE,
	message: {},
	settings: {},
	saveSettings: {
		body: SaveSettings,
		badBody:
			'expected a JSON body { "values": { "<parameter>": "<value>" }, "base_revision": <revision> }',
		maxBody: SETTINGS_MAX_BODY
	},
	undoSettings: {
		body: UndoBody,
		badBody: 'expected no body, or { "base_revision": <revision> }'
	},
	chat: {},
	saveThanks: {
		body: ThanksSettings,
		badBody:
			'expected a JSON body { "enabled": true|false, "template": "<text>", "burst": "<text>" }'
	},
	sendChat: {
		body: ChatSendBody,
		badBody: 'expected a JSON body { "message": "<1 to 500 characters>" }'
	},
	newKey: {}
} as const satisfies Record<string, RouteBody>;
