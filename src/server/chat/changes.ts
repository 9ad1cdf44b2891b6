// The sender's changes of a streamer's chat state (ledger.ts), pure: taking the thanks due under
// the budget's share, settling a message by its outcome (sent, tried again, failed, or unsure),
// thanks given up, and the streamer's word that an unsure one went. thanker.ts runs them through the store (store.ts), one at a time per
// streamer.
import { CHAT_BUDGET, type ChatSent, type ThanksSettings } from '../../contract/chat.ts';
import { formatAmount } from '../../core/money.ts';
import { chatName, joinNames, renderThanks } from '../../core/thanks.ts';
import {
	dueEntries,
	entriesOf,
	remember,
	roomAt,
	spend,
	THANKS_GIVE_UP_MS,
	THANKS_PER_WINDOW,
	type ChatState,
	type Entry
} from './ledger.ts';
import { STREAMER_RETRY_MS, type ChatOutcome } from './post.ts';

/**
 * Takes the owed entries due now (all of them: one message), or says when the budget has room.
 * Thanks switched off, or too late to be sent, are given up.
 */
export function takeDue(
	s: ChatState,
	now: number,
	tell: () => void,
	msg: string
): [string, Entry][] | number | null {
	const due = dueEntries(s, now);
	if (due.length === 0) return null;
	const late = due.filter(
		([, e]) => !s.thanks.enabled || now - (e.readAt ?? e.at) > THANKS_GIVE_UP_MS
	);
	for (const [id, e] of late) s.entries[id] = { ...e, state: 'done', at: now };
	if (late.length > 0) {
		if (s.thanks.enabled) givenUp(s, late, 'too_late', now);
		tell();
	}
	const ready = due.filter(([id]) => s.entries[id].state === 'owed');
	if (ready.length === 0) return null;
	const room = roomAt(s, now, THANKS_PER_WINDOW);
	if (room > now) return room;
	spend(s, now);
	for (const [id, e] of ready) s.entries[id] = { ...e, state: 'sending', at: now, msg };
	return ready.map(([id]) => [id, s.entries[id]]);
}

/** Thanks that will not be sent, listed as failed with why: the tippers' names only. */
export function givenUp(
	s: ChatState,
	entries: [string, Entry][],
	code: 'too_late',
	now: number
): void {
	remember(s, {
		at: new Date(now).toISOString(),
		text: joinNames(entries.map(([, e]) => chatName(e.name ?? 'someone'))),
		kind: 'thanks',
		tips: entries.length,
		outcome: 'failed',
		code
	});
}

/** The message in the recent list, and the problem it showed (or none, once one went through). */
export function recordSent(
	s: ChatState,
	sent: Pick<ChatSent, 'text' | 'kind' | 'tips'>,
	outcome: ChatOutcome,
	now: number
): void {
	const at = new Date(now).toISOString();
	const unsure = !outcome.ok && outcome.retry === 'unknown';
	remember(s, {
		...sent,
		at,
		outcome: outcome.ok ? 'sent' : unsure ? 'unsure' : 'failed',
		...(outcome.ok || unsure ? {} : { code: outcome.problem.code })
	});
	if (outcome.ok) s.problem = null;
	else if (outcome.retry === 'soon' || outcome.retry === 'streamer')
		s.problem = { ...outcome.problem, at };
}

/**
 * A thanks message's outcome on its entries still `sending` as `msg`: sent or never (done, listed),
 * not posted (owed again, after the wait the answer asked; `resend`: back to unsure, the streamer
 * pressed Send again and decides again), or unknown (unsure, listed: never posted again by itself).
 */
export function settlePost(
	s: ChatState,
	msg: string,
	text: string,
	outcome: ChatOutcome,
	now: number,
	resend = false
): void {
	const taken = Object.entries(s.entries).filter(([, e]) => e.state === 'sending' && e.msg === msg);
	const refused = !outcome.ok && (outcome.retry === 'soon' || outcome.retry === 'streamer');
	for (const [id, e] of taken) {
		if (outcome.ok || outcome.retry === 'never') s.entries[id] = { ...e, state: 'done', at: now };
		else if (outcome.retry === 'unknown' || resend)
			s.entries[id] = { ...e, state: 'unsure', at: now, text, due: undefined };
		else
			s.entries[id] = {
				...e,
				state: 'owed',
				at: now,
				tries: (e.tries ?? 0) + 1,
				due: now + (outcome.waitMs ?? STREAMER_RETRY_MS)
			};
	}
	// A thanks that will be tried again is not listed yet: only its problem shows.
	if (refused && !resend) s.problem = { ...outcome.problem, at: new Date(now).toISOString() };
	else recordSent(s, { text, kind: 'thanks', tips: taken.length }, outcome, now);
}

/**
 * Entries a sender left `sending` (it stopped mid-post): their message may have gone, so they are
 * unsure, with the message as it would have been posted (`text`), listed as such.
 */
export function leftUnsure(s: ChatState, left: [string, Entry][], text: string, now: number): void {
	for (const [id, e] of left) s.entries[id] = { ...e, state: 'unsure', at: now, text };
	remember(s, {
		at: new Date(now).toISOString(),
		text,
		kind: 'thanks',
		tips: left.length,
		outcome: 'unsure',
		code: 'interrupted'
	});
}

/**
 * The streamer's It went on a thanks that may not have gone (its message `id`): the streamer saw it
 * in chat, so its entries are done, never posted again, and it is listed as sent, seen. False when
 * nothing is unsure under that id (sent again, taken already, or gone): nothing changes.
 */
export function seenInChat(s: ChatState, id: string, now: number): boolean {
	const entries = entriesOf(s, id, 'unsure');
	if (entries.length === 0) return false;
	for (const [key, e] of entries) s.entries[key] = { ...e, state: 'done', at: now };
	remember(s, {
		at: new Date(now).toISOString(),
		text: entries[0][1].text ?? '',
		kind: 'thanks',
		tips: entries.length,
		outcome: 'sent',
		code: 'seen'
	});
	return true;
}

/** The dock's message (Send to chat, Send again) refused by the budget, before any post. */
export const BUDGET_SPENT: ChatOutcome = {
	ok: false,
	retry: 'soon',
	problem: {
		code: 'chat_budget',
		error: `the chat budget (${CHAT_BUDGET.messages} messages per ${CHAT_BUDGET.perMs / 1000} seconds) is spent: try again shortly`
	}
};

/** The message that thanks `entries` (their names and total) as the settings say. */
export function thanksText(
	thanks: ThanksSettings,
	entries: [string, Entry][],
	currency: Parameters<typeof formatAmount>[1]
): string {
	const names = entries.map(([, e]) => e.name ?? 'someone');
	const total = entries.reduce((sum, [, e]) => sum + (e.amount ?? 0), 0);
	return renderThanks(thanks, names, formatAmount(total, currency));
}
