// URLs in and out of the settings editor (widgets/settings/url-io.ts): a pasted widget or overlay
// URL becomes its target's values (per-source parameters kept in the URL, others named), a
// target's values become a URL again, and the live sample's frame URL never carries a real key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SETTINGS_WIDGETS, type SettingsTarget } from '../../src/contract/index.ts';
import { checkSettings, storedNames } from '../../widgets/settings/schemas.ts';
import {
	copyText,
	importUrl,
	SAMPLE_KEY,
	sampleUrl,
	settingsQuery,
	targetOfPath
} from '../../widgets/settings/url-io.ts';

const KEY = 'overlay_key_0123456789';
const OVERLAY = 'o_1a2b3c4d' as SettingsTarget;

describe('a pasted URL', () => {
	it("becomes its widget's values; the source's own parameters stay in its URL", () => {
		const r = importUrl(
			`http://obs.example:8787/widget/tts?key=${KEY}&instance=scene2&look=neon&tier1_from=10&tier1_look=gold&color=&debug=1`
		);
		expect(r).toEqual({
			ok: true,
			target: 'tts',
			values: { look: 'neon', tier1_from: '10', tier1_look: 'gold' },
			kept: ['key', 'instance', 'debug'],
			problems: []
		});
	});

	it("an overlay URL is that overlay's; a path alone will do", () => {
		const r = importUrl(`/overlay/${OVERLAY}?key=${KEY}&media_volume=0.5&name=deaths&style=stars`);
		expect(r).toMatchObject({
			ok: true,
			target: OVERLAY,
			values: { media_volume: '0.5', name: 'deaths', style: 'stars' },
			kept: ['key']
		});
	});

	it('names what the target does not take and leaves it out', () => {
		const r = importUrl(`/widget/counters?key=${KEY}&look=gold&v=2&color=red`);
		expect(r.ok && r.values).toEqual({ color: 'red' });
		expect(r.ok && r.problems).toEqual([
			'look: not a setting of the counters widget, left out',
			'v: not a setting of the counters widget, left out'
		]);
	});

	it('says why a URL is not one it can use', () => {
		expect(importUrl('')).toMatchObject({ ok: false, error: expect.stringContaining('Paste') });
		expect(importUrl('http://[::1')).toEqual({ ok: false, error: 'This is not a URL.' });
		const dock = importUrl(`/dock?key=${KEY}`);
		expect(dock.ok === false && dock.error).toContain('/dock is not a widget or overlay page');
		expect(importUrl('/widget/chat?key=x').ok).toBe(false);
		expect(importUrl('/overlay/o_123?key=x').ok).toBe(false);
		expect(targetOfPath('/widget/tip-goal/')).toBe('tip-goal');
	});
});

describe('a URL written out', () => {
	it("writes the set values in the form's order, the overlay key first when known", () => {
		const values = { tier1_from: '10', look: 'neon', color: '#ff0000', scale: ' ' };
		expect(settingsQuery('tts', values).toString()).toBe('color=%23ff0000&look=neon&tier1_from=10');
		expect(copyText('tts', values, { origin: 'http://h:1', key: KEY })).toBe(
			`http://h:1/widget/tts?key=${KEY}&color=%23ff0000&look=neon&tier1_from=10`
		);
		// Without the overlay key (the editor page holds the control key): the parameters alone.
		expect(copyText('tts', values)).toBe('&color=%23ff0000&look=neon&tier1_from=10');
		expect(copyText('tts', {})).toBe('');
		expect(copyText(OVERLAY, { style: 'stars' }, { origin: '', key: KEY })).toBe(
			`/overlay/${OVERLAY}?key=${KEY}&style=stars`
		);
	});

	it('comes back in as the same values (any stored values of any widget)', () => {
		const target = fc.constantFrom<SettingsTarget>(...SETTINGS_WIDGETS, OVERLAY);
		const values = (t: SettingsTarget) =>
			fc.dictionary(
				fc.constantFrom(...storedNames(t)),
				fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s),
				{ maxKeys: 8 }
			);
		fc.assert(
			fc.property(
				target.chain((t) => fc.tuple(fc.constant(t), values(t))),
				([t, v]) => {
					const back = importUrl(copyText(t, v, { origin: 'http://h', key: KEY }));
					expect(back).toMatchObject({ ok: true, target: t, values: v, problems: [] });
				}
			)
		);
	});
});

describe('the live sample', () => {
	it('is the widget page in sample mode with a placeholder key and the values it takes', () => {
		const url = new URL(
			sampleUrl('tts', 'tts', { look: 'neon' }, { sample_amount: '50' }),
			'http://h'
		);
		expect(url.pathname).toBe('/widget/tts');
		expect(Object.fromEntries(url.searchParams)).toEqual({
			key: SAMPLE_KEY,
			sample: '1',
			look: 'neon',
			sample_amount: '50'
		});
		expect(SAMPLE_KEY).toMatch(/^[A-Za-z0-9_-]{16,128}$/);
	});

	it("shows an overlay's widget with what that widget takes of the overlay's values", () => {
		const values = {
			volume: '0.3',
			media_volume: '0.6',
			look: 'gold',
			size: '0.5',
			color: 'ff0000'
		};
		const media = new URL(sampleUrl('media', OVERLAY, values), 'http://h').searchParams;
		expect(media.get('volume')).toBe('0.6');
		expect(media.get('size')).toBe('0.5');
		expect(media.has('look')).toBe(false);
		const tts = new URL(sampleUrl('tts', OVERLAY, values), 'http://h').searchParams;
		expect([tts.get('volume'), tts.get('look'), tts.has('size')]).toEqual(['0.3', 'gold', false]);
		// The tip goal's page requires the overlay whose goal it shows.
		const goal = new URL(sampleUrl('tip-goal', OVERLAY, values), 'http://h').searchParams;
		expect(goal.get('overlay')).toBe(OVERLAY);
		expect(checkSettings(OVERLAY, values)).toEqual([]);
	});
});
