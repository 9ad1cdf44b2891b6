// Where the token endpoint keeps each streamer's chat (ledger.ts): a file in single mode
// (CHAT_FILE, default .chat.json, beside the overlay key; FileChatStore below), PostgreSQL in
// hosted mode (src/hosted/chat-store.ts). Every change runs on the whole state, one at a time per
// streamer (on every instance), and is stored durably before it is answered: so a tip's entry is
// made once, and a sender's claim on it holds, across copies, instances and restarts.
import type { ChatStatus } from '../../contract/chat.ts';
import { readStored, writeDurably } from '../durable-file.ts';
import { MemoryPushChannel, type PushSubscriptions } from '../live/push-channel.ts';
import { SINGLE_STREAMER } from '../routes/control-key.ts';
import { emptyChat, isBusy, prune, readChat, statusOf, type ChatState } from './ledger.ts';

/**
 * A change of the state: returns its result; `tell()` has the streamer's docks told
 * (`{ type: 'chat' }`) once it is stored. A change that leaves the state as it was stores nothing.
 */
export type ChatChange<T> = (state: ChatState, tell: () => void) => T;

export interface ChatStore {
	read(streamer: string): Promise<ChatState>;
	update<T>(streamer: string, change: ChatChange<T>): Promise<T>;
	/** The streamers with entries not done (a sender resumes them at start). */
	busy(): Promise<string[]>;
	/** The push channel it publishes on (src/server/live/push-channel.ts). */
	readonly push: PushSubscriptions;
	close?(): Promise<void>;
}

export const chatStatus = async (store: ChatStore, streamer: string): Promise<ChatStatus> =>
	statusOf(await store.read(streamer));

/** Runs a change on a copy of the state: the copy, whether it changed, and whether to tell. */
export function applyChange<T>(
	was: ChatState,
	change: ChatChange<T>,
	now = Date.now()
): { state: ChatState; value: T; changed: boolean; told: boolean } {
	const state = structuredClone(was);
	let told = false;
	const value = change(state, () => (told = true));
	prune(state, now);
	return { state, value, changed: JSON.stringify(state) !== JSON.stringify(was), told };
}

export class ChatFileError extends Error {}

/**
 * Single mode's store: one streamer's state in memory and in a file written durably before a
 * change is answered. `where` null: memory only (tests, the demo's throwaway store).
 */
export class FileChatStore implements ChatStore {
	#state: ChatState = emptyChat();
	/** Changes run one after another, each on the state the one before left. */
	#queue: Promise<unknown> = Promise.resolve();

	constructor(
		readonly where: string | null,
		readonly push = new MemoryPushChannel()
	) {
		if (where !== null) this.#load(where);
	}

	async read(): Promise<ChatState> {
		await this.#queue.catch(() => {});
		return structuredClone(this.#state);
	}

	update<T>(streamer: string, change: ChatChange<T>): Promise<T> {
		const run = this.#queue
			.catch(() => {})
			.then(async () => {
				const { state, value, changed, told } = applyChange(this.#state, change);
				if (!changed) return value;
				await this.#persist(state);
				this.#state = state;
				if (told) this.push.publish(streamer, { type: 'chat' });
				return value;
			});
		this.#queue = run;
		return run;
	}

	async busy(): Promise<string[]> {
		return isBusy(this.#state) ? [SINGLE_STREAMER] : [];
	}

	/** A file that cannot be read stops the server with its name: nothing is lost silently. */
	#load(where: string): void {
		const text = readStored(where, ChatFileError);
		if (text === null) return;
		let json: unknown = null;
		try {
			json = JSON.parse(text);
		} catch {
			// Reported below.
		}
		const state = readChat(json);
		if (!state)
			throw new ChatFileError(
				`${where} is not a chat file (fix it, or move it away to start with thanks off)`
			);
		this.#state = state;
	}

	/** Called in the queue only: one write at a time. */
	async #persist(state: ChatState): Promise<void> {
		if (this.where !== null) await writeDurably(this.where, JSON.stringify(state) + '\n');
	}
}
