// Single mode's kept store (kept.ts): one kind of the one streamer's state in memory, and in its file
// as a journal: one JSON line per change (the meta when it changed, the entries it added or
// changed), appended and synced before the change is answered, so a change costs its own size,
// never the whole state. Read back in order at start; a last line cut off by a crash was never
// answered and is dropped. The file is rewritten as one line (durable-file.ts: temp file, fsync,
// rename), without the entries past keeping, at start when it has more than one line, and when the
// journal has grown past COMPACT_LINES and twice its entries (a cost spread over that many
// changes). A file of a kind's earlier whole-state format is read through the kind's `upgrade`.
import { renameSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { describeIssues } from '../../contract/index.ts';
import { disk, readStored, writeDurably } from '../durable-file.ts';
import { MemoryPushChannel } from '../live/push-channel.ts';
import { SINGLE_STREAMER } from '../caller.ts';
import {
	applyChange,
	changed,
	isPast,
	type Applied,
	type Change,
	type Kept,
	type KeptStore,
	type Kind
} from './kept.ts';

/** The journal is rewritten once it has this many lines, and twice as many as its entries. */
export const COMPACT_LINES = 1000;

export class KeptFileError extends Error {}

export interface FileKeptOptions {
	/** The file, or null: memory only (tests, the demo's throwaway stores). */
	where: string | null;
	/** The variable that names the file (CHAT_FILE), for the messages. */
	variable: string;
	/**
	 * A file that cannot be read: 'stop' throws KeptFileError naming it (the server does not start
	 * over it); 'aside' reports it in one line, moves it to `<file>.broken-<time>`, and starts with
	 * the changes before the first line that cannot be read.
	 */
	unreadable: 'stop' | 'aside';
	/** An earlier format's file (read as is) to a journal line: `{ ...meta, entries }`. */
	upgrade?: (json: unknown) => unknown;
	push?: MemoryPushChannel;
	now?: () => Date;
}

export class FileKeptStore<M extends object, E> implements KeptStore<M, E> {
	readonly push: MemoryPushChannel;
	#meta: M;
	readonly #entries = new Map<string, E>();
	/** The keys of the open entries. */
	readonly #open = new Set<string>();
	/** Changes run one after another, each on the state the one before left. */
	#queue: Promise<unknown> = Promise.resolve();
	#journal: FileHandle | null = null;
	/** Lines in the file since it was last written whole. */
	#lines = 0;
	/** The file is written whole before the next change: none yet, grown, or a write failed. */
	#rewrite = true;

	constructor(
		readonly kind: Kind<M, E>,
		private readonly o: FileKeptOptions
	) {
		this.push = o.push ?? new MemoryPushChannel();
		this.#meta = kind.empty();
		if (o.where === null) return;
		this.#load(o.where);
		if (this.#rewrite && this.#lines > 0)
			this.#queue = this.#persist(null).catch((err: Error) =>
				console.error(
					`${o.variable}: ${o.where} could not be rewritten (tried again on the next change): ${err.message}`
				)
			);
	}

	/** What the changes stored so far left: never waits for one under way (its disk's sync). */
	async read(_streamer: string, keys: readonly string[] = []): Promise<Kept<M, E>> {
		return structuredClone(this.#view(keys));
	}

	update<T>(streamer: string, change: Change<M, E, T>, keys: readonly string[] = []): Promise<T> {
		const run = this.#queue
			.catch(() => {})
			.then(async () => {
				const applied = applyChange(this.#view(keys), change);
				if (!changed(applied)) return applied.value;
				await this.#persist(applied);
				this.#apply(applied);
				for (const m of applied.told) this.push.publish(streamer, m);
				return applied.value;
			});
		this.#queue = run;
		return run;
	}

	add(streamer: string, entries: readonly [string, E][]): Promise<Record<string, E>> {
		const keys = entries.map(([key]) => key);
		return this.update(
			streamer,
			(s) => {
				for (const [key, e] of entries) s.entries[key] ??= e;
				return Object.fromEntries(keys.map((key) => [key, s.entries[key]]));
			},
			keys
		);
	}

	async streamers(): Promise<string[]> {
		return this.#open.size > 0 ? [SINGLE_STREAMER] : [];
	}

	async close(): Promise<void> {
		await this.#queue.catch(() => {});
		await this.#journal?.close();
		this.#journal = null;
	}

	/** What a change sees (not a copy). */
	#view(keys: readonly string[]): Kept<M, E> {
		const entries: Record<string, E> = {};
		for (const key of this.#open) entries[key] = this.#entries.get(key)!;
		for (const key of keys) {
			const e = this.#entries.get(key);
			if (e) entries[key] = e;
		}
		return { ...this.#meta, entries };
	}

	#apply(a: Pick<Applied<M, E, unknown>, 'meta' | 'entries'>): void {
		if (a.meta) this.#meta = a.meta;
		for (const [key, e] of a.entries) {
			this.#entries.set(key, e);
			if (this.kind.open?.(e)) this.#open.add(key);
			else this.#open.delete(key);
		}
	}

	#load(where: string): void {
		const { variable } = this.o;
		let text: string | null;
		try {
			text = readStored(where, KeptFileError);
		} catch (err) {
			if (this.o.unreadable === 'stop') throw err;
			console.error(`${variable}: ${(err as Error).message}; starting with nothing stored`);
			return;
		}
		if (text === null) return;
		const lines = text.split('\n');
		// After the last newline: '' in a whole journal, else a change a crash cut off, never
		// answered; but the first line is always written whole, so one cut short there is damage.
		if (lines.length > 1 && lines.pop())
			console.error(
				`${variable}: ${where}: a last change cut off by a stop was never answered: dropped`
			);
		for (const [i, raw] of lines.entries()) {
			if (raw.trim() === '') continue;
			const problem = this.#line(raw);
			if (problem === null) {
				this.#lines++;
				continue;
			}
			const what = `${where} line ${i + 1} is not a ${this.kind.name} journal line (${problem})`;
			if (this.o.unreadable === 'stop')
				throw new KeptFileError(
					`${what}: fix it, or move the file away to start with nothing stored`
				);
			console.error(`${variable}: ${what}; ${this.#setAside(where)}, ${this.#kept(i)}`);
			this.#rewrite = true;
			return;
		}
		this.#rewrite = this.#lines > 1 || this.#prune(Date.now()) > 0;
	}

	/** Applies one line; what is wrong with it, or null. */
	#line(raw: string): string | null {
		let json: unknown;
		try {
			json = JSON.parse(raw);
		} catch {
			return 'not JSON';
		}
		json = this.o.upgrade?.(json) ?? json;
		if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'not an object';
		const { entries = {}, ...part } = json as { entries?: unknown };
		const meta = this.kind.meta.safeParse({ ...this.#meta, ...part });
		if (!meta.success) return describeIssues(meta.error);
		if (typeof entries !== 'object' || entries === null) return 'entries: not an object';
		const read: [string, E][] = [];
		for (const [key, raw] of Object.entries(entries)) {
			const e = this.kind.entry.safeParse(raw);
			if (!e.success) return describeIssues(e.error, ['entries', key]);
			read.push([key, e.data]);
		}
		this.#apply({ meta: meta.data, entries: read });
		return null;
	}

	#setAside(where: string): string {
		const now = this.o.now?.() ?? new Date();
		const aside = `${where}.broken-${now.toISOString().replace(/[:.]/g, '-')}`;
		try {
			renameSync(where, aside);
			return `moved to ${aside}`;
		} catch (err) {
			// The next change rewrites it anyway.
			return `not moved aside (${(err as Error).message})`;
		}
	}

	#kept(line: number): string {
		return this.#lines > 0
			? `loaded the ${this.#lines} changes before line ${line + 1}`
			: 'starting with nothing stored';
	}

	/** Drops the entries past keeping from memory; how many. */
	#prune(now: number): number {
		let dropped = 0;
		for (const [key, e] of this.#entries)
			if (isPast(this.kind, e, now)) {
				this.#entries.delete(key);
				this.#open.delete(key);
				dropped++;
			}
		return dropped;
	}

	/** Stores a change (null: none, the file rewritten): appended, or the file written whole. */
	async #persist(a: Applied<M, E, unknown> | null): Promise<void> {
		const where = this.o.where;
		if (where === null) return;
		if (this.#rewrite || this.#lines >= Math.max(COMPACT_LINES, 2 * this.#entries.size))
			return this.#writeWhole(where, a);
		const line = {
			...a?.meta,
			...(a?.entries.length ? { entries: Object.fromEntries(a.entries) } : {})
		};
		try {
			this.#journal ??= await open(where, 'a', 0o600);
			await this.#journal.write(JSON.stringify(line) + '\n');
			await disk.sync(this.#journal);
			this.#lines++;
		} catch (err) {
			// What the failed write left is overwritten by the next change's whole file.
			this.#rewrite = true;
			throw err;
		}
	}

	/** The state with `a` applied, as one line written durably; the journal starts after it. */
	async #writeWhole(where: string, a: Applied<M, E, unknown> | null): Promise<void> {
		const now = Date.now();
		const entries: Record<string, E> = {};
		for (const [key, e] of this.#entries) if (!isPast(this.kind, e, now)) entries[key] = e;
		for (const [key, e] of a?.entries ?? []) entries[key] = e;
		this.#rewrite = true;
		await this.#journal?.close();
		this.#journal = null;
		await writeDurably(where, JSON.stringify({ ...(a?.meta ?? this.#meta), entries }) + '\n');
		this.#prune(now);
		this.#lines = 1;
		this.#rewrite = false;
	}
}
