// Single mode's chat file (src/server/chat/store.ts on src/server/store/file-kept.ts), a journal on disk: a change appends its
// own line (never the day's entries), read back in order at the next start; a last line cut off by
// a crash is dropped, a line that is not the journal's stops the start with the file's name, the
// earlier whole-state file is read as it is, and the file is rewritten whole at start and when it
// has grown.
import { mkdtempSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { chatFile, type ChatStore } from '../../src/server/chat/store.ts';
import { COMPACT_LINES } from '../../src/server/store/file-kept.ts';

const file = () => join(mkdtempSync(join(tmpdir(), 'chat-file-')), 'chat.json');
const lines = (where: string) => readFileSync(where, 'utf8').trim().split('\n');

/** `n` done entries, written in one change. */
async function doneDay(store: ChatStore, n: number) {
	await store.update('s', (s) => {
		for (let i = 0; i < n; i++) s.entries[`done_${i}`] = { state: 'done', at: Date.now() };
	});
}

describe('the chat file', () => {
	it("appends a change's own entries, whatever the day holds, and reads them back", async () => {
		const where = file();
		const store = chatFile(where);
		await doneDay(store, 2000);
		const size = statSync(where).size;
		await store.update('s', (s) => {
			s.entries.tip_1 = { state: 'owed', at: Date.now(), name: 'Ada', amount: 3 };
		});
		// One short line more: the change, not the 2000 entries before it.
		expect(statSync(where).size - size).toBeLessThan(200);
		expect(lines(where)).toHaveLength(2);
		await store.close();

		const again = chatFile(where);
		expect((await again.read('s', ['done_7'])).entries).toMatchObject({
			tip_1: { state: 'owed', name: 'Ada' },
			done_7: { state: 'done' }
		});
		// Rewritten whole at start: one line.
		await vi.waitFor(() => expect(lines(where)).toHaveLength(1));
		await again.close();
	});

	it('drops a last line cut off by a crash, and refuses a line that is not its own', async () => {
		const where = file();
		const store = chatFile(where);
		await store.update('s', (s) => {
			s.entries.tip_1 = { state: 'owed', at: Date.now() };
		});
		await store.close();
		appendFileSync(where, '{"entries":{"tip_1":{"state":"sen');
		const restarted = chatFile(where);
		expect((await restarted.read('s')).entries.tip_1.state).toBe('owed');
		await restarted.close();

		writeFileSync(where, '{"thanks":"no"}\n{}\n');
		expect(() => chatFile(where)).toThrow(/chat\.json line 1 is not a chat journal line/);
	});

	it('reads the earlier whole-state file', async () => {
		const where = file();
		const whole = {
			thanks: { enabled: true, template: 'Thanks {name}!', burst: 'Thanks {name}!' },
			entries: { tip_9: { state: 'owed', at: Date.now(), name: 'Old' } },
			sends: [],
			problem: null,
			recent: []
		};
		writeFileSync(where, JSON.stringify(whole) + '\n');
		const store = chatFile(where);
		const state = await store.read('s');
		expect(state.thanks.enabled).toBe(true);
		expect(state.entries.tip_9).toMatchObject({ name: 'Old' });
		await store.close();
	});

	it('is rewritten whole once the journal has grown', async () => {
		const where = file();
		const store = chatFile(where);
		for (let i = 0; i <= COMPACT_LINES; i++)
			await store.update('s', (s) => {
				s.entries.tip_1 = { state: 'owed', at: i };
			});
		expect(lines(where).length).toBeLessThan(COMPACT_LINES);
		await store.close();
		const again = chatFile(where);
		expect((await again.read('s')).entries.tip_1.at).toBe(COMPACT_LINES);
		await again.close();
	});
});
