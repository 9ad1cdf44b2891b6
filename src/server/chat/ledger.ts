// A streamer's chat as the token endpoint keeps it (docs/dock.md, "Thanks in chat"): the thanks
// settings, one entry per tip to thank (so a tip is thanked once, whoever finishes it and however
// often), the times of the messages sent (the chat budget), the problem that stops chat now and
// the last messages. Pure: the stores (store.ts) keep the small part (ChatMeta) whole and each
// entry apart (a journal in single mode, rows in PostgreSQL in hosted mode); a change sees the
// entries not done and those it names, never the day's, and is applied one at a time per streamer.
import { z } from 'zod/mini';
import {
	CHAT_BUDGET,
	ChatProblem,
	ChatSent,
	DEFAULT_THANKS,
	ThanksSettings,
	type ChatStatus,
	type ChatUnsure
} from '../../contract/chat.ts';
import { decide, recent, type WindowLimit } from '../../core/window-limit.ts';

/**
 * Where a tip's thanks is:
 * - `finishing`: its finish is on its way upstream (written before, so a crash in between is
 *   settled from the played history, thanker.ts);
 * - `owed`: read on stream, the thanks is due at `due`;
 * - `sending`: taken by a sender at `at`, as the message `msg`; a sender that dies then leaves it,
 *   and it becomes `unsure`;
 * - `unsure`: its message (`text`) was posted and no answer said whether chat took it; never posted
 *   again but by the streamer's Send again (the dock lists it);
 * - `done`: thanked, given up, or not to be thanked; kept for a day so a late repeat is known.
 */
export const Entry = z.object({
	state: z.enum(['finishing', 'owed', 'sending', 'unsure', 'done']),
	/** When it entered its state (ms since 1970). */
	at: z.number(),
	/** When the tip was read (its finish answered): a thanks later than THANKS_GIVE_UP_MS is not sent. */
	readAt: z.optional(z.number()),
	due: z.optional(z.number()),
	name: z.optional(z.string()),
	amount: z.optional(z.nullable(z.number())),
	tries: z.optional(z.int()),
	/** `sending` and `unsure`: the message it went in (the entries thanked together share it). */
	msg: z.optional(z.string()),
	/** `unsure`: the message as posted, for Send again. */
	text: z.optional(z.string())
});
export type Entry = z.infer<typeof Entry>;

/** The streamer's chat but its entries: stored whole (small, bounded). */
export const ChatMeta = z.object({
	thanks: ThanksSettings,
	/** When each message counted against the budget went out (ms), the last window's only. */
	sends: z.array(z.number()),
	problem: z.nullable(ChatProblem),
	recent: z.array(ChatSent)
});
export type ChatMeta = z.infer<typeof ChatMeta>;

/**
 * The state a change sees: the meta, and the entries loaded for it (every one not `done`, and those
 * the change names by order id); a done entry not named is not there but still stored.
 */
export type ChatState = ChatMeta & { entries: Record<string, Entry> };

/** The thanks' share of the chat budget: the rest stays for the dock's Send and other tools. */
export const THANKS_PER_WINDOW = 15;
/**
 * A read tip's thanks waits this long for the next alert: one that starts holds it until it is
 * read too, so alerts played back to back (a burst) are thanked in one message when they end...
 */
export const GATHER_MS = 1500;
/** ...but no thanks waits longer than this after its tip was read. */
export const MAX_GATHER_MS = 20_000;
/** A thanks not sent this long after its tip was read is given up: it would come too late. */
export const THANKS_GIVE_UP_MS = 10 * 60_000;
/** A `finishing` or `sending` entry older than this was left by a sender that stopped. */
export const STALE_MS = 60_000;
/** Done and unsure entries are kept this long (a late repeat of a tip is known), then dropped. */
export const KEEP_DONE_MS = 24 * 3600_000;
const RECENT_MAX = 20;

export const emptyMeta = (): ChatMeta => ({
	thanks: { ...DEFAULT_THANKS },
	sends: [],
	problem: null,
	recent: []
});

/** The dock's view of the state. */
export function statusOf(s: ChatState): ChatStatus {
	let waiting = 0;
	const unsure = new Map<string, ChatUnsure>();
	for (const e of Object.values(s.entries)) {
		if (e.state === 'owed' || e.state === 'sending') waiting++;
		if (e.state !== 'unsure') continue;
		const id = messageOf(e);
		const one = unsure.get(id);
		const tip = { name: e.name ?? 'someone', amount: e.amount ?? null };
		if (one) one.tips.push(tip);
		else unsure.set(id, { id, at: new Date(e.at).toISOString(), text: e.text ?? '', tips: [tip] });
	}
	const listed = [...unsure.values()].sort((a, b) => a.at.localeCompare(b.at));
	return { thanks: s.thanks, waiting, problem: s.problem, recent: s.recent, unsure: listed };
}

/** The message an entry went in (one left by an older version has no id: its time says). */
export const messageOf = (e: Entry): string => e.msg ?? `m${e.at}`;

/** The entries of the message `id` in the state `state`. */
export const entriesOf = (s: ChatState, id: string, state: Entry['state']): [string, Entry][] =>
	Object.entries(s.entries).filter(([, e]) => e.state === state && messageOf(e) === id);

/** The chat budget under `limit` messages: the thanks' share, or the whole for the dock. */
const budget = (limit: number): WindowLimit => ({ limit, windowMs: CHAT_BUDGET.perMs });

/** When the budget has room for one more message under `limit`: now, or when the oldest leaves. */
export const roomAt = (s: ChatState, now: number, limit: number): number =>
	decide(budget(limit), s.sends, now).nextAt;

/** Counts a message against the budget and drops the times past the window. */
export function spend(s: ChatState, now: number): void {
	s.sends = [...recent(budget(CHAT_BUDGET.messages), s.sends, now), now];
}

export function remember(s: ChatState, sent: ChatSent): void {
	s.recent = [sent, ...s.recent].slice(0, RECENT_MAX);
}

/**
 * The owed thanks not tried yet wait for another alert: until `until` (another tip read: a short
 * wait, it goes with them; one started: until it is read), never past MAX_GATHER_MS after its read.
 */
export function gather(s: ChatState, until: number): void {
	for (const e of Object.values(s.entries))
		if (e.state === 'owed' && !e.tries) e.due = Math.min(until, (e.readAt ?? e.at) + MAX_GATHER_MS);
}

/** Owed entries whose thanks is due at `now`, oldest read first. */
export function dueEntries(s: ChatState, now: number): [string, Entry][] {
	return Object.entries(s.entries)
		.filter(([, e]) => e.state === 'owed' && (e.due ?? 0) <= now)
		.sort(([, a], [, b]) => (a.readAt ?? a.at) - (b.readAt ?? b.at));
}

/** The earliest time something is due: an owed entry, or a stale one to settle. */
export function nextWake(s: ChatState): number | null {
	let next: number | null = null;
	for (const e of Object.values(s.entries)) {
		const at =
			e.state === 'owed'
				? (e.due ?? e.at)
				: e.state === 'done' || e.state === 'unsure'
					? null
					: e.at + STALE_MS;
		if (at !== null && (next === null || at < next)) next = at;
	}
	return next;
}

/** An entry the sender still has something to do with (a done or unsure one is dropped in time). */
export const isBusy = (e: Entry) => e.state !== 'done' && e.state !== 'unsure';
