// Stored settings through the token endpoint, single mode against the real simulator:
// the pages read them with the overlay key, only the control key saves or undoes, a save is
// checked with the widgets' own schemas (every bad value named, nothing half-saved), two editors
// never overwrite each other unseen, and the push channel tells the open pages.
import { describe, expect, it } from 'vitest';
import { openLive, OVERLAY_KEY, send } from '../fixtures/token-endpoint.ts';
import { rig, type Rig } from './control.setup.ts';

const page = async (r: Rig, method: string, target: string, key?: string | null) => {
	const res = await send(r.app, method, target, { key });
	const text = await res.text();
	return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
};

const save = (r: Rig, target: string, values: Record<string, unknown>, base?: number) =>
	r.dock('PUT', `/control/settings/${target}`, {
		body: base === undefined ? { values } : { values, base_revision: base }
	});

describe('stored settings', () => {
	it('the pages read them with the overlay key, never cached; none at revision 0 at first', async () => {
		const r = await rig();
		const first = await page(r, 'GET', '/settings');
		expect(first.status).toBe(200);
		expect(first.body).toEqual({ revision: 0, targets: {} });
		expect(first.headers.get('cache-control')).toBe('no-store');
		expect((await page(r, 'GET', '/settings', null)).status).toBe(401);
		expect((await page(r, 'GET', '/settings', 'wrong-key-0123456789')).status).toBe(401);

		const saved = await save(r, 'tts', { accent: ' gold ', volume: '0.5', look: '' });
		expect(saved.status).toBe(200);
		// Trimmed, and an empty value is unset.
		expect(saved.body).toEqual({
			revision: 1,
			target: 'tts',
			values: { accent: 'gold', volume: '0.5' },
			undo: 1
		});
		expect((await page(r, 'GET', '/settings')).body).toEqual({
			revision: 1,
			targets: { tts: { accent: 'gold', volume: '0.5' } }
		});
		expect(r.calls).toEqual([]);
	});

	it('only the control key saves, undoes or reads the undo depths', async () => {
		const r = await rig();
		const attempts: { key: string | null; headers: Record<string, string> }[] = [
			{ key: 'wrong-control-key-0123456789', headers: {} },
			{ key: null, headers: { 'x-overlay-key': OVERLAY_KEY } },
			{ key: OVERLAY_KEY, headers: {} },
			{ key: null, headers: {} }
		];
		for (const { key, headers } of attempts) {
			const put = await r.dock('PUT', '/control/settings/tts', {
				key,
				headers,
				body: { values: { accent: 'gold' } }
			});
			expect(put.status).toBe(401);
			expect(put.body.code).toBe('bad_control_key');
		}
		const sent = await send(r.app, 'POST', '/control/settings/tts/undo');
		expect(sent.status).toBe(401);
		expect((await send(r.app, 'GET', '/control/settings')).status).toBe(401);
		expect((await page(r, 'GET', '/settings')).body).toEqual({ revision: 0, targets: {} });
	});

	it('bad values are refused with every parameter named, and nothing of the set is saved', async () => {
		const r = await rig();
		await save(r, 'tts', { accent: 'gold' });
		const bad = await save(r, 'tts', {
			accent: 'red',
			volume: '2',
			bogus: 'x',
			position: 'upside-down'
		});
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe('bad_settings');
		const named = (bad.body.errors as string[]).map((e) => e.split(':')[0]).sort();
		expect(named).toEqual(['bogus', 'position', 'volume']);
		expect(bad.body.error).toContain('volume: expected a number from 0 to 1');
		const notText = await save(r, 'tts', { accent: 5 });
		expect(notText.status).toBe(400);
		expect(notText.body).toMatchObject({
			code: 'bad_settings',
			errors: [expect.stringMatching(/^accent: /)]
		});
		expect((await page(r, 'GET', '/settings')).body).toEqual({
			revision: 1,
			targets: { tts: { accent: 'gold' } }
		});
	});

	it('a parameter that names one source stays in its URL: refused', async () => {
		const r = await rig();
		const bad = await save(r, 'o_1a2b3c4d', { key: 'abc', instance: 'left', media_volume: '0.3' });
		expect(bad.status).toBe(400);
		expect(bad.body.errors).toEqual([
			"key: stays in each source's URL, it is not a stored setting",
			"instance: stays in each source's URL, it is not a stored setting"
		]);
		// The overlay's own name for its videos' volume is a setting of the overlay.
		expect((await save(r, 'o_1a2b3c4d', { media_volume: '0.3' })).status).toBe(200);
	});

	it('a target that is neither a widget nor an overlay id is refused', async () => {
		const r = await rig();
		for (const target of ['dock', 'o_xyz', 'TTS']) {
			const bad = await save(r, target, {});
			expect(bad.status).toBe(400);
			expect(bad.body.code).toBe('bad_target');
		}
		expect((await r.dock('POST', '/control/settings/nope/undo')).body.code).toBe('bad_target');
	});

	it('Undo brings back each earlier set in turn, as new revisions, then has nothing left', async () => {
		const r = await rig();
		await save(r, 'counters', { name: 'hugs' });
		await save(r, 'counters', { name: 'hugs', label: 'Hugs' });
		await save(r, 'media', { volume: '0.2' });
		expect((await r.dock('GET', '/control/settings')).body).toEqual({
			revision: 3,
			targets: { counters: { name: 'hugs', label: 'Hugs' }, media: { volume: '0.2' } },
			undo: { counters: 2, media: 1 }
		});
		const once = await r.dock('POST', '/control/settings/counters/undo');
		expect(once.body).toEqual({
			revision: 4,
			target: 'counters',
			values: { name: 'hugs' },
			undo: 1
		});
		const twice = await r.dock('POST', '/control/settings/counters/undo', { body: {} });
		expect(twice.body).toEqual({ revision: 5, target: 'counters', values: {}, undo: 0 });
		const none = await r.dock('POST', '/control/settings/counters/undo');
		expect(none.status).toBe(409);
		expect(none.body).toMatchObject({ code: 'nothing_to_undo', revision: 5 });
		// The other target kept its set; a target with nothing left is absent.
		expect((await page(r, 'GET', '/settings')).body).toEqual({
			revision: 5,
			targets: { media: { volume: '0.2' } }
		});
	});

	it('a save from an editor that read an older revision is refused: it would overwrite unseen', async () => {
		const r = await rig();
		const { revision } = (await r.dock('GET', '/control/settings')).body;
		expect((await save(r, 'recent', { limit: '5' }, revision)).status).toBe(200);
		const late = await save(r, 'recent', { limit: '8' }, revision);
		expect(late.status).toBe(409);
		expect(late.body).toMatchObject({ code: 'settings_conflict', revision: revision + 1 });
		const stale = await r.dock('POST', '/control/settings/recent/undo', {
			body: { base_revision: revision }
		});
		expect(stale.body.code).toBe('settings_conflict');
		expect((await page(r, 'GET', '/settings')).body.targets).toEqual({ recent: { limit: '5' } });
	});

	it('without the widgets’ schemas a save is refused: nothing unchecked is ever stored', async () => {
		const r = await rig({ options: { checkSettings: undefined } });
		const refused = await save(r, 'tts', { accent: 'gold' });
		expect(refused.status).toBe(503);
		expect(refused.body.code).toBe('no_schemas');
		expect((await page(r, 'GET', '/settings')).body.revision).toBe(0);
	});

	it('the pages’ push channel hears a save and an undo', async () => {
		const r = await rig();
		const live = await openLive(r.app);
		await live.until('"hello"');
		await save(r, 'celebration', { style: 'confetti' });
		await live.until('"version":1');
		expect(live.text()).toContain('{"type":"settings","target":"celebration","version":1}');
		await r.dock('POST', '/control/settings/celebration/undo');
		await live.until('"version":2');
		expect(live.text()).toContain('{"type":"settings","target":"celebration","version":2}');
		await live.close();
	});
});
