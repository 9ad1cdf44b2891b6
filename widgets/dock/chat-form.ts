// The dock's Chat section, its pure part (docs/dock.md, "Thanks in chat" and "Send to chat"): the
// thanks form's preview and checks as the streamer types (core/thanks.ts renders and checks, as
// the server does), a `bad_template` refusal placed on its field, a problem's sentence with how to
// fix it, and the Send to chat box's check before sending (the upstream refuses a command).
import {
	CHAT_BUDGET,
	CHAT_MESSAGE_MAX,
	type ChatProblem,
	type ChatSent,
	type ChatUnsure,
	type ThanksSettings
} from '../../src/contract/chat.ts';
import { renderThanks, startsAsCommand, templateProblem } from '../../src/core/thanks.ts';

export type ThanksField = 'template' | 'burst';

/** The sample tips the preview thanks: one, then a burst of three with their total. */
export const SAMPLE = {
	one: { names: ['Ana'], amount: '$5.00' },
	burst: { names: ['Ana', 'Ben', 'Chloé'], amount: '$12.00' }
} as const;

/** Each template's rendered sample, or what is wrong with it (then no preview). */
export function thanksPreview(
	form: ThanksSettings
): Record<ThanksField, { text: string } | { problem: string }> {
	const one = templateProblem(form.template);
	const burst = templateProblem(form.burst);
	return {
		template: one
			? { problem: one }
			: { text: renderThanks(form, SAMPLE.one.names, SAMPLE.one.amount) },
		burst: burst
			? { problem: burst }
			: { text: renderThanks(form, SAMPLE.burst.names, SAMPLE.burst.amount) }
	};
}

/** The form's first problem as Save says it (the field's own line says it too), or null. */
export function formProblem(form: ThanksSettings): string | null {
	const one = templateProblem(form.template);
	if (one) return `One tip: ${one}`;
	const burst = templateProblem(form.burst);
	return burst ? `Several tips: ${burst}` : null;
}

/** A 400 `bad_template` ("template: cannot start with / or !") on its field, or null. */
export function refusedField(text: string): { field: ThanksField; problem: string } | null {
	const m = /^(template|burst)\s*:\s*(.+)$/s.exec(text.trim());
	return m ? { field: m[1] as ThanksField, problem: m[2] } : null;
}

export function sameThanks(a: ThanksSettings, b: ThanksSettings): boolean {
	return a.enabled === b.enabled && a.template === b.template && a.burst === b.burst;
}

/** What the Send to chat box refuses before sending (as the upstream would), or null. */
export function messageProblem(message: string): string | null {
	const t = message.trim();
	if (!t) return 'empty';
	if (t.length > CHAT_MESSAGE_MAX) return `longer than ${CHAT_MESSAGE_MAX} characters`;
	if (startsAsCommand(t)) return 'cannot start with / or ! (a chat command)';
	return null;
}

/** How to fix a problem, when its sentence alone does not say. */
export function problemFix(p: ChatProblem): string | null {
	switch (p.code) {
		case 'missing_scope':
			return `Add the ${p.required_scope ?? 'chat:write'} scope to the key in the tip service's dashboard (connected with OAuth: Connect again in the preview; hosted: sign in again), allowing sending to chat.`;
		case 'bot_disabled':
			return 'Switch it on in the dashboard: the thanks waiting go out then.';
		case 'no_channel':
			return 'Connect a Twitch or Kick channel in the dashboard: thanks go out again once one is.';
		case 'unauthorized':
			return "The tip service refused the server's credential: connect again (or give the server a new key), and thanks go out again after.";
		case 'bot_unavailable':
		case 'gateway_unavailable':
		case 'unreachable':
			return 'It retries shortly by itself.';
		case 'outcome_unknown':
			return 'Look in your chat: if the thanks is not there, press Send again.';
		case 'rate_limited':
		case 'chat_budget':
			return `Chat takes ${CHAT_BUDGET.messages} messages per ${CHAT_BUDGET.perMs / 1000} s: the rest go out when it allows.`;
		default:
			return null;
	}
}

/** A recent message's line under its text: when, what, and how it went. */
export function sentLine(s: ChatSent, time: (iso: string) => string): string {
	const what =
		s.kind === 'dock'
			? 'from the dock'
			: `thanks${s.tips && s.tips > 1 ? ` for ${s.tips} tips` : ''}`;
	const how =
		s.outcome === 'sent'
			? s.code === 'seen'
				? 'sent (seen in chat)'
				: 'sent'
			: s.outcome === 'unsure'
				? `may not have gone${s.code === 'interrupted' ? ' (interrupted)' : ''}`
				: `failed${s.code ? ` (${s.code})` : ''}`;
	return `${time(s.at)} · ${what} · ${how}`;
}

/** A thanks that may not have gone, in a line under its text: when, and its tippers. */
export function unsureLine(u: ChatUnsure, time: (iso: string) => string): string {
	const names = u.tips.map((t) => t.name).join(', ');
	return `${time(u.at)} · ${u.tips.length === 1 ? 'thanks for' : `thanks for ${u.tips.length} tips:`} ${names}`;
}
