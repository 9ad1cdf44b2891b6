// A thanks in chat for tips read on stream (docs/dock.md, "Thanks in chat"): the streamer's
// template with the tippers' names and the amount, never a tip's message. Pure.
import { CHAT_MESSAGE_MAX, THANKS_TEMPLATE_MAX, type ThanksSettings } from '../contract/chat.ts';

/** The placeholders a template may use. */
export const THANKS_PLACEHOLDERS = ['{name}', '{amount}'] as const;

/** Chat takes a message starting with `/` or `!` for a command; the upstream refuses it. */
export const startsAsCommand = (text: string): boolean => /^[/!]/.test(text.trim());

/** A tipper's name as it goes into chat: one line, no control characters, at most this long. */
const NAME_MAX = 40;

/**
 * What is wrong with a template, as the dock says it, or null. The upstream refuses a chat message
 * that starts with `/` or `!` (a command), and this one is posted unattended.
 */
export function templateProblem(template: string): string | null {
	const t = template.trim();
	if (!t) return 'empty';
	if (t.length > THANKS_TEMPLATE_MAX) return `longer than ${THANKS_TEMPLATE_MAX} characters`;
	if (startsAsCommand(t)) return 'cannot start with / or !';
	const unknown = t
		.match(/\{[^{}]*\}/g)
		?.find((p) => !(THANKS_PLACEHOLDERS as readonly string[]).includes(p));
	if (unknown) return `${unknown} is not a placeholder: use {name} and {amount}`;
	return null;
}

/** A name fit for one chat line: control characters and runs of spaces gone, cut to NAME_MAX. */
export function chatName(name: string): string {
	const clean = name
		.replace(/\p{Cc}+/gu, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	const short = clean.length > NAME_MAX ? clean.slice(0, NAME_MAX - 1) + '…' : clean;
	return short || 'someone';
}

/** "A", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
	if (names.length <= 1) return names[0] ?? '';
	return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The message for tips read together: one tip with `template`, several with `burst`. `amount` is
 * the tip's amount (or the tips' total) as the streamer's currency writes it. A burst whose names
 * would pass the chat's length names the first ones and "N others". Never starts with `/` or `!`
 * (a name placed first could).
 */
export function renderThanks(
	settings: Pick<ThanksSettings, 'template' | 'burst'>,
	names: readonly string[],
	amount: string
): string {
	const clean = names.map(chatName);
	const template = clean.length > 1 ? settings.burst : settings.template;
	const fill = (who: string) =>
		template.trim().replaceAll('{name}', who).replaceAll('{amount}', amount);
	let text = fill(joinNames(clean));
	for (let kept = clean.length - 1; text.length > CHAT_MESSAGE_MAX && kept >= 1; kept--) {
		const others = clean.length - kept;
		text = fill(
			joinNames([...clean.slice(0, kept), `${others} ${others === 1 ? 'other' : 'others'}`])
		);
	}
	text = text.replace(/^[\s/!]+/, '');
	return text.length > CHAT_MESSAGE_MAX ? text.slice(0, CHAT_MESSAGE_MAX - 1) + '…' : text;
}
