// Single mode's chat store (store.ts): the one streamer's chat in memory, and in CHAT_FILE as a
// journal: one JSON line per change (the meta when it changed, the entries it added or changed),
// appended and fsynced before the change is answered, so a change costs its own size, never the
// day's tips. Read back in order at start; a last line cut off by a crash was never answered and
// is dropped. The file is rewritten as one line (durable-file.ts: temp file, fsync, rename), without
// the entries past keeping, at start when it has more than one line, and when the journal has grown
// past COMPACT_LINES and twice its entries (a cost spread over that many changes). A file of the
// earlier whole-state format is such a one-line journal.
import { open, type FileHandle } from 'node:fs/promises';
import { z } from 'zod/mini';
import { readStored, writeDurably } from '../durable-file.ts';
import { MemoryPushChannel } from '../live/push-channel.ts';
import { SINGLE_STREAMER } from '../caller.ts';
import { ChatMeta, emptyMeta, Entry, isBusy, isPast, type ChatState } from './ledger.ts';
import { applyChange, changed, type Applied, type ChatChange, type ChatStore } from './store.ts';

/** A journal's line: any part of the meta, and entries by order id. */
export const JournalLine = z.extend(z.partial(ChatMeta), {
	entries: z.optional(z.record(z.string(), Entry))
});

/** The journal is rewritten once it has this many lines, and twice as many as its entries. */
export const COMPACT_LINES = 1000;

export class ChatFileError extends Error {}

/**
 * `where` null: memory only (tests, the demo's throwaway store).
 */
export class FileChatStore implements ChatStore {
	#meta: ChatMeta = emptyMeta();
	readonly #entries = new Map<string, Entry>();
	/** The order ids of the entries not done. */
	readonly #open = new Set<string>();
	/** Changes run one after another, each on the state the one before left. */
	#queue: Promise<unknown> = Promise.resolve();
	#journal: FileHandle | null = null;
	/** Lines in the file since it was last written whole. */
	#lines = 0;
	/** The file is written whole before the next change: none yet, grown, or a write failed. */
	#rewrite = true;

	constructor(
		readonly where: string | null,
		readonly push = new MemoryPushChannel()
	) {
		if (where === null) return;
		this.#load(where);
		if (this.#rewrite && this.#lines > 0)
			this.#queue = this.#persist(null).catch((err: Error) =>
				console.error(
					`[chat] ${where} could not be rewritten (tried again on the next change):`,
					err.message
				)
			);
	}

	async read(_streamer: string, ids: readonly string[] = []): Promise<ChatState> {
		await this.#queue.catch(() => {});
		return structuredClone(this.#view(ids));
	}

	update<T>(streamer: string, change: ChatChange<T>, ids: readonly string[] = []): Promise<T> {
		const run = this.#queue
			.catch(() => {})
			.then(async () => {
				const applied = applyChange(this.#view(ids), change);
				if (!changed(applied)) return applied.value;
				await this.#persist(applied);
				this.#apply(applied);
				if (applied.told) this.push.publish(streamer, { type: 'chat' });
				return applied.value;
			});
		this.#queue = run;
		return run;
	}

	async busy(): Promise<string[]> {
		for (const id of this.#open) if (isBusy(this.#entries.get(id)!)) return [SINGLE_STREAMER];
		return [];
	}

	async close(): Promise<void> {
		await this.#queue.catch(() => {});
		await this.#journal?.close();
		this.#journal = null;
	}

	/** What a change sees (not a copy). */
	#view(ids: readonly string[]): ChatState {
		const entries: Record<string, Entry> = {};
		for (const id of this.#open) entries[id] = this.#entries.get(id)!;
		for (const id of ids) {
			const e = this.#entries.get(id);
			if (e) entries[id] = e;
		}
		return { ...this.#meta, entries };
	}

	#apply(a: Pick<Applied<unknown>, 'meta' | 'entries'>): void {
		if (a.meta) this.#meta = a.meta;
		for (const [id, e] of a.entries) {
			this.#entries.set(id, e);
			if (e.state === 'done') this.#open.delete(id);
			else this.#open.add(id);
		}
	}

	/** A file that cannot be read stops the server with its name: nothing is lost silently. */
	#load(where: string): void {
		const text = readStored(where, ChatFileError);
		if (text === null) return;
		const lines = text.split('\n');
		// After the last newline: '' in a whole journal, else a line a crash cut off.
		if (lines.pop())
			console.error(`[chat] ${where}: a last change cut off by a stop was never answered: dropped`);
		for (const [i, raw] of lines.entries()) {
			if (raw.trim() === '') continue;
			let json: unknown = null;
			try {
				json = JSON.parse(raw);
			} catch {
				// Reported below.
			}
			const line = JournalLine.safeParse(json);
			if (!line.success)
				throw new ChatFileError(
					`${where} line ${i + 1} is not a chat journal line (fix it, or move the file away to start with thanks off)`
				);
			const { entries = {}, ...meta } = line.data;
			this.#apply({ meta: { ...this.#meta, ...meta }, entries: Object.entries(entries) });
			this.#lines++;
		}
		this.#rewrite = this.#lines > 1 || this.#prune(Date.now()) > 0;
	}

	/** Drops the entries past keeping from memory; how many. */
	#prune(now: number): number {
		let dropped = 0;
		for (const [id, e] of this.#entries)
			if (isPast(e, now)) {
				this.#entries.delete(id);
				this.#open.delete(id);
				dropped++;
			}
		return dropped;
	}

	/** Stores a change (null: none, the file rewritten): appended, or the file written whole. */
	async #persist(a: Applied<unknown> | null): Promise<void> {
		if (this.where === null) return;
		if (this.#rewrite || this.#lines >= Math.max(COMPACT_LINES, 2 * this.#entries.size))
			return this.#writeWhole(a);
		const line = {
			...a?.meta,
			...(a?.entries.length ? { entries: Object.fromEntries(a.entries) } : {})
		};
		try {
			this.#journal ??= await open(this.where, 'a', 0o600);
			await this.#journal.write(JSON.stringify(line) + '\n');
			await this.#journal.datasync();
			this.#lines++;
		} catch (err) {
			// What the failed write left is overwritten by the next change's whole file.
			this.#rewrite = true;
			throw err;
		}
	}

	/** The state with `a` applied, as one line written durably; the journal starts after it. */
	async #writeWhole(a: Applied<unknown> | null): Promise<void> {
		const where = this.where!;
		const now = Date.now();
		const entries: Record<string, Entry> = {};
		for (const [id, e] of this.#entries) if (!isPast(e, now)) entries[id] = e;
		for (const [id, e] of a?.entries ?? []) entries[id] = e;
		this.#rewrite = true;
		await this.#journal?.close();
		this.#journal = null;
		await writeDurably(where, JSON.stringify({ ...(a?.meta ?? this.#meta), entries }) + '\n');
		this.#prune(now);
		this.#lines = 1;
		this.#rewrite = false;
	}
}
