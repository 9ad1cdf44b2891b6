// Single mode's stored settings file (src/server/settings/store.ts, a journal of
// src/server/store/file-kept.ts): values and undo survive a restart (a new store on the same file),
// owner-only; a crash mid-write leaves the last complete file; a write that fails changes nothing;
// a file of the earlier whole format reads as is; and a damaged file is reported in one line naming
// SETTINGS_FILE, moved aside, and what it held before the damage loaded, so the server still starts.
import {
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveMessage } from '../../src/contract/index.ts';
import { settingsFile } from '../../src/server/settings/store.ts';

const dirs: string[] = [];
afterEach(() => {
	vi.restoreAllMocks();
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
	const dir = mkdtempSync(join(tmpdir(), 'settings-'));
	dirs.push(dir);
	return dir;
}

/** console.error's lines while `run` runs. */
async function errorsOf(run: () => unknown): Promise<string[]> {
	const lines: string[] = [];
	const spy = vi
		.spyOn(console, 'error')
		.mockImplementation((...args) => void lines.push(args.join(' ')));
	try {
		await run();
	} finally {
		spy.mockRestore();
	}
	return lines;
}

/** A file with two saves of the TTS widget and one of the media widget. */
async function saved(where: string) {
	const store = settingsFile(where);
	await store.save('single', 'tts', { accent: 'gold' });
	await store.save('single', 'tts', { accent: 'red', look: 'neon' });
	await store.save('single', 'media', { volume: '0.4' });
	return store;
}

const SAVED = {
	revision: 3,
	targets: { tts: { accent: 'red', look: 'neon' }, media: { volume: '0.4' } },
	undo: { tts: 2, media: 1 }
};

describe('the settings file', () => {
	it('keeps values and undo across a restart, owner-only', async () => {
		const where = join(folder(), '.settings.json');
		await saved(where);
		expect(statSync(where).mode & 0o777).toBe(0o600);

		const again = settingsFile(where);
		expect(await again.read('single')).toEqual(SAVED);
		expect(await again.undo('single', 'tts')).toEqual({
			revision: 4,
			target: 'tts',
			values: { accent: 'gold' },
			undo: 1
		});
		await again.close();
		const third = settingsFile(where);
		expect((await third.read('single')).targets.tts).toEqual({ accent: 'gold' });
		expect((await third.read('single')).undo.tts).toBe(1);
	});

	it('a crash in the middle of a write leaves the last complete file, read as it was', async () => {
		const where = join(folder(), '.settings.json');
		await (await saved(where)).close();
		// What a crash between the temp file's write and its rename leaves (durable-file.ts).
		writeFileSync(`${where}.4242.abc.tmp`, '{"revision": 4, "entries": {"tts": {"val');
		const lines = await errorsOf(async () => {
			expect(await settingsFile(where).read('single')).toEqual(SAVED);
		});
		expect(lines).toEqual([]);
	});

	it('a write that fails is answered as an error and changes nothing, not even in memory', async () => {
		const dir = folder();
		const where = join(dir, 'sub', '.settings.json');
		const store = settingsFile(where);
		await store.save('single', 'recent', { limit: '5' });
		const heard: LiveMessage[] = [];
		store.push.subscribe('single', (m) => heard.push(m));
		// The folder is gone and a file stands in its place: no write can succeed.
		rmSync(join(dir, 'sub'), { recursive: true });
		writeFileSync(join(dir, 'sub'), 'not a folder');
		await expect(store.save('single', 'recent', { limit: '9' })).rejects.toThrow();
		await expect(store.undo('single', 'recent')).rejects.toThrow();
		expect(await store.read('single')).toEqual({
			revision: 1,
			targets: { recent: { limit: '5' } },
			undo: { recent: 1 }
		});
		expect(heard).toEqual([]);
	});

	it('reads a file of the earlier whole format as it is', async () => {
		const where = join(folder(), '.settings.json');
		const targets = {
			tts: { values: { accent: 'red', look: 'neon' }, history: [{}, { accent: 'gold' }] },
			media: { values: { volume: '0.4' }, history: [{}] }
		};
		writeFileSync(where, JSON.stringify({ revision: 3, targets }) + '\n');
		const store = settingsFile(where);
		expect(await store.read('single')).toEqual(SAVED);
		expect((await store.undo('single', 'tts')).values).toEqual({ accent: 'gold' });
	});

	it.each([
		['garbage', '\u0000\u0001binary', /not JSON/],
		['not settings', '{"revision": -1, "entries": {"dock": {}}}', /revision: /]
	])(
		'a %s line is reported naming SETTINGS_FILE, the file moved aside, the changes before it loaded',
		async (_kind, damage, problem) => {
			const dir = folder();
			const where = join(dir, '.settings.json');
			await (await saved(where)).close();
			const damaged = readFileSync(where, 'utf8') + damage + '\n';
			writeFileSync(where, damaged);
			let store!: ReturnType<typeof settingsFile>;
			const lines = await errorsOf(() => (store = settingsFile(where)));
			expect(lines).toHaveLength(1);
			expect(lines[0]).toMatch(/^SETTINGS_FILE: /);
			expect(lines[0]).toContain(where);
			expect(lines[0]).toMatch(problem);
			expect(lines[0]).toContain('loaded');
			expect(await store.read('single')).toEqual(SAVED);
			const aside = readdirSync(dir).filter((f) => f.startsWith('.settings.json.broken-'));
			expect(aside).toHaveLength(1);
			expect(readFileSync(join(dir, aside[0]), 'utf8')).toBe(damaged);
			// Written back: the next start reads it without a word, undo included.
			await store.save('single', 'media', { volume: '0.5' });
			await store.close();
			const quiet = await errorsOf(async () => {
				const next = settingsFile(where);
				expect((await next.read('single')).revision).toBe(4);
				expect((await next.undo('single', 'media')).values).toEqual({ volume: '0.4' });
			});
			expect(quiet).toEqual([]);
		}
	);

	it('a restart right after a damaged file was set aside still finds what it held', async () => {
		const where = join(folder(), '.settings.json');
		await (await saved(where)).close();
		writeFileSync(where, readFileSync(where, 'utf8') + '{"revision"\n');
		await errorsOf(() => settingsFile(where));
		// Written back at once (renamed into place whole: there means complete).
		await vi.waitFor(() => expect(existsSync(where)).toBe(true));
		expect(await settingsFile(where).read('single')).toEqual(SAVED);
	});

	it('a damaged file with nothing good in it: reported, and the server starts with none stored', async () => {
		const dir = folder();
		const where = join(dir, '.settings.json');
		writeFileSync(where, '{"revision": 2, "targets": \n');
		let store!: ReturnType<typeof settingsFile>;
		const lines = await errorsOf(() => (store = settingsFile(where)));
		expect(lines).toEqual([
			expect.stringMatching(/^SETTINGS_FILE: .*starting with nothing stored$/)
		]);
		expect(await store.read('single')).toEqual({ revision: 0, targets: {}, undo: {} });
		expect((await store.save('single', 'tts', { look: 'gold' })).revision).toBe(1);
	});
});
