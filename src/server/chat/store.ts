// Where the token endpoint keeps each streamer's chat (ledger.ts): a kind of kept state
// (src/server/store/kept.ts), its meta the small part (settings, budget, problem, recent messages),
// its entries each tip's thanks by order id, open until done, a done or unsure one kept a day. So a
// change costs what it touches, never the day's tips; changes run one at a time per streamer (on
// every instance) and are stored durably before they are answered: a tip's entry is made once, and
// a sender's claim on it holds, across copies, instances and restarts. Single mode keeps it in the
// journal CHAT_FILE (default .chat.json, beside the overlay key); a line of it that cannot be read
// stops the server with the file's name.
import type { ChatStatus } from '../../contract/chat.ts';
import type { MemoryPushChannel, PushSubscriptions } from '../live/push-channel.ts';
import { FileKeptStore } from '../store/file-kept.ts';
import type { KeptStore, Kind } from '../store/kept.ts';
import {
	ChatMeta,
	emptyMeta,
	Entry,
	isBusy,
	KEEP_DONE_MS,
	statusOf,
	type ChatState
} from './ledger.ts';

export const CHAT: Kind<ChatMeta, Entry> = {
	name: 'chat',
	meta: ChatMeta,
	entry: Entry,
	empty: emptyMeta,
	open: (e) => e.state !== 'done',
	dropAt: (e) => (isBusy(e) ? null : e.at + KEEP_DONE_MS)
};

/**
 * A change of the state: returns its result; `tell()` has the streamer's docks told
 * (`{ type: 'chat' }`) once it is stored. A change that leaves the state as it was stores nothing.
 * It may add entries and change those it sees, never remove one (the stores drop past ones).
 */
export type ChatChange<T> = (state: ChatState, tell: () => void) => T;

export interface ChatStore {
	/** The meta and the entries not done, with those of `ids` whatever their state. */
	read(streamer: string, ids?: readonly string[]): Promise<ChatState>;
	/** Runs `change` on what read(streamer, ids) gives, after the streamer's changes before it. */
	update<T>(streamer: string, change: ChatChange<T>, ids?: readonly string[]): Promise<T>;
	/** The streamers with entries not done (a sender resumes them at start). */
	busy(): Promise<string[]>;
	/** The push channel it publishes on (src/server/live/push-channel.ts). */
	readonly push: PushSubscriptions;
	close?(): Promise<void>;
}

/** The chat kept in `kept` (hosted: src/hosted/kept-store.ts). */
export const chatStore = (kept: KeptStore<ChatMeta, Entry>): Required<ChatStore> => ({
	push: kept.push,
	read: (streamer, ids) => kept.read(streamer, ids),
	update: (streamer, change, ids) =>
		kept.update(streamer, (s, tell) => change(s, () => tell({ type: 'chat' })), ids),
	busy: () => kept.streamers(),
	close: async () => kept.close?.()
});

/** Single mode's: the journal `where` (null: memory only, tests and the demo). */
export const chatFile = (where: string | null, push?: MemoryPushChannel) =>
	chatStore(new FileKeptStore(CHAT, { where, variable: 'CHAT_FILE', unreadable: 'stop', push }));

export const chatStatus = async (store: ChatStore, streamer: string): Promise<ChatStatus> =>
	statusOf(await store.read(streamer));
