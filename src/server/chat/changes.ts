// The sender's changes of a streamer's chat state (ledger.ts), pure: taking the thanks due under
// the budget's share, listing a message as sent or failed, and thanks given up. thanker.ts runs
// them through the store (store.ts), one at a time per streamer.
import type { ChatSent } from '../../contract/chat.ts';
import { chatName, joinNames } from '../../core/thanks.ts';
import {
	dueEntries,
	remember,
	roomAt,
	spend,
	THANKS_GIVE_UP_MS,
	THANKS_PER_WINDOW,
	type ChatState,
	type Entry
} from './ledger.ts';
import type { ChatOutcome } from './post.ts';

/**
 * Takes the owed entries due now (all of them: one message), or says when the budget has room.
 * Thanks switched off, or too late to be sent, are given up.
 */
export function takeDue(
	s: ChatState,
	now: number,
	tell: () => void
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
	for (const [id, e] of ready) s.entries[id] = { ...e, state: 'sending', at: now };
	return ready;
}

/** Thanks that will not be sent, listed as failed with why: the tippers' names only. */
export function givenUp(
	s: ChatState,
	entries: [string, Entry][],
	code: 'too_late' | 'interrupted',
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
	remember(s, {
		...sent,
		at,
		outcome: outcome.ok ? 'sent' : 'failed',
		...(outcome.ok ? {} : { code: outcome.problem.code })
	});
	if (outcome.ok) s.problem = null;
	else if (outcome.retry !== 'never') s.problem = { ...outcome.problem, at };
}
