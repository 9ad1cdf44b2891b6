// Stored settings on a page (src/client/settings.ts): the merge under the URL and where each value
// came from, and how a page follows the push channel (read again on its word, a changed set handed
// to the widget, a set that does not parse refused whole and logged once, a failed read kept).
import { describe, expect, it, vi } from 'vitest';
import { EventHub } from '../../src/client/event-hub.ts';
import {
	ignoresStoredSettings,
	mergeSettings,
	PageSettings,
	type SettingsRows
} from '../../src/client/settings.ts';
import type { LiveMessage, StoredSettings } from '../../src/contract/index.ts';
import { mediaParamsForOverlay } from '../../widgets/media/params.ts';
import { parseTtsParams, type TtsParams } from '../../widgets/tts/params.ts';

const KEY = 'k'.repeat(20);
const O = 'o_1a2b3c4d';

function must<T>(r: { ok: true; value: T } | { ok: false; errors: string[] }): T {
	if (!r.ok) throw new Error(r.errors.join('; '));
	return r.value;
}

const stored = (targets: StoredSettings['targets'], revision = 1): StoredSettings => ({
	revision,
	targets
});

describe('merging stored settings under the URL', () => {
	it('takes the URL over the overlay target over the widget kind, and says where each came from', () => {
		const s = stored({
			tts: { look: 'gold', volume: '0.4', gap: '2' },
			[O]: { look: 'neon', position: 'bottom' },
			counters: { color: 'red' }
		});
		const url = new URLSearchParams(`key=${KEY}&look=ember&debug=1`);
		const m = mergeSettings(s, 'tts', url, O);
		expect(Object.fromEntries(m.query)).toEqual({
			look: 'ember',
			volume: '0.4',
			gap: '2',
			position: 'bottom',
			key: KEY,
			debug: '1'
		});
		expect(m.sources).toEqual({
			look: 'URL',
			volume: 'stored settings',
			gap: 'stored settings',
			position: 'overlay settings',
			key: 'URL',
			debug: 'URL'
		});
		// A widget page has no overlay layer: another overlay's settings never reach it.
		expect(mergeSettings(s, 'tts', url).query.get('position')).toBeNull();
	});

	it('never takes a per-source parameter from the stored settings, and an empty URL value is unset', () => {
		const s = stored({ tts: { key: 'x'.repeat(20), instance: 'a', sample: '1', color: 'blue' } });
		const m = mergeSettings(s, 'tts', new URLSearchParams(`key=${KEY}&color=&color=red`));
		expect(m.query.get('key')).toBe(KEY);
		expect(m.query.has('instance')).toBe(false);
		expect(m.query.has('sample')).toBe(false);
		// The first `color` counts (as the parsers read it): empty, so the stored one shows through.
		expect(m.query.get('color')).toBe('blue');
		expect(m.sources.color).toBe('stored settings');
	});

	it("writes the media kind's volume as media_volume on an overlay page, where volume is the speech's", () => {
		const s = stored({ media: { volume: '0.3', size: '0.5' }, tts: { volume: '0.9' } });
		const url = new URLSearchParams(`key=${KEY}&volume=0.6`);
		const m = mergeSettings(s, 'media', url, O);
		expect(m.query.get('media_volume')).toBe('0.3');
		const p = mediaParamsForOverlay(m.query);
		expect(p.ok && [p.value.volume, p.value.size]).toEqual([0.3, 0.5]);
		// Its own page reads it as volume, under the URL's.
		expect(mergeSettings(s, 'media', url).query.get('volume')).toBe('0.6');
	});

	it('is left unread by a sample page', () => {
		expect(ignoresStoredSettings(new URLSearchParams('sample=1'))).toBe(true);
		expect(ignoresStoredSettings(new URLSearchParams('sample=ON'))).toBe(true);
		expect(ignoresStoredSettings(new URLSearchParams('sample=0'))).toBe(false);
		expect(ignoresStoredSettings(new URLSearchParams(''))).toBe(false);
	});
});

/** A token endpoint whose GET /settings answers what the test sets (`answer`), counting reads. */
function fakeApi(first: StoredSettings | 'down') {
	const api = {
		answer: first as StoredSettings | 'down',
		reads: 0,
		send: async (_name: string, method: string, path: string) => {
			expect([method, path]).toEqual(['GET', '/settings']);
			api.reads += 1;
			const a = api.answer;
			return a === 'down'
				? { ok: false as const, kind: 'network' as const, error: 'offline' }
				: { ok: true as const, status: 200, body: structuredClone(a) };
		}
	};
	return api;
}

/** A TTS page: its settings, its widget's (as the page starts it), and what the widget was handed. */
async function ttsPage(first: StoredSettings | 'down', query = `key=${KEY}`, overlayId?: string) {
	const api = fakeApi(first);
	const warn = vi.fn();
	const page = new PageSettings(api, !ignoresStoredSettings(new URLSearchParams(query)), warn);
	await page.read();
	const url = new URLSearchParams(query);
	const own = parseTtsParams(url);
	if (!own.ok) throw new Error(own.errors.join());
	const mine = page.widget('tts', url, parseTtsParams, overlayId);
	const params = mine.initial(own.value);
	const applied: TtsParams[] = [];
	let rows: SettingsRows = [];
	mine.bind({ applySettings: (p) => applied.push(p), showSettings: (r) => (rows = r) });
	const events = new EventHub();
	page.listen(events);
	/** A message of the push channel, and the read it may cause. */
	const hear = async (m: LiveMessage) => {
		events.live(m);
		await new Promise((r) => setTimeout(r, 0));
	};
	return { api, warn, params, applied, rows: () => rows, hear };
}

describe('a page following the stored settings', () => {
	it('starts with the merged parameters and shows each source and the revision', async () => {
		const p = await ttsPage(stored({ tts: { look: 'gold' } }, 3), `key=${KEY}&volume=0.5`);
		expect(p.params.look).toBe('gold');
		expect(p.params.volume).toBe(0.5);
		expect(p.rows()).toEqual([
			['settings', 'revision 3'],
			['look', 'gold (stored settings)'],
			['volume', '0.5 (URL)']
		]);
	});

	it('reads again on a save of its target and hands over what changed, nothing for another target', async () => {
		const p = await ttsPage(stored({ tts: { look: 'gold' } }, 1));
		p.api.answer = stored({ tts: { look: 'gold' }, counters: { color: 'red' } }, 2);
		await p.hear({ type: 'settings', target: 'counters', version: 2 });
		expect(p.api.reads).toBe(1);

		p.api.answer = stored({ tts: { look: 'neon', min_display: '6' } }, 3);
		await p.hear({ type: 'settings', target: 'tts', version: 3 });
		expect(p.api.reads).toBe(2);
		expect(p.applied.map((a) => [a.look, a.min_display])).toEqual([['neon', 6]]);
		expect(p.rows()[0]).toEqual(['settings', 'revision 3']);
		// The revision it has already: no read.
		await p.hear({ type: 'settings', target: 'tts', version: 3 });
		expect(p.api.reads).toBe(2);
	});

	it('reads again on hello and resync, and hands over nothing when the set is the same', async () => {
		const p = await ttsPage(stored({ tts: { look: 'gold' } }, 1));
		p.api.answer = stored({ tts: { look: 'gold' }, media: { size: '0.5' } }, 2);
		await p.hear({ type: 'hello' });
		await p.hear({ type: 'resync' });
		await p.hear({ type: 'decision', order_id: 'tip_1725624000_aaaaaa' });
		expect(p.api.reads).toBe(3);
		expect(p.applied).toEqual([]);
	});

	it('keeps a URL parameter over a stored one, and an undo brings the stored one back', async () => {
		const p = await ttsPage(stored({ tts: { look: 'gold' } }, 1), `key=${KEY}&look=frost`);
		expect(p.params.look).toBe('frost');
		p.api.answer = stored({ tts: { look: 'neon', volume: '0.2' } }, 2);
		await p.hear({ type: 'settings', target: 'tts', version: 2 });
		expect(p.applied.map((a) => [a.look, a.volume])).toEqual([['frost', 0.2]]);
		p.api.answer = stored({ tts: { look: 'gold' } }, 3);
		await p.hear({ type: 'settings', target: 'tts', version: 3 });
		expect(p.applied.map((a) => [a.look, a.volume])).toEqual([
			['frost', 0.2],
			['frost', 1]
		]);
	});

	it('refuses a set that does not parse whole, logs it once, and takes the next good one', async () => {
		const p = await ttsPage(stored({ tts: { look: 'gold' } }, 1));
		// Each value is good alone; together two tiers start at the same amount (the parser refuses).
		p.api.answer = stored({ tts: { look: 'neon', tier1_from: '10', tier2_from: '10' } }, 2);
		await p.hear({ type: 'settings', target: 'tts', version: 2 });
		await p.hear({ type: 'hello' });
		expect(p.applied).toEqual([]);
		expect(p.warn).toHaveBeenCalledTimes(1);
		expect(String(p.warn.mock.calls[0][0])).toMatch(/tts widget were refused/);
		expect(p.rows()[0][1]).toMatch(/^revision 2; refused: tier/);
		p.api.answer = stored({ tts: { look: 'neon' } }, 3);
		await p.hear({ type: 'settings', target: 'tts', version: 3 });
		expect(p.applied.map((a) => a.look)).toEqual(['neon']);
		expect(p.rows()[0]).toEqual(['settings', 'revision 3']);
	});

	it('starts with the URL alone when the read fails, says so, and reads again on hello', async () => {
		const p = await ttsPage('down', `key=${KEY}&gap=1`);
		expect(p.params.look).toBeUndefined();
		expect(p.rows()).toEqual([
			['settings', 'read failed (offline); the URL alone'],
			['gap', '1 (URL)']
		]);
		p.api.answer = stored({ tts: { look: 'ember' } }, 5);
		await p.hear({ type: 'hello' });
		expect(p.applied.map((a) => [a.look, a.gap])).toEqual([['ember', 1]]);
		// A later failure keeps what it has.
		p.api.answer = 'down';
		await p.hear({ type: 'hello' });
		expect(p.applied).toHaveLength(1);
		expect(p.rows()[0]).toEqual(['settings', 'read failed (offline); revision 5 kept']);
	});

	it('reads nothing on a sample page, whatever the channel says', async () => {
		const p = await ttsPage(stored({ tts: { look: 'gold' } }), `key=${KEY}&sample=1`);
		await p.hear({ type: 'settings', target: 'tts', version: 9 });
		expect(p.api.reads).toBe(0);
		expect(p.params.look).toBeUndefined();
		expect(p.rows()[0]).toEqual(['settings', 'not used (sample=1)']);
	});

	it('a widget that fails to apply its settings keeps no other widget from them', async () => {
		const api = fakeApi(stored({}, 1));
		const page = new PageSettings(api, true, vi.fn());
		await page.read();
		const url = new URLSearchParams(`key=${KEY}`);
		const looks: string[] = [];
		const broken = page.widget('tts', url, parseTtsParams, O);
		broken.initial(must(parseTtsParams(url)));
		broken.bind({
			applySettings: () => {
				throw new Error('a bug');
			}
		});
		const fine = page.widget('tts', url, parseTtsParams, O);
		fine.initial(must(parseTtsParams(url)));
		fine.bind({ applySettings: (p) => looks.push(p.look ?? '') });
		const error = vi.spyOn(console, 'error').mockImplementation(() => {});
		api.answer = stored({ tts: { look: 'gold' } }, 2);
		await page.refresh();
		expect(looks).toEqual(['gold']);
		expect(error).toHaveBeenCalledTimes(1);
		error.mockRestore();
	});

	it("an overlay page's widget reads its overlay's saves too", async () => {
		const p = await ttsPage(stored({}, 1), `key=${KEY}`, O);
		p.api.answer = stored({ [O]: { look: 'gold' } }, 2);
		await p.hear({ type: 'settings', target: O, version: 2 });
		expect(p.applied.map((a) => a.look)).toEqual(['gold']);
		expect(p.rows()[1]).toEqual(['look', 'gold (overlay settings)']);
	});
});
