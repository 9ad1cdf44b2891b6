// The dock's own messages in chat (docs/dock.md, "Thanks in chat"): Send to chat, posted as
// written, and Send again of a thanks that may not have gone. Both count in the chat budget the
// thanks share, through the streamer's chat store (store.ts). And It went, the streamer's word that
// such a thanks is in chat: nothing posted.
import { CHAT_BUDGET } from '../../contract/chat.ts';
import type { UpstreamClient } from '../upstream.ts';
import { BUDGET_SPENT, recordSent, seenInChat, settlePost } from './changes.ts';
import { entriesOf, roomAt, spend } from './ledger.ts';
import { postChat, type ChatOutcome } from './post.ts';
import type { ChatStore } from './store.ts';

/** The dock's Send to chat: counted in the same budget, posted as written. */
export async function sendFromDock(
	store: ChatStore,
	streamer: string,
	up: UpstreamClient,
	message: string,
	clock: () => number
): Promise<ChatOutcome> {
	const now = clock();
	const room = await store.update(streamer, (s) => {
		if (roomAt(s, now, CHAT_BUDGET.messages) > now) return false;
		spend(s, now);
		return true;
	});
	if (!room) return BUDGET_SPENT;
	const outcome = await postChat(up, message, 0);
	await store.update(streamer, (s, tell) => {
		recordSent(s, { text: message, kind: 'dock' }, outcome, clock());
		tell();
	});
	return outcome;
}

/**
 * The dock's Send again of a thanks that may not have gone (its message `id`): taken from
 * `unsure` (so two docks pressing at once post it once), counted in the budget, posted as it
 * was; its outcome settles as any thanks', but a refusal leaves it unsure for the streamer.
 * Null: nothing unsure has that id (sent again already, or gone).
 */
export async function sendAgain(
	store: ChatStore,
	streamer: string,
	up: UpstreamClient,
	id: string,
	clock: () => number
): Promise<ChatOutcome | null> {
	const now = clock();
	const taken = await store.update(streamer, (s, tell) => {
		const entries = entriesOf(s, id, 'unsure');
		if (entries.length === 0) return null;
		if (roomAt(s, now, CHAT_BUDGET.messages) > now) return 'budget';
		spend(s, now);
		for (const [key, e] of entries) s.entries[key] = { ...e, state: 'sending', at: now, msg: id };
		tell();
		return entries[0][1].text ?? '';
	});
	if (taken === null) return null;
	if (taken === 'budget') return BUDGET_SPENT;
	const outcome = await postChat(up, taken, 0);
	await store.update(streamer, (s, tell) => {
		settlePost(s, id, taken, outcome, clock(), true);
		tell();
	});
	return outcome;
}

/**
 * The dock's It went of a thanks that may not have gone (its message `id`): taken from `unsure` in
 * one change, so of two docks pressing at once (or one pressing Send again) only the first acts.
 * False: nothing unsure has that id (sent again, taken already, or gone).
 */
export function seenByStreamer(
	store: ChatStore,
	streamer: string,
	id: string,
	clock: () => number
): Promise<boolean> {
	return store.update(streamer, (s, tell) => {
		const seen = seenInChat(s, id, clock());
		if (seen) tell();
		return seen;
	});
}
