// Where the token endpoint keeps each streamer's chat (ledger.ts): a journal file in single mode
// (CHAT_FILE, default .chat.json, beside the overlay key; file-store.ts), PostgreSQL in hosted mode
// (src/hosted/chat-store.ts). The small part (settings, budget, problem, recent messages) is kept
// whole; each tip's entry apart, so that a change costs what it touches, never the day's tips. Every
// change runs on the meta and the entries not done (and those it names), one at a time per streamer
// (on every instance), and is stored durably before it is answered: so a tip's entry is made once,
// and a sender's claim on it holds, across copies, instances and restarts.
import type { ChatStatus } from '../../contract/chat.ts';
import type { PushSubscriptions } from '../live/push-channel.ts';
import { metaOf, statusOf, type ChatMeta, type ChatState, type Entry } from './ledger.ts';

/**
 * A change of the state: returns its result; `tell()` has the streamer's docks told
 * (`{ type: 'chat' }`) once it is stored. A change that leaves the state as it was stores nothing.
 * It may add entries and change those it sees, never remove one (the stores drop past ones).
 */
export type ChatChange<T> = (state: ChatState, tell: () => void) => T;

export interface ChatStore {
	/** The meta and the entries not done, with those of `ids` whatever their state. */
	read(streamer: string, ids?: readonly string[]): Promise<ChatState>;
	/** Runs `change` on what read(streamer, ids) gives, under the streamer's lock; stores it. */
	update<T>(streamer: string, change: ChatChange<T>, ids?: readonly string[]): Promise<T>;
	/** The streamers with entries a sender has work on (it resumes them at start). */
	busy(): Promise<string[]>;
	/** The push channel it publishes on (src/server/live/push-channel.ts). */
	readonly push: PushSubscriptions;
	close?(): Promise<void>;
}

export const chatStatus = async (store: ChatStore, streamer: string): Promise<ChatStatus> =>
	statusOf(await store.read(streamer));

/** What a change did: its value, the meta if it changed, the entries it added or changed. */
export interface Applied<T> {
	value: T;
	meta: ChatMeta | null;
	entries: [string, Entry][];
	told: boolean;
}

/** Runs a change on a copy of `was`: what it changed, to store. */
export function applyChange<T>(was: ChatState, change: ChatChange<T>): Applied<T> {
	const state = structuredClone(was);
	let told = false;
	const value = change(state, () => (told = true));
	const meta = metaOf(state);
	const metaChanged = JSON.stringify(meta) !== JSON.stringify(metaOf(was));
	const entries = Object.entries(state.entries).filter(
		([id, e]) => JSON.stringify(e) !== JSON.stringify(was.entries[id])
	);
	return { value, meta: metaChanged ? meta : null, entries, told };
}

/** Whether a change stored anything. */
export const changed = (a: Applied<unknown>) => a.meta !== null || a.entries.length > 0;
