// The settings editor's state (widgets/settings/editor.svelte.ts) against a fake token endpoint that
// answers as the settings routes do: drafts per target, the checker before a save, the server's
// sentences kept beside the fields, a conflict offered a reload, Undo, and the control key asked
// once (a tab's sessionStorage) when the editor could only read with the overlay key.
import { describe, expect, it } from 'vitest';
import type { SettingsValues } from '../../src/contract/index.ts';
import { EditorState, KEY_STORAGE } from '../../widgets/settings/editor.svelte.ts';
import { SettingsClient } from '../../widgets/settings/settings-client.ts';

const CONTROL = 'control_key_0123456789';
const OVERLAY_KEY = 'overlay_key_0123456789';

/** The routes' behaviour, in memory: one streamer, undo stacks, base_revision conflicts. */
function fakeServer() {
	const s = {
		revision: 0,
		targets: {} as Record<string, SettingsValues>,
		history: {} as Record<string, SettingsValues[]>,
		refuse: null as string[] | null,
		calls: [] as string[]
	};
	const json = (status: number, body: unknown) =>
		new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
	const saved = (target: string) =>
		json(200, {
			revision: s.revision,
			target,
			values: s.targets[target] ?? {},
			undo: s.history[target]?.length ?? 0
		});
	const fetch = async (url: string, init: RequestInit = {}) => {
		const method = init.method ?? 'GET';
		const headers = init.headers as Record<string, string>;
		s.calls.push(`${method} ${url}`);
		if (url === '/settings')
			return headers['X-Overlay-Key'] === OVERLAY_KEY
				? json(200, { revision: s.revision, targets: s.targets })
				: json(401, { error: 'bad key', code: 'bad_overlay_key' });
		if (headers['X-Control-Key'] !== CONTROL)
			return json(401, { error: 'missing or wrong control key', code: 'bad_control_key' });
		if (url === '/control/settings') {
			const undo = Object.fromEntries(Object.entries(s.history).map(([t, h]) => [t, h.length]));
			return json(200, { revision: s.revision, targets: s.targets, undo });
		}
		const target = /^\/control\/settings\/([^/]+)/.exec(url)![1];
		if (url.endsWith('/undo')) {
			const previous = s.history[target]?.pop();
			if (!previous) return json(409, { error: 'nothing', code: 'nothing_to_undo' });
			s.targets[target] = previous;
			s.revision++;
			return saved(target);
		}
		const body = JSON.parse(String(init.body)) as { values: SettingsValues; base_revision: number };
		if (s.refuse)
			return json(400, { error: s.refuse.join('; '), code: 'bad_settings', errors: s.refuse });
		if (body.base_revision !== s.revision)
			return json(409, { error: 'saved elsewhere', code: 'settings_conflict' });
		(s.history[target] ??= []).push(s.targets[target] ?? {});
		s.targets[target] = body.values;
		s.revision++;
		return saved(target);
	};
	return { s, fetch };
}

function memoryStorage() {
	const m = new Map<string, string>();
	return {
		getItem: (k: string) => m.get(k) ?? null,
		setItem: (k: string, v: string) => void m.set(k, v),
		removeItem: (k: string) => void m.delete(k),
		m
	};
}

async function pageEditor() {
	const server = fakeServer();
	const client = new SettingsClient({ control: { key: CONTROL }, fetch: server.fetch });
	const editor = new EditorState(client, { kind: 'none' });
	await editor.load();
	return { server, editor };
}

describe('the editor page (control key)', () => {
	it('saves a changed look and a new tier, then Undo brings the old set back', async () => {
		const { server, editor } = await pageEditor();
		expect(editor.status).toBe('ready');
		expect(editor.canUndo).toBe(false);
		editor.set('look', 'neon');
		editor.addTier();
		expect(editor.tierRows).toEqual(['tier1']);
		editor.set('tier1_from', '20');
		editor.set('tier1_look', 'gold');
		expect(editor.dirty).toBe(true);
		await editor.save();
		expect(server.s.targets.tts).toEqual({ look: 'neon', tier1_from: '20', tier1_look: 'gold' });
		expect(editor.dirty).toBe(false);
		expect(editor.canUndo).toBe(true);
		expect(editor.notice?.kind).toBe('ok');

		await editor.undo();
		expect(server.s.targets.tts).toEqual({});
		expect(editor.values).toEqual({});
		expect(editor.canUndo).toBe(false);
		expect(editor.revision).toBe(2);
	});

	it('a refused control key is reported to the page, which knows whether changes would be lost', async () => {
		const server = fakeServer();
		const refusals: unknown[] = [];
		const client = new SettingsClient({
			control: { key: 'wrong_key_0123456789' },
			fetch: server.fetch,
			onKeyRefused: (r) => refusals.push(r)
		});
		const editor = new EditorState(client, { kind: 'none' });
		await editor.load();
		expect(editor.status).toBe('failed');
		expect(refusals).toEqual([{ error: 'missing or wrong control key', final: false }]);
		expect(editor.hasUnsaved).toBe(false);
		editor.set('look', 'neon');
		expect(editor.hasUnsaved).toBe(true);
		// Another target shown: the change is still unsaved.
		editor.select('media');
		expect(editor.hasUnsaved).toBe(true);
	});

	it('Undo with unsaved changes says they will be dropped, and goes on when pressed again', async () => {
		const { server, editor } = await pageEditor();
		editor.set('look', 'neon');
		await editor.save();
		editor.set('look', 'frost');
		await editor.undo();
		// The first press only warns: nothing sent, the edit still there.
		expect(editor.notice?.text).toContain('unsaved changes');
		expect(server.s.targets.tts).toEqual({ look: 'neon' });
		expect(editor.values.look).toBe('frost');
		await editor.undo();
		expect(server.s.targets.tts).toEqual({});
		expect(editor.values).toEqual({});
		expect(editor.dirty).toBe(false);
	});

	it('checks before sending: a bad value is named beside its field and nothing is sent', async () => {
		const { server, editor } = await pageEditor();
		editor.set('color', 'not a colour');
		editor.set('tier2_look', 'gold');
		await editor.save();
		expect(server.s.calls.filter((c) => c.startsWith('PUT'))).toEqual([]);
		expect(editor.notice?.kind).toBe('error');
		expect(editor.errors.some((e) => e.startsWith('color: expected a hex colour'))).toBe(true);
		// The sample keeps showing what is valid: neither the colour nor the broken tier.
		expect(editor.sampleValues).toEqual({});
		// The tiers are read once every value parses (as the widget's parser does).
		editor.set('color', 'ff0000');
		expect(editor.errors).toEqual([
			'tier2_look: tier2 needs tier2_from, the smallest amount it applies to'
		]);
		expect(editor.sampleValues).toEqual({ color: 'ff0000' });
	});

	it("shows the server's sentences until the next edit; nothing is stored", async () => {
		const { server, editor } = await pageEditor();
		server.s.refuse = ['scale: the server says no'];
		editor.set('scale', '2');
		await editor.save();
		expect(editor.serverErrors).toEqual(['scale: the server says no']);
		expect(editor.errors).toContain('scale: the server says no');
		expect(server.s.targets).toEqual({});
		editor.set('scale', '1.5');
		expect(editor.serverErrors).toEqual([]);
	});

	it('a save after another one is a conflict, with a reload that shows theirs', async () => {
		const { server, editor } = await pageEditor();
		server.s.targets.tts = { look: 'frost' };
		server.s.revision = 5;
		editor.set('look', 'neon');
		await editor.save();
		expect(editor.notice?.kind).toBe('conflict');
		expect(server.s.targets.tts).toEqual({ look: 'frost' });
		await editor.reload();
		expect(editor.values).toEqual({ look: 'frost' });
		expect(editor.revision).toBe(5);
		expect(editor.dirty).toBe(false);
	});

	it('keeps a draft per target, and a pasted URL fills its own target', async () => {
		const { editor } = await pageEditor();
		editor.set('look', 'neon');
		editor.select('counters');
		editor.set('label', 'Deaths');
		expect(editor.unsaved('tts')).toBe(true);
		editor.paste({
			ok: true,
			target: 'leaderboard',
			values: { limit: '3' },
			kept: ['key'],
			problems: []
		});
		expect(editor.target).toBe('leaderboard');
		expect(editor.values).toEqual({ limit: '3' });
		editor.select('tts');
		expect(editor.values).toEqual({ look: 'neon' });
		editor.removeTier('tier1');
		expect(editor.values).toEqual({ look: 'neon' });
		editor.discard();
		expect(editor.values).toEqual({});
	});
});

describe('the preview (overlay key, single mode)', () => {
	it('reads with the overlay key, asks the control key once, keeps it for the tab', async () => {
		const server = fakeServer();
		const storage = memoryStorage();
		const client = new SettingsClient({ overlayKey: OVERLAY_KEY, fetch: server.fetch });
		const editor = new EditorState(client, { kind: 'key' }, storage);
		await editor.load();
		expect(editor.status).toBe('ready');
		expect(editor.canUndo).toBeNull();

		editor.set('look', 'gold');
		await editor.save();
		expect(editor.asking).toBe('save');
		expect(server.s.calls.some((c) => c.startsWith('PUT'))).toBe(false);

		await editor.giveKey('wrong_key_but_well_formed');
		expect(editor.asking).toBe('save');
		expect(editor.keyError).toContain('refused');
		expect(storage.m.has(KEY_STORAGE)).toBe(false);

		await editor.giveKey(CONTROL);
		expect(server.s.targets.tts).toEqual({ look: 'gold' });
		expect(storage.m.get(KEY_STORAGE)).toBe(CONTROL);
		expect(editor.canUndo).toBe(true);

		// Another preview tab of the same session starts with the key.
		const again = new EditorState(
			new SettingsClient({ overlayKey: OVERLAY_KEY, fetch: server.fetch }),
			{ kind: 'key' },
			storage
		);
		await again.load();
		expect(again.canUndo).toBe(true);
	});

	it('a malformed key is refused before anything is sent', async () => {
		const server = fakeServer();
		const client = new SettingsClient({ overlayKey: OVERLAY_KEY, fetch: server.fetch });
		const editor = new EditorState(client, { kind: 'key' }, memoryStorage());
		await editor.load();
		await editor.undo();
		expect(editor.asking).toBe('undo');
		await editor.giveKey('short');
		expect(editor.keyError).toContain('not a control key');
		expect(server.s.calls).toEqual(['GET /settings']);
	});

	it('hosted: the session stands in for the key; signed out, it says so', async () => {
		const server = fakeServer();
		const client = new SettingsClient({ overlayKey: OVERLAY_KEY, fetch: server.fetch });
		let signedIn = false;
		const open = async () => (signedIn ? { key: CONTROL } : { error: 'sign in first' });
		const editor = new EditorState(client, { kind: 'session', open });
		await editor.load();
		editor.set('look', 'ember');
		await editor.save();
		expect(editor.notice).toEqual({ kind: 'error', text: 'sign in first' });
		signedIn = true;
		await editor.save();
		expect(server.s.targets.tts).toEqual({ look: 'ember' });
	});
});
