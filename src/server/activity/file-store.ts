// Single mode's Activity (docs/activity.md): one JSON-lines file per day (UTC) under ACTIVITY_DIR,
// each line an entry as it is now (a tip's later outcome is a later line; the last one read wins),
// appended and synced before the apply is answered. The whole list is held in memory, newest
// first, so that a page or a search of 100,000 entries is a walk of an array. Day files past the
// retention go whole; Delete history rewrites the files without the streamer's lines.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ActivityEntry } from '../../contract/activity.ts';
import { matches, newestFirst, positionOf, type ListFilter } from '../../core/activity/query.ts';
import { readStored, writeDurably } from '../durable-file.ts';
import type { ActivityStore, Heard } from './store.ts';

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
const DAY_MS = 86_400_000;

interface Line {
	/** The streamer. */
	s: string;
	/** The event id that made it (null: recovered). */
	e: string | null;
	v: ActivityEntry;
}

/** One streamer's entries: by key, and their keys newest first. */
class Held {
	readonly byKey = new Map<string, ActivityEntry>();
	/** Newest first (an entry's `at` never changes). */
	readonly order: ActivityEntry[] = [];
	readonly events = new Set<string>();

	put(entry: ActivityEntry): void {
		const had = this.byKey.get(entry.id);
		this.byKey.set(entry.id, entry);
		const i = this.#find(entry);
		if (had && this.order[i]?.id === entry.id) this.order[i] = entry;
		else this.order.splice(i, 0, entry);
	}

	/** Where `e` is, or goes, in `order`. */
	#find(e: ActivityEntry): number {
		const p = positionOf(e);
		let lo = 0;
		let hi = this.order.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (newestFirst(positionOf(this.order[mid]), p) < 0) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	/** The first index strictly after `before`. */
	startOf(f: ListFilter): number {
		if (!f.before) return 0;
		const b = f.before;
		let lo = 0;
		let hi = this.order.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (newestFirst(positionOf(this.order[mid]), b) <= 0) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}
}

export interface FileActivityOptions {
	dir: string;
	now?: () => number;
	log?: (line: string) => void;
}

export class FileActivityStore implements ActivityStore {
	readonly #held = new Map<string, Held>();
	readonly #dir: string;
	readonly #now: () => number;
	#starts: Record<string, string | null>;
	/** Writes one at a time, in order. */
	#line: Promise<unknown> = Promise.resolve();

	constructor(o: FileActivityOptions) {
		this.#dir = o.dir;
		this.#now = o.now ?? Date.now;
		const log = o.log ?? ((l) => console.warn(l));
		this.#starts = JSON.parse(readStored(this.#startFile, Error) ?? '{}') as Record<string, string>;
		let bad = 0;
		for (const name of dayFiles(listDir(this.#dir)))
			for (const text of readFileSync(join(this.#dir, name), 'utf8').split('\n')) {
				if (text === '') continue;
				if (!this.#load(text)) bad += 1;
			}
		if (bad) log(`[activity] ${bad} line(s) of ${this.#dir} could not be read; skipped`);
	}

	get #startFile() {
		return join(this.#dir, 'start.json');
	}

	#load(text: string): boolean {
		let line: Partial<Line>;
		try {
			line = JSON.parse(text) as Partial<Line>;
		} catch {
			return false;
		}
		const entry = ActivityEntry.safeParse(line.v);
		if (typeof line.s !== 'string' || !entry.success) return false;
		const held = this.#of(line.s);
		if (typeof line.e === 'string') held.events.add(line.e);
		held.put(entry.data);
		return true;
	}

	#of(streamer: string): Held {
		let held = this.#held.get(streamer);
		if (!held) this.#held.set(streamer, (held = new Held()));
		return held;
	}

	apply(streamer: string, heard: readonly Heard[], now: number): Promise<ActivityEntry[]> {
		const work = this.#line.then(() => this.#apply(streamer, heard, now));
		this.#line = work.catch(() => {});
		return work;
	}

	async #apply(streamer: string, heard: readonly Heard[], now: number) {
		const held = this.#of(streamer);
		const made = new Map<string, ActivityEntry>();
		const lines: string[] = [];
		for (const h of heard) {
			if (h.eventId !== null && held.events.has(h.eventId)) continue;
			let first = true;
			for (const u of h.updates) {
				const next = u.make(made.get(u.key) ?? held.byKey.get(u.key));
				if (!next) continue;
				made.set(u.key, next);
				lines.push(JSON.stringify({ s: streamer, e: first ? h.eventId : null, v: next }));
				first = false;
			}
		}
		if (lines.length === 0) return [];
		await this.#append(now, lines.join('\n') + '\n');
		// Held once written: a list never shows what a restart would not.
		for (const h of heard) if (h.eventId !== null) held.events.add(h.eventId);
		for (const e of made.values()) held.put(e);
		return [...made.values()];
	}

	async #append(now: number, text: string): Promise<void> {
		await mkdir(this.#dir, { recursive: true });
		const fh = await open(join(this.#dir, `${dayOf(now)}.jsonl`), 'a', 0o600);
		try {
			await fh.appendFile(text);
			await fh.sync();
		} finally {
			await fh.close();
		}
	}

	async get(streamer: string, keys: readonly string[]) {
		const held = this.#held.get(streamer);
		const out = new Map<string, ActivityEntry>();
		for (const k of keys) {
			const e = held?.byKey.get(k);
			if (e) out.set(k, e);
		}
		return out;
	}

	async list(streamer: string, f: ListFilter): Promise<ActivityEntry[]> {
		const held = this.#held.get(streamer);
		if (!held) return [];
		const out: ActivityEntry[] = [];
		const { order } = held;
		for (let i = held.startOf(f); i < order.length && out.length < f.limit; i++) {
			const e = order[i];
			const pos = positionOf(e);
			if (f.from !== undefined && pos.at < f.from) break;
			if (matches(e, f, pos)) out.push(e);
		}
		return out;
	}

	async start(streamer: string) {
		return this.#starts[streamer] ?? null;
	}

	setStart(streamer: string, at: string | null): Promise<void> {
		const work = this.#line.then(async () => {
			const next = { ...this.#starts, [streamer]: at };
			await writeDurably(this.#startFile, JSON.stringify(next));
			this.#starts = next;
		});
		this.#line = work.catch(() => {});
		return work;
	}

	delete(streamer: string): Promise<number> {
		const work = this.#line.then(async () => {
			const count = this.#held.get(streamer)?.byKey.size ?? 0;
			for (const name of dayFiles(await readdir(this.#dir).catch(() => []))) {
				const where = join(this.#dir, name);
				const kept = (await readFile(where, 'utf8'))
					.split('\n')
					.filter((t) => t !== '' && !isOf(t, streamer));
				if (kept.length === 0) await rm(where, { force: true });
				else await writeDurably(where, kept.join('\n') + '\n');
			}
			this.#held.delete(streamer);
			return count;
		});
		this.#line = work.catch(() => {});
		return work;
	}

	prune(before: number): Promise<void> {
		const work = this.#line.then(async () => {
			for (const [streamer, held] of this.#held) {
				const keep = held.order.filter((e) => Date.parse(e.at) >= before);
				if (keep.length === held.order.length) continue;
				const next = new Held();
				for (const id of held.events) next.events.add(id);
				for (const e of keep) next.put(e);
				this.#held.set(streamer, next);
			}
			// A day file whose last moment is past: every line in it was written before `before`.
			for (const name of dayFiles(await readdir(this.#dir).catch(() => [])))
				if (Date.parse(name.slice(0, 10)) + DAY_MS <= before)
					await rm(join(this.#dir, name), { force: true });
		});
		this.#line = work.catch(() => {});
		return work;
	}

	/** The bytes of the day files (the bench's size per 1,000 entries). */
	async bytes(): Promise<number> {
		let n = 0;
		for (const name of dayFiles(await readdir(this.#dir).catch(() => [])))
			n += (await readFile(join(this.#dir, name))).byteLength;
		return n;
	}

	async close(): Promise<void> {
		await this.#line;
	}

	/** Now, as the store's clock has it (the recorder's default). */
	now(): number {
		return this.#now();
	}
}

function listDir(dir: string): string[] {
	try {
		return readdirSync(dir);
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw err;
	}
}

/** The day files, oldest first (a later line of an entry wins). */
const dayFiles = (names: string[]) => names.filter((n) => DAY_FILE.test(n)).sort();

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function isOf(text: string, streamer: string): boolean {
	try {
		return (JSON.parse(text) as Partial<Line>).s === streamer;
	} catch {
		return false;
	}
}
