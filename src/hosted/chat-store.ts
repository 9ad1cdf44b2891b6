// Hosted mode's chat store (src/server/chat/store.ts): each streamer's chat state (settings, the
// once-per-tip ledger, the budget's sends, the last messages) in one row of `chat_state`
// (migration 007), shared by every instance. A change locks the row (an upsert, which makes it if
// the streamer has none), so two instances' changes run one after the other:
// a tip's entry is made once and a sender's claim on it holds. The docks are told in the change's
// own transaction (push-channel.ts), so only once it is committed.
import { applyChange, type ChatChange, type ChatStore } from '../server/chat/store.ts';
import { emptyChat, isBusy, readChat, type ChatState } from '../server/chat/ledger.ts';
import { jsonColumn, type Db } from './db.ts';
import type { HostedPushChannel } from './push-channel.ts';

export class HostedChatStore implements ChatStore {
	constructor(
		private readonly db: Db,
		readonly push: HostedPushChannel
	) {}

	async read(streamer: string): Promise<ChatState> {
		const row = await this.db
			.selectFrom('chat_state')
			.select('state')
			.where('streamer_id', '=', streamer)
			.executeTakeFirst();
		return row ? stateOf(streamer, row.state) : emptyChat();
	}

	async update<T>(streamer: string, change: ChatChange<T>): Promise<T> {
		return this.db.transaction().execute(async (tx) => {
			// One statement makes the row if the streamer has none and locks it till the commit (an
			// upsert that changes nothing still takes the row's lock), handing back its state: a first
			// change of two instances at once waits on the same row.
			const row = await tx
				.insertInto('chat_state')
				.values({ streamer_id: streamer, state: JSON.stringify(emptyChat()), busy: false })
				.onConflict((oc) =>
					oc
						.column('streamer_id')
						.doUpdateSet((eb) => ({ streamer_id: eb.ref('excluded.streamer_id') }))
				)
				.returning('state')
				.executeTakeFirstOrThrow();
			const { state, value, changed, told } = applyChange(stateOf(streamer, row.state), change);
			if (!changed) return value;
			await tx
				.updateTable('chat_state')
				.set({ state: JSON.stringify(state), busy: isBusy(state), updated_at: new Date() })
				.where('streamer_id', '=', streamer)
				.execute();
			if (told) await this.push.publish(streamer, { type: 'chat' }, tx);
			return value;
		});
	}

	async busy(): Promise<string[]> {
		const rows = await this.db
			.selectFrom('chat_state')
			.select('streamer_id')
			.where('busy', '=', true)
			.execute();
		return rows.map((r) => r.streamer_id);
	}
}

/** A stored state read back; one that cannot be read starts afresh (thanks off), and is logged. */
function stateOf(streamer: string, stored: unknown): ChatState {
	const state = readChat(jsonColumn(stored));
	if (state) return state;
	console.error(`[chat] the stored chat of ${streamer} is unreadable: thanks are off until saved`);
	return emptyChat();
}
