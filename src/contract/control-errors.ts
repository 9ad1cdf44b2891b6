// The error codes each /control route (control.ts) may answer, written down for the contract's
// tests and docs/dock.md. A module of its own, so that no page carries them.
import type { CONTROL } from './control.ts';

/** What posting a message to chat may answer: the chat's refusals, the budget, an unknown outcome. */
const CHAT_POST_ERRORS = [
	'message_too_long',
	'message_disallowed',
	'bot_disabled',
	'bot_unavailable',
	'gateway_unavailable',
	'no_channel',
	'unauthorized',
	'chat_budget',
	'outcome_unknown'
] as const;

/**
 * The codes of each route's own error answers (`{ error, code }`), besides CREDENTIAL_ERRORS
 * (`credential`) and UPSTREAM_ERRORS (`upstream`) of control.ts.
 */
export const CONTROL_ERRORS: Record<keyof typeof CONTROL, readonly string[]> = {
	session: ['not_signed_in', 'not_found'],
	token: ['unexpected_body'],
	read: ['not_forwarded', 'upstream_unavailable'],
	action: ['bad_request', 'too_large', 'not_playing'],
	rules: [],
	saveRules: ['bad_request', 'bad_rules', 'too_large'],
	approve: ['bad_request', 'not_decided', 'too_large', 'moderation_unavailable'],
	reject: ['bad_request', 'not_decided', 'too_large', 'moderation_unavailable'],
	message: ['bad_request', 'not_found'],
	settings: [],
	saveSettings: [
		'bad_target',
		'bad_request',
		'bad_settings',
		'no_schemas',
		'settings_conflict',
		'too_many_targets',
		'too_large'
	],
	undoSettings: ['bad_target', 'bad_request', 'settings_conflict', 'nothing_to_undo'],
	counterNew: ['bad_request', 'too_large', 'invalid', 'counter_exists'],
	counterAdd: ['bad_request', 'too_large', 'invalid'],
	counterSet: ['bad_request', 'too_large', 'invalid'],
	counterDelete: ['bad_request'],
	tipGoal: ['bad_request', 'too_large', 'invalid'],
	celebrate: ['bad_request', 'too_large', 'invalid'],
	chat: [],
	saveThanks: ['bad_request', 'bad_template', 'too_large'],
	commands: [],
	changeCommand: ['bad_request', 'too_large', 'not_a_command', 'command_exists', 'alias_in_use'],
	sendChat: ['bad_request', 'too_large', ...CHAT_POST_ERRORS],
	resendChat: ['bad_request', 'too_large', 'not_unsure', ...CHAT_POST_ERRORS],
	dismissChat: ['bad_request', 'too_large', 'not_unsure'],
	activity: ['bad_request', 'bad_cursor', 'activity_unavailable'],
	activitySummary: ['bad_request', 'activity_unavailable'],
	activityStart: ['bad_request', 'too_large', 'activity_unavailable'],
	activityReplay: ['bad_request', 'too_large', 'activity_unavailable'],
	activityExport: ['bad_request', 'activity_unavailable'],
	activityDelete: ['bad_request', 'too_large', 'activity_unavailable'],
	newKey: ['unexpected_body', 'not_found'],
	// Its credential's refusals (CREDENTIAL_ERRORS) come in the socket's first frame's answer.
	live: ['upgrade_required']
};
