// Single mode's stored settings file (src/server/settings/file-store.ts): values and undo survive a
// restart (a new store on the same file), owner-only; a crash mid-write leaves the last complete
// file; a write that fails changes nothing; and a damaged file is reported in one line naming
// SETTINGS_FILE, moved aside, and replaced by the last good copy, so the server still starts.
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
import { FileSettingsStore } from '../../src/server/settings/file-store.ts';

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
	const store = new FileSettingsStore(where);
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
	it('keeps values and undo across a restart, owner-only, with a last good copy', async () => {
		const where = join(folder(), '.settings.json');
		await saved(where);
		expect(statSync(where).mode & 0o777).toBe(0o600);
		expect(statSync(`${where}.last-good`).mode & 0o777).toBe(0o600);
		expect(readFileSync(`${where}.last-good`, 'utf8')).toBe(readFileSync(where, 'utf8'));

		const again = new FileSettingsStore(where);
		expect(await again.read()).toEqual(SAVED);
		expect(await again.undo('single', 'tts')).toEqual({
			revision: 4,
			target: 'tts',
			values: { accent: 'gold' },
			undo: 1
		});
		const third = new FileSettingsStore(where);
		expect((await third.read()).targets.tts).toEqual({ accent: 'gold' });
		expect((await third.read()).undo.tts).toBe(1);
	});

	it('a crash in the middle of a write leaves the last complete file, read as it was', async () => {
		const where = join(folder(), '.settings.json');
		await saved(where);
		// What a crash between the temp file's write and its rename leaves (durable-file.ts).
		writeFileSync(`${where}.4242.abc.tmp`, '{"revision": 4, "targets": {"tts": {"val');
		const lines = await errorsOf(async () => {
			expect(await new FileSettingsStore(where).read()).toEqual(SAVED);
		});
		expect(lines).toEqual([]);
	});

	it('a write that fails is answered as an error and changes nothing, not even in memory', async () => {
		const dir = folder();
		const where = join(dir, 'sub', '.settings.json');
		const store = new FileSettingsStore(where);
		await store.save('single', 'recent', { limit: '5' });
		const heard: LiveMessage[] = [];
		store.push.subscribe('single', (m) => heard.push(m));
		// The folder is gone and a file stands in its place: no write can succeed.
		rmSync(join(dir, 'sub'), { recursive: true });
		writeFileSync(join(dir, 'sub'), 'not a folder');
		await expect(store.save('single', 'recent', { limit: '9' })).rejects.toThrow();
		await expect(store.undo('single', 'recent')).rejects.toThrow();
		expect(await store.read()).toEqual({
			revision: 1,
			targets: { recent: { limit: '5' } },
			undo: { recent: 1 }
		});
		expect(heard).toEqual([]);
	});

	it.each([
		['truncated', (text: string) => text.slice(0, text.length / 2), /not JSON/],
		['garbage', () => '\u0000\u0001binary', /not JSON/],
		['not settings', () => '{"revision": -1, "targets": {"dock": {}}}', /revision.*targets\.dock/],
		['empty', () => '', /empty/]
	])(
		'a %s file is reported naming SETTINGS_FILE, moved aside, and the last good copy loaded',
		async (_kind, damage, problem) => {
			const dir = folder();
			const where = join(dir, '.settings.json');
			await saved(where);
			const damaged = damage(readFileSync(where, 'utf8'));
			writeFileSync(where, damaged);
			let store!: FileSettingsStore;
			const lines = await errorsOf(() => (store = new FileSettingsStore(where)));
			expect(lines).toHaveLength(1);
			expect(lines[0]).toMatch(/^SETTINGS_FILE: /);
			expect(lines[0]).toContain(where);
			expect(lines[0]).toMatch(problem);
			expect(lines[0]).toContain('loaded');
			expect(await store.read()).toEqual(SAVED);
			const aside = readdirSync(dir).filter((f) => f.startsWith('.settings.json.broken-'));
			expect(aside).toHaveLength(1);
			expect(readFileSync(join(dir, aside[0]), 'utf8')).toBe(damaged);
			// The good copy is written back: the next start reads it without a word, undo included.
			await store.save('single', 'media', { volume: '0.5' });
			const quiet = await errorsOf(async () => {
				const next = new FileSettingsStore(where);
				expect((await next.read()).revision).toBe(4);
				expect((await next.undo('single', 'media')).values).toEqual({ volume: '0.4' });
			});
			expect(quiet).toEqual([]);
		}
	);

	it('a restart right after a damaged file was replaced still finds the good copy', async () => {
		const where = join(folder(), '.settings.json');
		await saved(where);
		writeFileSync(where, '{"revision"');
		await errorsOf(() => new FileSettingsStore(where));
		// Written back at once (renamed into place whole: there means complete).
		await vi.waitFor(() => expect(existsSync(where)).toBe(true));
		expect(await new FileSettingsStore(where).read()).toEqual(SAVED);
	});

	it('a damaged file with no good copy: reported, and the server starts with none stored', async () => {
		const dir = folder();
		const where = join(dir, '.settings.json');
		writeFileSync(where, '{"revision": 2, "targets": ');
		writeFileSync(`${where}.last-good`, 'also broken');
		let store!: FileSettingsStore;
		const lines = await errorsOf(() => (store = new FileSettingsStore(where)));
		expect(lines).toEqual([
			expect.stringMatching(/^SETTINGS_FILE: .*starting with no stored settings$/)
		]);
		expect(await store.read()).toEqual({ revision: 0, targets: {}, undo: {} });
		expect((await store.save('single', 'tts', { look: 'gold' })).revision).toBe(1);
	});
});
