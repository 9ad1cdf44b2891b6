// Single mode's kept store (src/server/store/file-kept.ts), a journal on disk: a change appends its
// own line, read back in order at the next start; changes run one at a time; a change that throws
// or whose write fails stores and tells nothing; a closed entry is read only when named and dropped
// past keeping; a last line cut off by a crash is dropped; a line that is not the journal's stops
// the start, or is set aside with the changes before it kept; an earlier format is upgraded.
import {
	appendFileSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveMessage } from '../../src/contract/index.ts';
import {
	COMPACT_LINES,
	FileKeptStore,
	type FileKeptOptions
} from '../../src/server/store/file-kept.ts';
import { TASKS } from '../fixtures/kept-kind.ts';

const dirs: string[] = [];
afterEach(() => {
	vi.restoreAllMocks();
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function file(): string {
	const dir = mkdtempSync(join(tmpdir(), 'kept-'));
	dirs.push(dir);
	return join(dir, 'tasks.json');
}
const lines = (where: string) => readFileSync(where, 'utf8').trim().split('\n');
const open = (where: string | null, more: Partial<FileKeptOptions> = {}) =>
	new FileKeptStore(TASKS, { where, variable: 'TASKS_FILE', unreadable: 'stop', ...more });

/** console.error's lines while `run` runs. */
async function errorsOf(run: () => unknown): Promise<string[]> {
	const said: string[] = [];
	vi.spyOn(console, 'error').mockImplementation((...args) => void said.push(args.join(' ')));
	await run();
	vi.restoreAllMocks();
	return said;
}

describe('the kept file', () => {
	it("appends a change's own line, reads it back after a restart, and rewrites it whole", async () => {
		const where = file();
		const store = open(where);
		await store.update('s', (st) => {
			for (let i = 0; i < 500; i++) st.entries[`old_${i}`] = { state: 'done', at: Date.now() };
		});
		await store.update('s', (st) => {
			st.version++;
			st.entries.t1 = { state: 'todo', at: 1 };
		});
		expect(lines(where)).toHaveLength(2);
		expect(lines(where)[1].length).toBeLessThan(100);
		await store.close();

		const again = open(where);
		expect(await again.read('s')).toEqual({
			version: 1,
			entries: { t1: { state: 'todo', at: 1 } }
		});
		expect((await again.read('s', ['old_7'])).entries.old_7).toMatchObject({ state: 'done' });
		// Rewritten whole at start: one line.
		await vi.waitFor(() => expect(lines(where)).toHaveLength(1));
		await again.close();
	});

	it('runs changes one at a time, each on what the one before left', async () => {
		const store = open(file());
		await Promise.all(
			Array.from({ length: 20 }, () =>
				store.update('s', async (st) => {
					st.version++;
				})
			)
		);
		expect((await store.read('s')).version).toBe(20);
		// An entry only added is made once: the first one stays.
		const added = await Promise.all(
			['a', 'b'].map((by) => store.add('s', [['t', { state: 'done', at: Date.now() + 9e6, by }]]))
		);
		expect(added.map((r) => r.t.by)).toEqual(['a', 'a']);
	});

	it('tells once it is stored, each message once; a change that throws stores and tells nothing', async () => {
		const store = open(file());
		const heard: LiveMessage[] = [];
		store.push.subscribe('s', (m) => heard.push(m));
		await store.update('s', (st, tell) => {
			st.version = 5;
			tell({ type: 'chat' });
			tell({ type: 'chat' });
		});
		expect(heard).toEqual([{ type: 'chat' }]);
		await expect(
			store.update('s', (st, tell) => {
				st.version = 6;
				tell({ type: 'chat' });
				throw new Error('refused');
			})
		).rejects.toThrow('refused');
		expect((await store.read('s')).version).toBe(5);
		expect(heard).toHaveLength(1);
	});

	it('a write that fails is answered as an error and changes nothing, not even in memory', async () => {
		const where = file();
		const store = open(join(where, 'sub', 'tasks.json'));
		writeFileSync(join(where), 'a file where the folder should be');
		const heard: LiveMessage[] = [];
		store.push.subscribe('s', (m) => heard.push(m));
		await expect(
			store.update('s', (st, tell) => {
				st.version = 1;
				tell({ type: 'chat' });
			})
		).rejects.toThrow();
		expect((await store.read('s')).version).toBe(0);
		expect(heard).toEqual([]);
	});

	it('reads a closed entry only when named, lists the streamers with open entries, drops the past', async () => {
		const where = file();
		const store = open(where);
		expect(await store.streamers()).toEqual([]);
		await store.update('s', (st) => {
			st.entries.past = { state: 'done', at: Date.now() - 5000 };
			st.entries.done = { state: 'done', at: Date.now() + 60_000 };
			st.entries.todo = { state: 'todo', at: 0 };
		});
		expect(Object.keys((await store.read('s')).entries)).toEqual(['todo']);
		expect(Object.keys((await store.read('s', ['done'])).entries).sort()).toEqual(['done', 'todo']);
		expect(await store.streamers()).toHaveLength(1);
		await store.close();
		const again = open(where);
		expect((await again.read('s', ['past', 'done'])).entries.past).toBeUndefined();
		expect((await again.read('s', ['past', 'done'])).entries.done).toBeDefined();
		await again.close();
	});

	it('drops a last line cut off by a crash; stops at a line that is not its own, naming the file', async () => {
		const where = file();
		const store = open(where);
		await store.update('s', (st) => void (st.version = 3));
		await store.close();
		appendFileSync(where, '{"version":4,"entr');
		const said = await errorsOf(async () => {
			const restarted = open(where);
			expect((await restarted.read('s')).version).toBe(3);
			await restarted.close();
		});
		expect(said).toEqual([expect.stringMatching(/^TASKS_FILE: .*cut off by a stop/)]);

		writeFileSync(where, '{"version":"x"}\n{}\n');
		expect(() => open(where)).toThrow(/tasks\.json line 1 is not a tasks journal line \(version:/);
	});

	it('set aside: reports one line, moves the file aside, and keeps the changes before the bad line', async () => {
		const where = file();
		const store = open(where);
		await store.update('s', (st) => void (st.version = 1));
		await store.update('s', (st) => void (st.version = 2));
		await store.close();
		const damaged = readFileSync(where, 'utf8') + 'garbage\n{"version":9}\n';
		writeFileSync(where, damaged);
		let kept!: FileKeptStore<{ version: number }, unknown>;
		const said = await errorsOf(() => void (kept = open(where, { unreadable: 'aside' }) as never));
		expect(said).toEqual([
			expect.stringMatching(
				/^TASKS_FILE: .* line 3 is not a tasks journal line \(not JSON\); moved to .*, loaded the 2 changes before line 3$/
			)
		]);
		expect((await kept.read('s')).version).toBe(2);
		const aside = readdirSync(join(where, '..')).filter((f) => f.includes('.broken-'));
		expect(aside.map((f) => readFileSync(join(where, '..', f), 'utf8'))).toEqual([damaged]);
		await kept.close();
		// Written back at once: the next start reads it without a word.
		expect(
			await errorsOf(async () => expect((await open(where).read('s')).version).toBe(2))
		).toEqual([]);
	});

	it('reads an earlier whole-state format through the kind’s upgrade', async () => {
		const where = file();
		writeFileSync(where, JSON.stringify({ v: 7, tasks: { a: { state: 'todo', at: 1 } } }) + '\n');
		const store = open(where, {
			upgrade: (json) => {
				const old = json as { v?: number; tasks?: unknown };
				return old.v === undefined ? json : { version: old.v, entries: old.tasks };
			}
		});
		expect(await store.read('s')).toEqual({ version: 7, entries: { a: { state: 'todo', at: 1 } } });
		await store.close();
	});

	it('is rewritten whole once the journal has grown', async () => {
		const where = file();
		const store = open(where);
		for (let i = 0; i <= COMPACT_LINES; i++)
			await store.update('s', (st) => void (st.version = i + 1));
		expect(lines(where).length).toBeLessThan(COMPACT_LINES);
		await store.close();
		expect((await open(where).read('s')).version).toBe(COMPACT_LINES + 1);
	});
});
